#pragma once
// The verify report as a type (reports/schema/report-1.0.schema.json, docs/reports.md): the
// provenance, the suite, its pairs (PairReport), the summary, the expected findings and, for the
// paper suite, its reproductions. One serialiser (`to_json`: every verify, score and merged report
// is written by it) and one reader (`read`, validating against the schema); shard merging, the
// gate, the history and compare work on it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../core/shard.hpp"
#include "pair_report.hpp"
#include "provenance.hpp"
#include "../verification/expectations.hpp"
#include "../verification/paper_suite.hpp"
#include "../verification/suite.hpp"

namespace rigidbench {

/// Counts over the pairs; the expectation counts where an expected-findings list was applied.
struct ReportSummary {
  std::int64_t pairs = 0, ok = 0, skipped = 0, breakdown = 0, failed_verdicts = 0;
  std::optional<std::int64_t> expected_failures, unexpected_failures, unexpected_passes, unknown_checks;
};

/// One shard of a sweep (verify --shard k/N, an MPI rank): which, of how many pairs, and the
/// positions of its pairs in the unsharded run.
struct ReportShard {
  Shard shard;
  std::int64_t pairs_total = 0;
  std::vector<std::int64_t> ordinals;
};

/// What an expected-findings list made of the run (verify --expect).
struct ExpectationsRecord {
  std::string file;
  std::vector<ExpectationOutcome> outcomes;
};

struct VerifyReport {
  ToolInfo tool;
  MachineInfo machine;
  std::string started;
  double duration_s = 0;
  std::vector<std::string> command;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();  ///< the metric table it was judged by
  std::string suite;
  std::optional<int> jobs;  ///< settings.jobs
  std::optional<ReportShard> shard;
  std::vector<PairReport> results;
  /// The paper suite's items (paper, item, claim, verdict, finding and their free-form data).
  std::optional<nlohmann::ordered_json> paper_reproductions;
  ReportSummary summary;
  std::optional<nlohmann::ordered_json> random;  ///< a random study's summary (verify --random)
  std::optional<ExpectationsRecord> expectations;
  std::vector<std::string> merged_from;  ///< the shard reports this one merges

  /// The report of a suite run (quick, full, a selection, a scored set) by this build.
  static VerifyReport of(const SuiteResult& s, const std::vector<std::string>& command, const std::string& started);
  /// The paper suite's report: no pair results, its reproductions.
  static VerifyReport of(const PaperSuiteResult& s, const std::vector<std::string>& command, const std::string& started);
  /// The one reader: validated against the report schema first (InputError naming `origin` and the path).
  static VerifyReport read(const nlohmann::json& j, const std::string& origin);
  static VerifyReport read(const nlohmann::ordered_json& j, const std::string& origin);
  /// The one serialiser, with the figure styles of the schemes it names (reports/styles.hpp).
  nlohmann::ordered_json to_json() const;
  /// What to_json writes, field by field (field_json::shape): checked against the schema by a test.
  static nlohmann::ordered_json declared_shape();

  /// Adds what an expected-findings list made of the run: the outcomes and the summary's counts.
  void add(const ExpectationReport& e, const std::string& origin);
};

}  // namespace rigidbench
