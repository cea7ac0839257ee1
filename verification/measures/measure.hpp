#pragma once
// A measure of a pair (docs/metrics.md, "Measures of a pair"): one number the runner computes from
// a pair's ladder, step or tolerance - its level runs, the problem, the scheme, the reference - that
// is not an error against the reference (those are verification/error_metrics/). Each is one file in this
// folder that defines its row of the metric table (section measures, rule none or at_most) with the
// function that computes it; the runner computes and judges every row of the table alike, the
// report writes it under the pair's `measures`, and a gating one becomes a check of the pair and of
// the gate by its name. Adding one is its file, its line in the table and its test.
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "../metric_table.hpp"
#include "../metrics.hpp"

namespace rigidbench {

class Problem;
struct SchemeEntry;
struct LevelRun;
struct ReferenceSolution;

/// What a measure is computed from: the ladder's level runs in order (runs[k].ok false where level k
/// broke down) - a step ladder's levels, or a tolerance ladder's on its output grid - the problem, the
/// scheme entry, the reference, and level k run again exactly as it ran (a new integrator, the same
/// plan and settings).
struct MeasureInputs {
  const Problem& p;
  const SchemeEntry& s;
  const std::vector<LevelRun>& runs;
  const ReferenceSolution& ref;
  std::function<LevelRun(std::size_t k)> rerun;
};

/// A measure's number (NaN: not measured, with the reason in `note`) and what to say with it.
struct MeasureValue {
  double value;
  std::string note;
};

/// Every measure of the metric table computed on `in` and judged by its rule, by name in the table's
/// order: what the runner records for a pair of either ladder (PairResult::measures).
std::vector<std::pair<std::string, MeasureResult>> measure_pair(const MeasureInputs& in);

}  // namespace rigidbench
