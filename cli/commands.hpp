#pragma once
// Internal to the command line: one add_<command> per file of cli/, each registering its CLI11
// subcommand and returning what runs it, plus the helpers several commands share.
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "options.hpp"
#include "../reference/reference.hpp"
#include "../tracking/history.hpp"
#include "../verification/expectations.hpp"
#include "../verification/random_study.hpp"
#include "../verification/suite.hpp"

namespace rigidbench::cli {

constexpr int kOk = 0, kVerdictFailed = 1, kBadInput = 2, kInternal = 3, kIoError = 5;  // 4: gate, stale

/// A subcommand and its action (run when the subcommand was given; returns the exit code; throws
/// InputError for bad input).
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_list(CLI::App& app);
Command add_problem(CLI::App& app);
Command add_simulate(CLI::App& app);
Command add_reference(CLI::App& app);
Command add_verify(CLI::App& app, const std::vector<std::string>& argv);
Command add_bench(CLI::App& app, const std::vector<std::string>& argv);
Command add_gate(CLI::App& app, const std::vector<std::string>& command);
Command add_compare(CLI::App& app, const std::vector<std::string>& argv);
Command add_report(CLI::App& app);
Command add_bench_driver(CLI::App& app);
Command add_ladder(CLI::App& app);
Command add_score(CLI::App& app, const std::vector<std::string>& argv);
Command add_merge(CLI::App& app);
Command add_history(CLI::App& app);
Command add_card(CLI::App& app, const std::vector<std::string>& argv);
Command add_program_serve(CLI::App& app);

// ---- shared by several commands (common.cpp) ----
/// Throws InputError unless the folder that would hold `out` exists.
void require_out_folder(const std::string& out);
/// printf-formatted number, "-" when not finite.
std::string fmt(double x, const char* f = "%.3g");
/// The verify summary table on stdout.
void print_summary(const SuiteResult& s);
/// The random-family study per scheme on stdout (verify --random).
void print_random_study(const RandomStudy& study);
/// What an expected-findings list made of the run, on stdout (every outcome but the silent ones).
void print_expectations(const ExpectationReport& e, const std::string& origin);

/// Writes a report that took long to compute (write_atomic). When the system refuses it (IoError:
/// no space, read-only, a folder in the way) the report is saved under <cache dir>/unsaved/ instead,
/// said on stderr, and the IoError is rethrown (exit 5): the computation is not lost.
void write_report(const std::string& path, const std::string& content);

/// Runs the report renderer (render/render_report.py) on report files into out_dir; the exit code.
int render_reports(const std::vector<std::string>& inputs, const std::string& out_dir, const std::string& formats,
                   bool quiet,
                   const std::vector<std::string>& renderer_options = {});

/// --history FILE / --record of the commands that record their run (docs/history.md).
struct HistoryOptions {
  std::string path;
  bool record = false;
  void add_to(CLI::App* sc);
  /// The history to record into, opened (created) now - before the run, so that a bad path fails at
  /// once - or null when the run is not recorded.
  std::unique_ptr<HistoryDb> open() const;
};
/// Records the run when db is not null, and says so.
void record_run(HistoryDb* db, const HistoryRun& run);

}  // namespace rigidbench::cli
