// `rigidbench simulate`: one scheme on one problem, the trajectory as CSV or JSON.
#include <cmath>
#include <cstdio>
#include <memory>

#include "rigidbench/cli/commands.hpp"
#include "rigidbench/core/text_escape.hpp"
#include "rigidbench/integrators/integrate.hpp"
#include "rigidbench/problems/problem_file.hpp"
#include "rigidbench/reports/report.hpp"
#include "rigidbench/reports/trajectory_writer.hpp"

namespace rigidbench::cli {

Command add_simulate(CLI::App& app) {
  struct Options {
    std::string integrator, problem, problem_file, out;
    double h = 0, t_end = NAN;
    std::int64_t every = 1;
    std::vector<std::string> sets;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("simulate", "Run one integrator on one problem and write the trajectory");
  sc->add_option("--integrator", o->integrator, "Registered integrator name")->required();
  sc->add_option("--problem", o->problem, "Catalogue problem");
  sc->add_option("--problem-file", o->problem_file, "Problem file (JSON)");
  sc->add_option("--h", o->h, "Step size")->required();
  auto* tend = sc->add_option("--t-end", o->t_end, "Final time (default: the problem's)");
  sc->add_option("--every", o->every, "Write every k-th step (the final state is always written)");
  sc->add_option("--out", o->out, "Output file, .csv or .json")->required();
  sc->add_option("--set", o->sets, "Scheme setting name=value; repeatable");
  return {sc, [o, tend] {
            check_trajectory_path(o->out);
            require_out_folder(o->out);
            const Problem p = resolve_problem(o->problem, o->problem_file);
            const SchemeEntry s = configure_schemes({&find_scheme(o->integrator)}, o->sets).front();
            if (std::string why = not_applicable(*s.info, p); !why.empty())
              throw InputError(cat("integrator '", o->integrator, "' does not apply to problem '", p.name, "': ", why));
            const double te = tend->count() ? o->t_end : p.t_end;
            auto integ = s.make(p);
            FixedSteps::covering(p.t0, te, o->h, 2e9);  // bad h or t_end: before the output file is opened
            // Rows go to the output as they are produced (memory independent of the steps); the file
            // appears only when the run has ended well.
            TrajectoryWriter out(o->out, p,
                                 {{"integrator", s.info->name}, {"scheme_settings", s.settings.values}, {"problem", p.name},
                                  {"h", o->h}, {"t_end", te}, {"problem_file", problem_to_json(p)}});
            const Trajectory tr = simulate(*integ, p, o->h, te, o->every, [&](double t, const State& x) { out.add(t, x); });
            if (!tr.ok) {
              std::fprintf(stderr, "rigidbench: breakdown: %s (no output written)\n", terminal_text(tr.reason).c_str());
              return kVerdictFailed;
            }
            out.finish();
            return kOk;
          }};
}

}  // namespace rigidbench::cli
