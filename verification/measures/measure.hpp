#pragma once
// A measure of a pair (docs/metrics.md, "Measures of a pair"): one number the runner computes from
// a pair's step ladder - its level runs, the problem, the scheme, the reference - that is not an
// error against the reference (those are verification/error_metrics/). Each is one file in this
// folder that defines its row of the metric table (section measures, rule none or at_most) with the
// function that computes it; the runner computes and judges every row of the table alike, the
// report writes it under the pair's `measures`, and a gating one becomes a check of the pair and of
// the gate by its name. Adding one is its file, its line in the table and its test.
#include <string>
#include <vector>

#include "../metric_table.hpp"

namespace rigidbench {

class Problem;
struct SchemeEntry;
struct Ladder;
struct LevelRun;
struct ReferenceSolution;

/// What a measure is computed from: the step ladder's level runs in order (runs[k].ok false where
/// level k broke down), the problem, the scheme entry (to run it again), the ladder and the reference.
struct MeasureInputs {
  const Problem& p;
  const SchemeEntry& s;
  const Ladder& L;
  const std::vector<LevelRun>& runs;
  const ReferenceSolution& ref;
};

/// A measure's number (NaN: not measured, with the reason in `note`) and what to say with it.
struct MeasureValue {
  double value;
  std::string note;
};

}  // namespace rigidbench
