// `rigidbench reference`: a high-accuracy reference solution on an output grid.
#include <cmath>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "../problems/problem_file.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

Command add_reference(CLI::App& app) {
  struct Options {
    ProblemOptions problem;
    ReferenceCliOptions reference;
    std::string out;
    double h = 0;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("reference", "High-accuracy reference solution on an output grid");
  o->problem.add_to(sc, Use::run_one, true, true);
  sc->add_option("--h", o->h, "Output grid spacing")->required();
  o->reference.add_to(sc, true);
  sc->add_option("--out", o->out, "Output file, .csv or .json")->required();
  return {sc, [o] {
            check_trajectory_path(o->out);
            require_out_folder(o->out);
            const Problem p = o->problem.one();
            const double te = o->problem.t_end_of(p);
            const double h = o->h;
            // Output points, not solver steps. The reference is held in memory before it is written
            // (two solves for its error estimate and the cache need the whole grid; measured 440 B per
            // body and point, heavy_top at h = 1e-5: 438 MB peak): at most 10^7 body-points
            // (docs/decisions.md, "Input limits").
            const FixedSteps steps = FixedSteps::covering(p.t0, te, h, 1e7 / double(p.bodies.size()));
            const ReferenceSettings rs = o->reference.settings();
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
