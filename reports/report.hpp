#pragma once
// Report writers (schemas in reports/schema/; README, "Using it").
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../benchmarks/bench_suite.hpp"
#include "../core/atomic_file.hpp"
#include "bench_report.hpp"
#include "../verification/paper_suite.hpp"
#include "../verification/metric_table.hpp"
#include "../verification/runner.hpp"
#include "../verification/suite.hpp"
#include "../verification/expectations.hpp"
#include "../problems/problem_file.hpp"

namespace rigidbench {

inline constexpr const char* kSchemaVersion = "1.0";

nlohmann::ordered_json tool_info();
/// The same provenance as Google Benchmark custom context (rigidbench_* keys) and the baseline's name.
void add_benchmark_context();
nlohmann::ordered_json machine_info();
std::string iso8601_now();
/// The envelope every report starts with (reports/schema/report-1.0.schema.json): schema_version, tool, machine,
/// started, duration_s, command.
/// The metric table (verification/metric_table.hpp) as the "metrics" array every report carries.
nlohmann::ordered_json metrics_json();
nlohmann::ordered_json report_envelope(double seconds, const std::vector<std::string>& command,
                                       const std::string& started);

nlohmann::ordered_json pair_to_json(const PairResult& r, const Problem* p);
nlohmann::ordered_json suite_report(const SuiteResult& s, const std::vector<std::string>& command,
                                    const std::string& started);
// What an expected-findings list made of a run: VerifyReport::add (reports/verify_report.hpp).
/// The `paper` suite's report: the same envelope, no pair results, and `paper_reproductions`.
nlohmann::ordered_json paper_report(const PaperSuiteResult& s, const std::vector<std::string>& command,
                                    const std::string& started);

// The `rigidbench bench` report: BenchReport (reports/bench_report.hpp) and bench_report().

// write_atomic (core/atomic_file.hpp): every file below is written through it.

/// The report file an `--out OUT` names (verify, score, the Python module): OUT itself when it ends
/// in .json (in any case: x.JSON is a file, not a folder), else OUT/report.json. Checked at once -
/// the folder that will hold the file must exist, or be creatable in an existing folder - but
/// nothing is created until write_report_file: bad input never leaves a folder behind.
std::string report_file_for(const std::string& out);
/// Writes a report to the path report_file_for returned, creating its folder (one level) first.
void write_report_file(const std::string& path, const std::string& content);

/// `simulate` / `reference` output: CSV (t, R11..R33, W1..W3, [x, v per body], invariants) or
/// the same columns as JSON arrays, chosen by the extension of `path` (.csv or .json).
void write_trajectory(const std::string& path, const Problem& p, const std::vector<double>& t,
                      const std::vector<State>& states, const nlohmann::ordered_json& meta);
/// Throws InputError unless `path` ends in .csv or .json.
void check_trajectory_path(const std::string& path);

}  // namespace rigidbench
