#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "commands.hpp"
#include "../core/json_input.hpp"
#include "../core/json_schema.hpp"
#include "../core/data_files.hpp"
#include "../core/process.hpp"
#include "../core/text_escape.hpp"
#include "../tracking/compare.hpp"
#include "../reference/cache.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

void require_out_folder(const std::string& out) {
  const std::filesystem::path p(out);
  const auto dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir)) throw InputError(cat("--out '", out, "': folder '", dir.string(), "' does not exist"));
}

std::string fmt(double x, const char* f) {
  if (!std::isfinite(x)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

namespace {
/// "k/n pass" of the pair's exact invariant claims; empty without one.
std::string exact_invariants(const PairResult& r) {
  int ex = 0, ex_pass = 0, ex_fail = 0;
  for (const auto& i : r.invariants)
    if (i.claim == Claim::exact) ex++, ex_pass += i.verdict == Verdict::pass, ex_fail += i.verdict == Verdict::fail;
  // The column's word is the claims' verdict: a pair that broke down before any was judged reads
  // "0/2 undefined", not "0/2 pass" (a hostile user's finding).
  const char* word = ex_fail > 0 ? " fail" : ex_pass == ex ? " pass" : " undefined";
  return ex == 0 ? std::string() : cat(std::to_string(ex_pass), "/", std::to_string(ex), word);
}

/// What failed, at the end of the pair's row: "  <- FAILED: invariant:energy (drift 3.6e-11 >
/// 1.4e-11), q_ii (7.81, expected 16 at h = 0.005)" (every gating check that failed, by the gate's
/// names, with the numbers it was decided on), then any informational measure that failed its rule
/// ("(rerun_difference 1e-16 fail)") - a row marked FAILED showed only passing columns when the
/// failed verdict was one the columns do not hold (a claimed invariant, a structure claim).
std::string failures(const PairResult& r) {
  std::string failed, info;
  for (const PairResult::Check& c : r.checks())
    if (c.failed) failed += cat(failed.empty() ? "" : ", ", c.name, c.evidence.empty() ? "" : cat(" (", c.evidence, ")"));
  for (const auto& [name, m] : r.measures)
    if (const MetricDef* d = find_metric(name); m.verdict == Verdict::fail && d != nullptr && !d->gating)
      info += cat(" (", name, " ", fmt(m.value, "%.3g"), " fail)");
  return cat(info, failed.empty() ? "" : cat("  <- FAILED: ", failed));
}

/// An adaptive pair's line: error against tolerance with its expected slope p/(q+1) (docs/adaptive.md,
/// "Verdicts"), rejected fraction, effective order, the estimator's own order when measured.
std::string tolerance_line(const PairResult& r) {
  const ToleranceStudy& t = *r.tolerance;
  std::string line = cat("tol-slope ", fmt(t.proportionality.slope, "%.2f"), "/", fmt(t.expected_slope, "%.3g"), " ",
                         to_string(t.proportionality_verdict), ", rejected ", fmt(t.rejected_fraction, "%.2f"), " ",
                         to_string(t.rejection_verdict), ", effective order ", fmt(t.effective_order, "%.1f"));
  if (t.estimator)
    line += cat(", estimate slope ", fmt(t.estimator->fit.slope, "%.2f"), "/", fmt(t.estimator->expected, "%.0f"), " ",
                to_string(t.estimator->verdict));
  if (const std::string exact = exact_invariants(r); !exact.empty()) line += cat(", exact invariants ", exact);
  return line;
}

/// The pairs that do not apply, one line per reason: "skipped 12: REASON - a x p, b x q, ..." (the
/// report lists each pair with its reason). 223 lines of "skipped" hid the 85 that ran.
void print_skipped(const SuiteResult& s) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;  // in order of first appearance
  for (const auto& r : s.results) {
    if (r.status != "skipped") continue;
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == r.reason; });
    if (it == by_reason.end()) it = by_reason.insert(by_reason.end(), {r.reason, {}});
    it->second.push_back(cat(r.integrator, " x ", r.problem));
  }
  constexpr std::size_t kNamed = 4;  // pairs named per reason; the rest counted
  for (const auto& [reason, pairs] : by_reason) {
    std::string named;
    for (std::size_t k = 0; k < pairs.size() && k < kNamed; ++k) named += cat(k ? ", " : "", pairs[k]);
    if (pairs.size() > kNamed) named += cat(" and ", std::to_string(pairs.size() - kNamed), " more");
    std::printf("skipped %zu: %s - %s\n", pairs.size(), terminal_text(reason).c_str(), terminal_text(named).c_str());
  }
}
}  // namespace

void print_summary(const SuiteResult& s) {
  // Q_II at the primary level over its expected 2^p, the level's h in brackets: "15.997/16 (0.001) pass".
  // levels: run/planned of the step ladder, with how it ended (docs/metrics.md, "Sequential ladders").
  std::printf("%-18s %-14s %-9s %-12s %-14s %-24s %-22s %-9s %s\n", "integrator", "problem", "status", "levels",
              "slope(att)/p", "Q_II/2^p (h)", "exact invariants", "ns/step", "x RK4");
  for (const auto& r : s.results) {
    if (r.status == "skipped") continue;  // one line per reason, below the table
    if (r.tolerance) {  // an adaptive scheme: its tolerance ladder instead (docs/adaptive.md)
      std::printf("%-18s %-14s %-9s %s%s\n", r.integrator.c_str(), r.problem.c_str(), r.status.c_str(),
                  tolerance_line(r).c_str(), failures(r).c_str());
      continue;
    }
    const auto it = r.convergence.find("attitude_error_final");
    std::string slope = "-";
    if (it != r.convergence.end())
      slope = cat(fmt(it->second.fit.slope, "%.2f"), "/", fmt(it->second.expected, "%.0f"), " ", to_string(it->second.verdict));
    std::string q = "-";
    if (r.q_ii.primary >= 0) {
      const auto& l = r.q_ii.levels[std::size_t(r.q_ii.primary)];
      q = cat(fmt(l.median, "%.3f"), "/", fmt(r.q_ii.expected, "%.0f"), " (", fmt(l.h, "%.2g"), ") ", to_string(l.verdict));
    }
    const std::string exact = exact_invariants(r);
    const std::string levels = cat(std::to_string(r.ladder.levels), "/", std::to_string(r.levels_planned), " ", r.ladder_stop);
    std::printf("%-18s %-14s %-9s %-12s %-14s %-24s %-22s %-9s %s%s\n", r.integrator.c_str(), r.problem.c_str(),
                r.status.c_str(), levels.c_str(), slope.c_str(), q.c_str(), (exact.empty() ? std::string("0/0 pass") : exact).c_str(),
                fmt(r.cost.ns_per_step, "%.0f").c_str(), fmt(r.cost.ratio_to_baseline, "%.2f").c_str(),
                failures(r).c_str());
  }
  print_skipped(s);
  std::set<std::string> unoptimised;  // an outside step's cost that is not comparable (docs/extending.md)
  for (const auto& r : s.results)
    if (!r.cost.not_comparable.empty() && unoptimised.insert(r.integrator).second)
      std::printf("cost of %s not comparable: %s\n", r.integrator.c_str(), r.cost.not_comparable.c_str());
  bool long_time = false;
  for (const auto& r : s.results) long_time |= r.long_time && r.long_time->status != "not_applicable";
  if (!long_time) return;
  std::printf("\nlong-time energy: max|E - E0|/S_E ~ t^a over the last three decades\n");
  std::printf("%-26s %-26s %10s %9s %14s %s\n", "integrator", "problem", "h", "steps", "a +- se", "behaviour (final max)");
  for (const auto& r : s.results) {
    if (!r.long_time || r.long_time->status == "not_applicable") continue;
    const LongTimeEnergy& L = *r.long_time;
    std::printf("%-26s %-26s %10s %9lld %14s %s%s (%s)%s\n", r.integrator.c_str(), r.problem.c_str(), fmt(L.h, "%.3g").c_str(),
                static_cast<long long>(L.steps_run),
                cat(fmt(L.fit.slope, "%.2f"), " +- ", fmt(L.fit.stderr_slope, "%.2f")).c_str(), L.behaviour.c_str(),
                L.uncertain ? "?" : "", fmt(L.max_deviation.empty() ? NAN : L.max_deviation.back(), "%.2g").c_str(),
                L.status == "breakdown" ? "  <- breakdown" : "");
  }
}

void print_random_study(const RandomStudy& study) {
  const RandomFamilyRequest& q = study.request;
  std::printf("random family %s: %zu problems, seed %llu, E = %s, loaded fraction %s\n", q.family.c_str(), q.count,
              static_cast<unsigned long long>(q.seed), fmt(q.energy, "%g").c_str(), fmt(q.load_fraction, "%g").c_str());
  std::printf("%-26s %8s %10s %14s %16s %s\n", "integrator", "problems", "all pass", "worst order/p", "worst |QII/2^p-1|",
              "worst problem (failed checks)");
  for (const RandomStudy::Scheme& sc : study.schemes) {
    if (sc.problems == 0) {
      std::printf("%-26s %8s %10s (not applicable to the family)\n", sc.integrator.c_str(), "0", "-");
      continue;
    }
    std::printf("%-26s %8zu %9.0f%% %14s %16s %s (%zu)\n", sc.integrator.c_str(), sc.problems,
                100.0 * double(sc.problems - sc.failed) / double(sc.problems),
                cat(fmt(sc.worst_order, "%.2f"), "/", fmt(sc.expected_order, "%.0f")).c_str(),
                fmt(sc.worst_q_ii_deviation, "%.3f").c_str(), sc.worst_problem.c_str(), sc.worst_failed_checks);
  }
}

void print_expectations(const ExpectationReport& e, const std::string& origin) {
  std::printf("expected findings (%s): %d failed as expected, %d unexpected failure(s), %d unexpected pass(es), "
              "%d unknown check(s)\n",
              origin.c_str(), e.expected_failures, e.unexpected_failures, e.unexpected_passes, e.unknown_checks);
  for (const auto& o : e.outcomes) {
    if (o.outcome == "expected_failure" || o.outcome == "not_run") continue;
    const char* what = o.outcome == "unexpected_failure" ? "UNEXPECTED FAILURE"
                       : o.outcome == "unexpected_pass"  ? "UNEXPECTED PASS (remove it from the list)"
                       : o.outcome == "nonstrict_pass"   ? "passed (listed non-strict: at round-off)"
                       : o.outcome == "unknown_scheme"   ? "UNKNOWN SCHEME (not run, not registered)"
                       : o.outcome == "unknown_problem"  ? "UNKNOWN PROBLEM (not run, not in the catalogue)"
                                                         : "UNKNOWN CHECK (the pair ran without it)";
    std::printf("  %-40s %s x %s: %s%s%s\n", what, o.integrator.c_str(), o.problem.c_str(), o.check.c_str(),
                o.reason.empty() ? "" : " - listed because: ", terminal_text(o.reason).c_str());
  }
}

// Inputs are checked here first so that bad input is exit 2 with the file named before Python
// starts; the renderer itself exits 2 for a report it cannot use.
int render_reports(const std::vector<std::string>& inputs, const std::string& out_dir, const std::string& formats,
                   bool quiet, const std::vector<std::string>& renderer_options) {
  // Every input is read and validated here, before the output folder exists: a bad input creates
  // nothing (the renderer validates again, for its own callers). The kind decides the schema, as in
  // render_report.py's report_kind.
  for (const auto& f : inputs) {
    const nlohmann::json j = read_json_input(f, "the report");
    if (!j.is_object() || !j.contains("schema_version"))
      throw InputError(cat("report: '", f, "' is not a rigidbench report (no schema_version)"));
    const std::string kind = j.contains("kind") && j.at("kind").is_string() ? j.at("kind").get<std::string>() : "";
    const DocumentSchema schema = kind == "bench"                 ? DocumentSchema::bench
                                  : kind == "compare"             ? DocumentSchema::compare
                                  : kind == "rigidbench-history" ? DocumentSchema::history
                                  : kind == "card"               ? DocumentSchema::card
                                                                  : DocumentSchema::report;
    validate_document(j, schema, cat("report: '", f, "'"));
  }
  for (std::size_t a = 0, b; a <= formats.size(); a = b + 1) {
    b = formats.find(',', a);
    if (b == std::string::npos) b = formats.size();
    const std::string f = formats.substr(a, b - a);
    if (f != "png" && f != "svg" && f != "pdf")
      throw InputError(cat("report: --format '", f, "' is not one of png, svg, pdf"));
  }
  // $RIGIDBENCH_RENDERER replaces the renderer (tests use it); else the installed or source-tree one.
  const char* script_env = std::getenv("RIGIDBENCH_RENDERER");
  const std::string script = script_env && *script_env ? script_env : data_file("render/render_report.py");
  if (!std::filesystem::exists(script)) throw InputError(cat("report: the renderer '", script, "' is missing"));
  std::filesystem::create_directories(out_dir);
  const std::string py = python_executable();
  std::vector<std::string> args{py, script, "--out", out_dir, "--format", formats};
  if (quiet) args.push_back("--quiet");
  args.insert(args.end(), renderer_options.begin(), renderer_options.end());
  args.push_back("--");  // every input after it is a file, whatever its name
  args.insert(args.end(), inputs.begin(), inputs.end());
  const int rc = run_process(args);
  if (rc == 127) {
    std::fprintf(stderr, "rigidbench: error: report: cannot run '%s' (python3 with matplotlib is needed)\n", py.c_str());
    return kBadInput;
  }
  if (rc > 128) return kInternal;  // killed by a signal
  return rc == 0 ? kOk : rc == kBadInput ? kBadInput : rc == kIoError ? kIoError : kInternal;
}

void write_report(const std::string& path, const std::string& content) {
  try {
    write_report_file(path, content);
  } catch (const IoError& e) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(default_cache_dir()) / "unsaved";
    std::string stamp = iso8601_now();
    for (char& c : stamp)
      if (c == ':') c = '-';
    const fs::path rescue = dir / cat(fs::path(path).stem().string(), "-", stamp, "-", std::to_string(::getpid()),
                                      fs::path(path).extension().string());
    std::error_code ec;
    fs::create_directories(dir, ec);
    try {
      write_atomic(rescue.string(), content);
      std::fprintf(stderr, "rigidbench: %s\nrigidbench: the report was saved to %s instead\n", e.what(), rescue.c_str());
    } catch (const std::exception& e2) {
      std::fprintf(stderr, "rigidbench: %s\nrigidbench: saving it to %s failed too: %s\n", e.what(), rescue.c_str(), e2.what());
    }
    throw;
  }
}

void HistoryOptions::add_to(CLI::App* sc) {
  sc->add_option("--history", path,
                 "Record this run in the history FILE (SQLite; created when absent; docs/history.md)");
  sc->add_flag("--record", record, "Record this run in the default history ($RIGIDBENCH_HISTORY or ./rigidbench-history.sqlite)");
}

std::unique_ptr<HistoryDb> HistoryOptions::open() const {
  if (path.empty() && !record) return nullptr;
  return std::make_unique<HistoryDb>(path.empty() ? default_history_path() : path, HistoryDb::Mode::record);
}

void record_run(HistoryDb* db, const HistoryRun& run) {
  if (db == nullptr) return;
  const std::int64_t id = db->record(run);
  std::printf("history: recorded as run %lld in %s\n", static_cast<long long>(id), db->path().c_str());
}

}  // namespace rigidbench::cli
