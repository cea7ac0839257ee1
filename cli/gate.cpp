// `rigidbench gate`: accuracy and speed regressions against a blessed baseline (docs/gate.md).
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>

#include "../core/atomic_file.hpp"
#include "../core/json_input.hpp"
#include "../core/text_escape.hpp"
#include "../benchmarks/bench_suite.hpp"
#include "against.hpp"
#include "commands.hpp"
#include "ranks.hpp"
#include "../tracking/merge.hpp"
#include "../tracking/gate.hpp"
#include "../reports/report.hpp"
#include "../verification/expectations.hpp"

namespace rigidbench::cli {
namespace {

nlohmann::json read_json(const std::string& path, const std::string& what, const std::string& missing_hint) {
  if (!missing_hint.empty() && !std::filesystem::exists(path))
    throw InputError(cat("gate: cannot open ", what, "'", path, "'", missing_hint));
  return read_json_input(path, cat("gate: ", what));
}

struct RunOptions {
  std::vector<std::string> integrators{"all"}, problems;
  int jobs = 0;
  Shard shard;
  bool speed = true, quiet = false;
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The current snapshot: the quick suite (and the benchmarks, unless accuracy only) run now, with
/// progress on stderr; the run's reports, for the history, in `record`. Under N MPI ranks each runs
/// shard rank+1/N of both and rank 0 merges them (docs/scaling.md, MPI); the other ranks get nullopt.
std::optional<GateSnapshot> run_snapshot(const RunOptions& ro, HistoryRun& record) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool distributed = ranks().distributed();
  if (distributed && !ro.shard.all())
    throw InputError("gate: --shard and MPI both split the pairs: under mpirun each rank runs shard rank+1/N");
  const bool quiet = ro.quiet || !ranks().root();
  const std::string started = iso8601_now();
  const auto parts = gather_parts([&](const Shard& rank_shard) {
    const Shard shard = distributed ? rank_shard : ro.shard;
    SuiteRequest sr;
    sr.integrators = ro.integrators;
    sr.problems = ro.problems;
    sr.jobs = ro.jobs;
    sr.shard = shard;
    sr.progress = !quiet;
    sr.measure_cost = false;
    if (!quiet) std::fprintf(stderr, "gate: [1/%d] the quick suite...\n", ro.speed ? 2 : 1);
    nlohmann::ordered_json part;
    part["verify"] = suite_report(run_suite(sr), {}, started);
    if (ro.speed) {
      BenchRequest br;
      br.integrators = ro.integrators;
      br.problems = ro.problems;
      br.shard = shard;
      br.min_time = 0.01;
      br.repetitions = 5;  // the rank test of times needs 4 or more a side (docs/gate.md, "Times")
      br.work_precision = false;
      br.quiet = true;
      br.jobs = distributed ? 1 : ro.jobs;  // the callgrind drivers at once (the ranks already share the cores)
      if (!quiet)
        std::fprintf(stderr, "gate: [2/2] the benchmarks: timings and instruction counts under callgrind (%.0f s so far)...\n",
                     since(t0));
      add_benchmark_context();
      part["bench"] = bench_report(run_bench(br), {}, started);
    }
    return part;
  });
  if (!parts) return std::nullopt;
  nlohmann::ordered_json verify_part, bench_part;
  if (distributed) {
    std::vector<nlohmann::ordered_json> verifies, benches;
    std::vector<std::string> names;
    for (std::size_t r = 0; r < parts->size(); ++r) {
      verifies.push_back((*parts)[r].at("verify"));
      if (ro.speed) benches.push_back((*parts)[r].at("bench"));
      names.push_back(cat("rank ", std::to_string(r)));
    }
    verify_part = merge_shard_reports(verifies, names);
    if (ro.speed) bench_part = merge_shard_reports(benches, names);
  } else {
    verify_part = parts->front().at("verify");
    if (ro.speed) bench_part = parts->front().at("bench");
  }
  const nlohmann::json verify_json = nlohmann::json::parse(verify_part.dump());
  const nlohmann::json bench_json = ro.speed ? nlohmann::json::parse(bench_part.dump()) : nlohmann::json();
  if (!quiet) std::fprintf(stderr, "gate: current run done in %.0f s\n", since(t0));
  record.recorded_at = started;
  record.verify = verify_json;
  record.bench = bench_json;
  const VerifyReport verify = VerifyReport::read(verify_json, "the verify report");
  if (!ro.speed) return GateSnapshot::of_reports(verify);
  const BenchReport bench = BenchReport::read(bench_json, "the bench report");
  return GateSnapshot::of_reports(verify, &bench);
}

/// gate --against: REV's build and this one benchmarked on this machine, interleaved (A B, then
/// B A for timings), compared as two speed-only snapshots (docs/gate.md, "Speed on any runner").
GateResult run_against(const AgainstRequest& ar, const GateOptions& options, HistoryRun& record) {
  namespace fs = std::filesystem;
  const auto t0 = std::chrono::steady_clock::now();
  // This build's counts are the same in any run of it: one already made (gate --run --bench-out)
  // saves a callgrind pass, if it is this build's (checked now) and of the same pairs (after [3/4]).
  BenchReport c1;
  if (!ar.current_bench.empty()) {
    const nlohmann::json c1_json = read_json(ar.current_bench, "the bench report ", "");
    if (!c1_json.is_object() || c1_json.value("kind", "") != "bench" || !c1_json.contains("tool") || !c1_json.contains("results"))
      throw InputError(cat("gate: --current-bench '", ar.current_bench, "' is not a rigidbench bench report"));
    c1 = BenchReport::read(c1_json, cat("gate: --current-bench '", ar.current_bench, "'"));
    if (!(c1.tool == ToolInfo::current()))
      throw InputError(cat("gate: --current-bench '", ar.current_bench, "' was made by another build (",
                           c1.tool.to_json().dump(), "; this one: ", tool_info().dump(), ")"));
  }
  const std::string other = against_binary(ar);
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  // The scratch folder: a fresh name no other user can guess or take first (mkdtemp: created
  // atomically, mode 0700), removed after a comparison - and kept after a failure, whose message
  // points into it (its bench.log).
  std::string name = (fs::temp_directory_path() / "rigidbench-against-XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr)
    throw IoError(cat("gate --against: cannot create a scratch folder in ", fs::temp_directory_path().string(), ": ",
                      std::strerror(errno)));
  const fs::path tmp = name;
  struct Cleanup {
    fs::path p;
    int unwinding = std::uncaught_exceptions();
    ~Cleanup() {
      if (std::uncaught_exceptions() > unwinding) {
        std::fprintf(stderr, "gate: --against: the scratch folder with its logs is kept: %s\n", p.c_str());
        return;
      }
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{tmp};
  auto read = [](const std::string& path) {
    return BenchReport::read(read_json(path, "the bench report ", ""), cat("gate: the bench report '", path, "'"));
  };
  auto stage = [&](const char* what) {
    if (!ar.quiet) std::fprintf(stderr, "gate: --against %s: %s (%.0f s so far)\n", ar.revision.c_str(), what, since(t0));
  };
  stage("[1/4] its benchmarks and instruction counts");
  const auto b1 = read(run_bench_of(other, ar, (tmp / "base1").string(), false));
  if (ar.current_bench.empty()) {
    stage("[2/4] this build's benchmarks and instruction counts");
    c1 = read(run_bench_of(self, ar, (tmp / "cur1").string(), false));
  } else {
    stage(cat("[2/4] this build's benchmarks and instruction counts: ", ar.current_bench).c_str());
  }
  stage("[3/4] this build's timings again");
  const auto c2 = read(run_bench_of(self, ar, (tmp / "cur2").string(), true));
  if (!ar.current_bench.empty()) {
    auto pairs = [](const BenchReport& b) {
      std::set<std::pair<std::string, std::string>> out;
      for (const BenchEntry& e : b.entries) out.emplace(e.integrator, e.problem);
      return out;
    };
    if (pairs(c1) != pairs(c2))
      throw InputError(cat("gate: --current-bench '", ar.current_bench, "' has other pairs than --against's selection (",
                           std::to_string(pairs(c1).size()), " against ", std::to_string(pairs(c2).size()), ")"));
  }
  stage("[4/4] its timings again");
  const auto b2 = read(run_bench_of(other, ar, (tmp / "base2").string(), true));
  record.bench = nlohmann::json::parse(c1.to_json().dump());  // this build's counts and timings
  GateOptions opt = options;
  opt.speed_only = true;
  opt.accuracy_only = false;
  return gate_compare(GateSnapshot::of_benches({b1, b2}), GateSnapshot::of_benches({c1, c2}), opt);
}

/// What the options of `gate` fill (CLI11).
struct GateCliOptions {
  std::string baseline, current, junit, markdown, summary_json, snapshot_out, bench_out, expect, shard;
  std::vector<std::string> command;                  // as typed: the line that reproduces a failure
  std::chrono::steady_clock::time_point started;     // the whole run's wall time, for JUnit
  AgainstRequest against;
  HistoryOptions history;
  bool run = false, bless = false;
  SchemeOptions schemes;    // filled into gate.integrators, gate.problems
  ProblemOptions problems;
  GateOptions gate;
  RunOptions run_options;
};

/// The subcommand and its options.
CLI::App* add_gate_options(CLI::App& app, GateCliOptions& o) {
  auto* sc = app.add_subcommand("gate", "Compare a run with a blessed baseline (accuracy and speed regressions)");
  sc->add_option("--baseline", o.baseline, "Baseline snapshot (JSON); written only with --bless");
  sc->add_option("--in,--current", o.current, "Current snapshot or verify report (JSON; --current: its earlier name)");
  sc->add_flag("--run", o.run, "Run the quick suite and the benchmarks to produce the current snapshot");
  sc->add_flag("--bless", o.bless, "Write the current snapshot as the new baseline (the only way to write one)");
  sc->add_option("--junit", o.junit, "Write JUnit XML (one testcase per scheme x problem x metric)");
  sc->add_option("--markdown", o.markdown,
                 "Write a short Markdown summary (outcome, counts, one line per check that did not pass; e.g. "
                 "$GITHUB_STEP_SUMMARY)");
  sc->add_option("--summary-json", o.summary_json, "Write the same summary as JSON (reports/schema/gate-summary-1.0.schema.json)");
  sc->add_option("--snapshot-out", o.snapshot_out, "Also write the current snapshot to this file");
  sc->add_option("--bench-out", o.bench_out,
                 "With --run: also write the run's bench report (timings and instruction counts) to this file");
  sc->add_option("--current-bench", o.against.current_bench,
                 "With --against: this build's bench report from --run --bench-out, instead of counting its "
                 "instructions again");
  sc->add_flag("--allow-stale", o.gate.allow_stale,
               "Stale rows (another scheme version, speed counted by another toolchain) warn instead of failing");
  sc->add_flag("--require-rebless", o.gate.require_rebless,
               "Improved rows (an error below the band, a verdict fail -> pass, fewer instructions or less work) make "
               "the baseline stale, exit 4, until it is re-blessed (default: reported, and the gate passes)");
  sc->add_flag("--accuracy-only", o.gate.accuracy_only,
               "Compare accuracy only (no benchmarks with --run): for a runner with another toolchain or no valgrind");
  o.schemes.add_to(sc, Use::filter, "gated on both sides");
  o.problems.add_to(sc, Use::filter, false, false, "gated on both sides");
  sc->add_option("--error-band", o.gate.rules.log10_rise,
                 "Decades an error may rise before it fails, for this run (default 0.1; a baseline's own tolerances "
                 "override it for their rows: docs/gate.md)")
      ->check(CLI::Range(1e-6, 6.0));
  sc->add_option("--instruction-tolerance", o.gate.rules.instruction_rise,
                 "Fraction instructions per step may rise before they fail, for this run (default 0.02)")
      ->check(CLI::Range(1e-6, 10.0));
  sc->add_option("--expect", o.expect, "Expected findings (JSON): listed failures pass, listed checks that pass fail");
  sc->add_option("--shard", o.shard,
                 "Gate shard k/N of the pairs (run and compared; the baseline is restricted to the same shard)");
  sc->add_option("--jobs", o.run_options.jobs, "Worker threads of --run's verification and instruction counts, build jobs of --against (default: all cores)");
  sc->add_option("--against", o.against.revision,
                 "Speed against git revision REV instead of a baseline: REV built in a worktree with this build's "
                 "compiler and flags (cached), both builds' benchmarks run here, instructions +2 % fail");
  sc->add_option("--against-binary", o.against.binary, "Speed against this rigidbench command (an existing build of another revision)");
  sc->add_option("--repository", o.against.repository, "The git repository --against builds from (default: the current folder's)");
  sc->add_option("--build-cache", o.against.cache_dir, "Where --against keeps its builds (default: <reference cache>/against)");
  o.history.add_to(sc);
  sc->add_flag("--quiet", o.run_options.quiet, "No progress on stderr");
  return sc;
}

/// After a failing gate: the command that reproduces it (as it was typed), and the one that accepts
/// the current behaviour as the new baseline - for the same selection - once the change is intended
/// (docs/gate.md, "When the gate fails").
std::string next_commands(const GateCliOptions& o) {
  std::string again;
  for (const std::string& w : o.command) again += cat(again.empty() ? "" : " ", shell_text(w));
  if (o.baseline.empty()) return cat("gate: reproduce with: ", again, "\n");
  // The command as typed up to its subcommand: the global options (--program FILE, --plugin ...) that
  // registered the gated schemes are needed again.
  std::string head = o.command.empty() ? std::string("rigidbench") : std::string();
  for (std::size_t i = 0; i < o.command.size(); ++i) {
    head += cat(head.empty() ? "" : " ", shell_text(o.command[i]));
    if (i > 0 && o.command[i] == "gate") break;
  }
  if (o.command.empty() || head.size() < 5 || head.compare(head.size() - 5, 5, " gate") != 0) head += " gate";
  std::string bless = cat(head, " ", o.run ? std::string("--run") : cat("--in ", shell_text(o.current)),
                          " --bless --baseline ", shell_text(o.baseline));
  for (const auto& [flag, v] : {std::pair<const char*, const std::vector<std::string>*>{"--integrator", &o.gate.integrators},
                                {"--problem", &o.gate.problems}})
    if (!v->empty()) {
      bless += cat(" ", flag);
      for (const std::string& x : *v) bless += cat(" ", shell_text(x));
    }
  if (o.gate.accuracy_only) bless += " --accuracy-only";
  return cat("gate: reproduce with: ", again, "\ngate: if the change is intended, re-bless with: ", bless, "\n");
}

/// The table printed, the JUnit file written, the outcome recorded with what was measured
/// (docs/history.md); the gate's exit code.
int finish_gate(const GateCliOptions& o, HistoryRun& record, const GateResult& g, HistoryDb* history) {
  std::fputs(gate_table(g).c_str(), stdout);
  if (g.exit_code() != 0) std::fputs(next_commands(o).c_str(), stdout);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - o.started).count();
  if (!o.junit.empty())
    write_atomic(o.junit, gate_junit(g, iso8601_now(), machine_info().value("hostname", "unknown"), wall));
  if (!o.markdown.empty()) write_atomic(o.markdown, gate_markdown(g));
  if (!o.summary_json.empty()) write_atomic(o.summary_json, gate_summary_json(g).dump(1) + "\n");
  record.outcome = g.exit_code() == 0 ? "pass" : "fail";
  record_run(history, record);
  return g.exit_code();
}

/// --against: the speed of two builds compared on this machine.
int gate_against(GateCliOptions& o, HistoryRun& record) {
  if (ranks().distributed())
    throw InputError("gate --against builds and benchmarks on this machine: run it in one process, not under MPI");
  if (o.run || !o.current.empty() || o.bless || !o.baseline.empty() || o.gate.accuracy_only || !o.bench_out.empty())
    throw InputError("gate: --against compares two builds' speed on this machine: --run, --in, --bless, "
                     "--baseline, --accuracy-only and --bench-out do not apply");
  if (!o.against.revision.empty() && !o.against.binary.empty())
    throw InputError("gate: give one of --against REV and --against-binary PATH");
  if (o.against.revision.empty()) o.against.revision = o.against.binary;
  AgainstRequest& ar = o.against;
  if (!o.gate.integrators.empty()) ar.integrators = o.gate.integrators;
  ar.problems = o.gate.problems;
  if (!o.shard.empty()) o.gate.shard = ar.shard = parse_shard(o.shard);
  ar.jobs = o.run_options.jobs;
  ar.quiet = o.run_options.quiet;
  const std::unique_ptr<HistoryDb> history = o.history.open();
  record.recorded_at = iso8601_now();
  return finish_gate(o, record, run_against(ar, o.gate, record), history.get());
}

/// A baseline blessed for some pairs, gated without --integrator/--problem: its selection is the gate's.
void adopt_selection(const GateSnapshot& baseline, GateCliOptions& o) {
  if (!baseline.selection) return;
  if (!o.gate.integrators.empty() || !o.gate.problems.empty()) return;
  o.gate.integrators = baseline.selection->integrators;
  o.gate.problems = baseline.selection->problems;
  if (!o.gate.integrators.empty() || !o.gate.problems.empty())
    std::fprintf(stderr, "gate: the baseline was blessed for a selection of pairs (%s%s%s): gating those\n",
                 o.gate.integrators.empty() ? "" : "--integrator ...", o.gate.integrators.empty() || o.gate.problems.empty() ? "" : " ",
                 o.gate.problems.empty() ? "" : "--problem ...");
}

/// The tolerances of the baseline a bless replaces (none when there is no readable baseline there).
std::vector<GateTolerance> kept_tolerances(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  std::vector<GateTolerance> kept;
  try {
    kept = GateSnapshot::read(read_json(path, "the baseline ", ""), "the baseline").tolerances;
    if (!kept.empty()) std::printf("gate: kept the baseline's %zu tolerance(s) of its own\n", kept.size());
  } catch (const InputError&) {
    // not a snapshot: replaced whole
  }
  forget_input(path);  // read to be replaced: --bless writes it
  return kept;
}

/// --run or --in against a blessed baseline (or --bless to write one).
int gate_baseline(GateCliOptions& o, HistoryRun& record) {
  if (o.baseline.empty()) throw InputError("gate: --baseline FILE is required (or --against REV)");
  if (o.run == !o.current.empty()) throw InputError("gate: give exactly one of --run and --in FILE");
  if (!o.against.current_bench.empty()) throw InputError("gate: --current-bench goes with --against REV");
  if (!o.bench_out.empty() && (!o.run || o.gate.accuracy_only || o.bless))
    throw InputError("gate: --bench-out writes the benchmarks of --run: it needs --run, without --accuracy-only or --bless");
  if (o.run_options.jobs < 0) throw InputError("gate: --jobs must be >= 0 (0: all cores)");
  if (!o.shard.empty()) {
    if (o.bless) throw InputError("gate: --bless writes a whole baseline: --shard does not apply");
    o.gate.shard = parse_shard(o.shard);
    o.run_options.shard = o.gate.shard;
  }
  Expectations expect;
  if (!o.expect.empty()) {
    expect = load_expectations(o.expect);
    o.gate.expect = &expect;
  }
  // Read the baseline and open the history before minutes of work, so that a bad path fails at once.
  GateSnapshot baseline;
  if (!o.bless) {
    baseline = GateSnapshot::read(read_json(o.baseline, "the baseline ", " (create one with --bless)"), "the baseline");
    adopt_selection(baseline, o);
  }
  if (o.bless && (o.history.record || !o.history.path.empty()))
    throw InputError("gate: --bless writes a baseline and compares nothing: --history and --record do not apply");
  const std::unique_ptr<HistoryDb> history = o.history.open();
  GateSnapshot current;
  if (o.run) {
    RunOptions ro = o.run_options;
    if (!o.gate.integrators.empty()) ro.integrators = o.gate.integrators;
    ro.problems = o.gate.problems;
    ro.speed = !o.gate.accuracy_only;
    auto snapshot = run_snapshot(ro, record);
    if (!snapshot) return kOk;  // an MPI rank other than 0: rank 0 compares, and its code is every rank's
    current = std::move(*snapshot);
  } else {
    const nlohmann::json in = read_json(o.current, "", "");
    // A plain verify report is accepted too (no speed data).
    if (!in.is_object() || in.value("kind", "") != "rigidbench-gate-snapshot") {
      record.verify = in;
      current = GateSnapshot::of_reports(VerifyReport::read(in, "the verify report"));
    } else {
      record.snapshot = in;
      current = GateSnapshot::read(in, "the current snapshot");
    }
  }
  if (!o.snapshot_out.empty()) write_report(o.snapshot_out, current.to_json().dump(1) + "\n");
  if (!o.bench_out.empty()) write_report(o.bench_out, record.bench.dump(1) + "\n");
  if (o.bless) {
    // A baseline of some pairs (an outside scheme's own, docs/gate.md) says which: a later gate
    // without --integrator/--problem compares exactly those.
    if (!o.gate.integrators.empty() || !o.gate.problems.empty())
      current.selection = SnapshotSelection{o.gate.integrators, o.gate.problems, ""};
    // The old baseline's own tolerances are the user's, not the run's: kept (docs/gate.md).
    current.tolerances = kept_tolerances(o.baseline);
    write_report(o.baseline, current.to_json().dump(1) + "\n");
    std::printf("gate: blessed %s as the baseline\n", o.baseline.c_str());
    return kOk;
  }
  return finish_gate(o, record, gate_compare(baseline, current, o.gate), history.get());
}

}  // namespace

Command add_gate(CLI::App& app, const std::vector<std::string>& command) {
  auto o = std::make_shared<GateCliOptions>();
  o->command = command;
  o->started = std::chrono::steady_clock::now();
  CLI::App* sc = add_gate_options(app, *o);
  return {sc, [o] {
            o->gate.integrators = o->schemes.integrators;
            o->gate.problems = o->problems.problems;
            HistoryRun record;
            record.command = "gate";
            const bool against = !o->against.revision.empty() || !o->against.binary.empty();
            return against ? gate_against(*o, record) : gate_baseline(*o, record);
          }};
}

}  // namespace rigidbench::cli
