// `rigidbench reference`: a high-accuracy reference solution on an output grid.
#include <cmath>
#include <cstdio>
#include <memory>

#include "rigidbench/cli/commands.hpp"
#include "rigidbench/problems/problem_file.hpp"
#include "rigidbench/reports/report.hpp"

namespace rigidbench::cli {

Command add_reference(CLI::App& app) {
  struct Options {
    std::string problem, problem_file, out, formulation, precision = "double", cache_dir;
    double h = 0, t_end = NAN, tol = 1e-13;
    bool no_cache = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("reference", "High-accuracy reference solution on an output grid");
  sc->add_option("--problem", o->problem, "Catalogue problem");
  sc->add_option("--problem-file", o->problem_file, "Problem file (JSON)");
  sc->add_option("--h", o->h, "Output grid spacing")->required();
  auto* tend = sc->add_option("--t-end", o->t_end, "Final time (default: the problem's)");
  // The reference's options are spelled as in verify (--reference-*); the short names stay as aliases.
  auto* tol = sc->add_option("--reference-tol,--tol", o->tol,
                             "Absolute and relative tolerance (default 1e-13; 1e-25 in quad; --tol: its earlier name)");
  sc->add_option("--reference,--formulation", o->formulation,
                 "A formulation the problem's family lists: kirchhoff, newton_euler, euler_angles, hybrid, ..., a "
                 "program's own, or analytic (default: the family's first that applies)");
  sc->add_option("--reference-precision,--precision", o->precision,
                 "double (default) or quad (cpp_bin_float_quad; --precision: its earlier name)");
  sc->add_option("--cache-dir", o->cache_dir, "Reference cache folder (default $RIGIDBENCH_CACHE_DIR or ~/.cache/rigidbench)");
  sc->add_flag("--no-cache", o->no_cache, "Neither read nor write the reference cache");
  sc->add_option("--out", o->out, "Output file, .csv or .json")->required();
  return {sc, [o, tend, tol] {
            check_trajectory_path(o->out);
            require_out_folder(o->out);
            const Problem p = resolve_problem(o->problem, o->problem_file);
            const double te = tend->count() ? o->t_end : p.t_end;
            const double h = o->h;
            // Output points, not solver steps. The reference is held in memory before it is written
            // (two solves for its error estimate and the cache need the whole grid; measured 440 B per
            // body and point, heavy_top at h = 1e-5: 438 MB peak): at most 10^7 body-points
            // (docs/decisions.md, "Input limits").
            const FixedSteps steps = FixedSteps::covering(p.t0, te, h, 1e7 / double(p.bodies.size()));
            const ReferenceSettings rs =
                reference_settings(o->formulation, o->precision, o->tol, tol->count() > 0, o->cache_dir, o->no_cache);
            std::vector<double> grid;
            for (std::int64_t j = 0; j <= steps.steps; ++j) grid.push_back(steps.time(j));
            const ReferenceSolution r = compute_reference(p, grid, rs);
            std::fprintf(stderr, "reference: %s (%s), tolerance %g, error estimate %.3g rad / %.3g rad/s, %zu steps, %.3g s%s\n",
                         r.formulation.c_str(), r.precision.c_str(), r.tolerance, r.error_estimate.attitude,
                         r.error_estimate.omega, r.steps, r.seconds, r.from_cache ? " (from the cache)" : "");
            if (!r.notes.empty()) std::fprintf(stderr, "reference: %s\n", r.notes.c_str());
            write_trajectory(o->out, p, r.times, r.states,
                             {{"reference", {{"kind", r.kind}, {"formulation", r.formulation}, {"stepper", r.stepper},
                                             {"precision", r.precision}, {"tolerance", r.tolerance},
                                             {"error_estimate", r.error_estimate.max()}, {"notes", r.notes}}},
                              {"problem", p.name}, {"problem_file", problem_to_json(p)}});
            return kOk;
          }};
}

}  // namespace rigidbench::cli
