#pragma once
// Expected findings (docs/gate.md, "Expected findings"): a list of gating checks that are known to
// fail, each with its reason, so that `verify` and `gate` can be CI steps on a project whose own
// findings include real failures. Strict, in the manner of an xfail list: a listed check that
// passes is reported and fails the run (the finding went away: remove it from the list), and a
// listed check that the run evaluated under another name is an error.
#include <string>
#include <vector>

#include "suite.hpp"

namespace rigidbench {

struct ExpectedFailure {
  std::string integrator, problem, check, reason;
  /// false: the verdict sits at round-off and fails with some builds only; a pass is reported
  /// (outcome "nonstrict_pass") but does not fail the run.
  bool strict = true;
};

struct Expectations {
  std::string origin;  // the file they were read from
  std::vector<ExpectedFailure> items;
  /// The entry for this check, or nullptr.
  const ExpectedFailure* find(const std::string& integrator, const std::string& problem, const std::string& check) const;
  bool empty() const { return items.empty(); }
};

/// Reads an expectations file (schema reports/schema/expectations-1.0.schema.json). Throws InputError
/// for an unreadable file, a wrong shape (with the JSON path) or a check listed twice.
Expectations load_expectations(const std::string& path);

/// What the run's verdicts say about each expectation and each failure.
struct ExpectationOutcome {
  std::string integrator, problem, check;
  /// expected_failure: failed, as listed; unexpected_pass: listed but passed; unexpected_failure:
  /// failed and not listed; unknown_check: the pair ran but has no such check; unknown_scheme: no
  /// scheme of that name ran or is registered, unknown_problem: no problem of that name ran or is in
  /// the catalogue (both counted with unknown_checks); not_run: the pair
  /// was not part of the run (filters) - neither good nor bad; nonstrict_pass: listed with
  /// "strict": false and passed with this build - reported, not failed.
  std::string outcome;
  std::string reason;  // the expectation's reason (empty for unexpected failures)
};
struct ExpectationReport {
  std::vector<ExpectationOutcome> outcomes;
  int expected_failures = 0, unexpected_passes = 0, unexpected_failures = 0, unknown_checks = 0;
  /// The run passes: every failure was expected and every expectation held.
  bool ok() const { return unexpected_passes == 0 && unexpected_failures == 0 && unknown_checks == 0; }
};
ExpectationReport apply_expectations(const SuiteResult& s, const Expectations& e);
/// The outcomes with their counts, as apply_expectations counts them (merge recounts shards' with it).
ExpectationReport tally(std::vector<ExpectationOutcome> outcomes);

}  // namespace rigidbench
