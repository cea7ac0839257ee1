#pragma once
// `rigidbench compare`: head-to-head tables per problem from report JSON alone (for a practitioner choosing a scheme):
// observed order, Q_II, invariants kept, error at a fixed h, cost per step and cost to reach a
// target accuracy, ranked by that cost. The HTML report renders the same JSON.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "../reports/bench_report.hpp"
#include "../reports/verify_report.hpp"

namespace rigidbench {

struct CompareOptions {
  std::string metric = "attitude_error_final";  // a key of every result's "convergence"
  double target = 1e-6;                         // error to reach for "cost at target accuracy"
  std::optional<double> h = std::nullopt;       // the fixed h of "error at h" (default: problem h0 / 4)
  std::vector<std::string> problems;            // empty: every problem in the report
};

/// A value read off an error ladder, and whether it lies outside the measured (asymptotic) range.
struct LadderValue {
  double value = 0;
  bool extrapolated = false;
};
/// The step h at which the error of a ladder equals `target`: log-log interpolation between the
/// bracketing usable levels; outside them, the line through the nearest usable level with slope
/// `slope` (extrapolated). `usable` marks the levels in the asymptotic range. NaN when no level is
/// usable or the slope is not positive.
LadderValue step_for_error(const std::vector<double>& h, const std::vector<double>& error,
                           const std::vector<bool>& usable, double slope, double target);
/// The error at step `h_star`, read off the same way.
LadderValue error_at_step(const std::vector<double>& h, const std::vector<double>& error,
                          const std::vector<bool>& usable, double slope, double h_star);

/// Several verify reports as one (a Python scheme's or scored trajectories' report beside the
/// built-in schemes'): the first report's header, every report's results. Throws InputError when one
/// is not a verify report or a (scheme, problem) pair appears in two of them.
VerifyReport merge_verify_reports(const std::vector<nlohmann::json>& reports, const std::vector<std::string>& names);

/// Throws InputError when `verify` is not a verify report with pair results, or an option is bad.
/// `bench` may be null (then cost per step is the verify report's wall clock).
nlohmann::ordered_json compare_reports(const VerifyReport& verify, const BenchReport* bench, const CompareOptions& opt);
/// The same on a report document, read with VerifyReport::read.
nlohmann::ordered_json compare_reports(const nlohmann::json& verify, const BenchReport* bench,
                                       const CompareOptions& opt);
std::string compare_markdown(const nlohmann::ordered_json& comparison);

}  // namespace rigidbench
