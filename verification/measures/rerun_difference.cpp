// Determinism in one process (docs/metrics.md, "Measures of a pair"): the ladder's first level (a step
// ladder's coarsest step, a tolerance ladder's loosest tolerance) run again, with a new integrator from
// the same entry, and compared with its first run at every observation time. A scheme whose step
// depends only on its state and h repeats itself bit for bit; one that does not (a state kept between
// runs, an uninitialised value, a reduction whose order varies between threads) shows it here at the cost of the ladder's cheapest level. It is the first of
// the determinism questions users ask of engines (across processes and thread counts are the
// conformance card's).
#include <cmath>
#include <cstring>
#include <limits>

#include "../../integrators/registry.hpp"
#include "../../problems/problem.hpp"
#include "../runner.hpp"
#include "measure.hpp"

namespace rigidbench::metric_defs {
namespace {

MeasureValue rerun_difference_of(const MeasureInputs& in) {
  if (in.s.origin == SchemeOrigin::trajectories)
    return {kNaN, "not measured: a rerun of recorded trajectories reads the same files"};
  if (in.runs.empty() || !in.runs[0].ok) return {kNaN, "not measured: the ladder's first level broke down"};
  const LevelRun& first = in.runs[0];
  const LevelRun again = in.rerun(0);
  if (!again.ok) return {kNaN, cat("the rerun of the first level broke down where its first run did not: ", again.reason)};
  if (again.xi.rows() != first.xi.rows() || again.xi.cols() != first.xi.cols())
    return {kNaN, "not measured: the rerun observed another grid"};
  double worst = 0;
  Eigen::Index differ = 0;
  for (Eigen::Index j = 0; j < first.xi.rows(); ++j)
    for (Eigen::Index c = 0; c < first.xi.cols(); ++c) {
      const double a = first.xi(j, c), b = again.xi(j, c);
      if (std::memcmp(&a, &b, sizeof a) == 0) continue;  // bit for bit (a NaN equals itself here)
      ++differ;
      worst = std::max(worst, std::isfinite(a - b) ? std::abs(a - b) : std::numeric_limits<double>::infinity());
    }
  if (differ == 0)
    return {0.0, cat("bit-identical: ", std::to_string(first.xi.size()), " observables at ", std::to_string(first.xi.rows()),
                     " times of the ladder's first level")};
  return {worst, cat(std::to_string(differ), " of ", std::to_string(first.xi.size()),
                     " observables differ in their bits between two runs of the ladder's first level in one process; "
                     "largest difference shown")};
}

}  // namespace

extern const MetricDef rerun_difference{
    "rerun_difference", MetricSection::measures, "rerun difference (one process)",
    "max |xi - xi'| over the observation grid between two runs of the ladder's first level (coarsest step, loosest "
    "tolerance) in one process (0: bit-identical)",
    "observables", VerdictRule::at_most, 1, false, "informational: determinism in one process", nullptr, 0.0,
    nullptr, rerun_difference_of};

}  // namespace rigidbench::metric_defs
