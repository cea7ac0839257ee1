// `rigidbench simulate`: one scheme on one problem, the trajectory as CSV or JSON.
#include <cmath>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "../core/text_escape.hpp"
#include "../integrators/integrate.hpp"
#include "../problems/problem_file.hpp"
#include "../reports/report.hpp"
#include "../reports/trajectory_writer.hpp"

namespace rigidbench::cli {

Command add_simulate(CLI::App& app) {
  struct Options {
    SchemeOptions scheme;
    ProblemOptions problem;
    std::string out;
    double h = 0;
    std::int64_t every = 1;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("simulate", "Run one integrator on one problem and write the trajectory");
  o->scheme.add_to(sc, Use::run_one);
  o->problem.add_to(sc, Use::run_one, true, true);
  sc->add_option("--h", o->h, "Step size")->required();
  sc->add_option("--every", o->every, "Write every k-th step (the final state is always written)");
  sc->add_option("--out", o->out, "Output file, .csv or .json")->required();
  return {sc, [o] {
            check_trajectory_path(o->out);
            require_out_folder(o->out);
            const Problem p = o->problem.one();
            const SchemeEntry s = configure_schemes({&find_scheme(o->scheme.one())}, o->scheme.sets).front();
            if (std::string why = not_applicable(*s.info, p); !why.empty())
              throw InputError(cat("integrator '", o->scheme.one(), "' does not apply to problem '", p.name, "': ", why));
            const double te = o->problem.t_end_of(p);
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
