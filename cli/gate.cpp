// `rigidbench gate`: accuracy and speed regressions against a blessed baseline (docs/gate.md).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include "rigidbench/benchmarks/bench_suite.hpp"
#include "rigidbench/cli/commands.hpp"
#include "rigidbench/reports/gate.hpp"
#include "rigidbench/reports/report.hpp"
#include "rigidbench/verification/expectations.hpp"

namespace rigidbench::cli {
namespace {

nlohmann::json read_json(const std::string& path, const std::string& what, const std::string& missing_hint) {
  std::ifstream in(path);
  if (!in) throw InputError(cat("gate: cannot open ", what, "'", path, "'", missing_hint));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(cat("gate: ", what, "'", path, "' is not valid JSON: ", e.what()));
  }
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
/// progress on stderr.
nlohmann::json run_snapshot(const RunOptions& ro) {
  const auto t0 = std::chrono::steady_clock::now();
  SuiteRequest sr;
  sr.integrators = ro.integrators;
  sr.problems = ro.problems;
  sr.jobs = ro.jobs;
  sr.shard = ro.shard;
  sr.progress = !ro.quiet;
  sr.measure_cost = false;
  if (!ro.quiet) std::fprintf(stderr, "gate: [1/%d] the quick suite...\n", ro.speed ? 2 : 1);
  const std::string started = iso8601_now();
  const SuiteResult s = run_suite(sr);
  const nlohmann::json verify_json = nlohmann::json::parse(suite_report(s, {}, started).dump());
  nlohmann::json bench_json;
  if (ro.speed) {
    BenchRequest br;
    br.integrators = ro.integrators;
    br.problems = ro.problems;
    br.shard = ro.shard;
    br.min_time = 0.01;
    br.repetitions = 3;
    br.work_precision = false;
    br.quiet = true;
    if (!ro.quiet)
      std::fprintf(stderr, "gate: [2/2] the benchmarks: timings and instruction counts under callgrind (%.0f s so far)...\n",
                   since(t0));
    add_benchmark_context();
    const BenchResult b = run_bench(br);
    bench_json = nlohmann::json::parse(bench_report(b, {}, started).dump());
  }
  if (!ro.quiet) std::fprintf(stderr, "gate: current run done in %.0f s\n", since(t0));
  return nlohmann::json::parse(gate_snapshot(verify_json, bench_json).dump());
}

}  // namespace

Command add_gate(CLI::App& app) {
  struct Options {
    std::string baseline, current, junit, snapshot_out, expect, shard;
    bool run = false, bless = false;
    GateOptions gate;
    RunOptions run_options;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("gate", "Compare a run with a blessed baseline (accuracy and speed regressions)");
  sc->add_option("--baseline", o->baseline, "Baseline snapshot (JSON); written only with --bless")->required();
  sc->add_option("--current", o->current, "Current snapshot or verify report (JSON)");
  sc->add_flag("--run", o->run, "Run the quick suite and the benchmarks to produce the current snapshot");
  sc->add_flag("--bless", o->bless, "Write the current snapshot as the new baseline (the only way to write one)");
  sc->add_option("--junit", o->junit, "Write JUnit XML (one testcase per scheme x problem x metric)");
  sc->add_option("--snapshot-out", o->snapshot_out, "Also write the current snapshot to this file");
  sc->add_flag("--allow-stale", o->gate.allow_stale,
               "Stale rows (improved errors, speed counted by another toolchain) warn instead of failing");
  sc->add_flag("--accuracy-only", o->gate.accuracy_only,
               "Compare accuracy only (no benchmarks with --run): for a runner with another toolchain or no valgrind");
  sc->add_option("--integrator", o->gate.integrators, "Gate only these schemes (names or globs; both sides)");
  sc->add_option("--problem", o->gate.problems, "Gate only these problems (names or globs; both sides)");
  sc->add_option("--expect", o->expect, "Expected findings (JSON): listed failures pass, listed checks that pass fail");
  sc->add_option("--shard", o->shard,
                 "Gate shard k/N of the pairs (run and compared; the baseline is restricted to the same shard)");
  sc->add_option("--jobs", o->run_options.jobs, "Worker threads of --run's verification (default: all cores)");
  sc->add_flag("--quiet", o->run_options.quiet, "No progress on stderr");
  return {sc, [o] {
            if (o->run == !o->current.empty()) throw InputError("gate: give exactly one of --run and --current FILE");
            if (o->bless && (!o->gate.integrators.empty() || !o->gate.problems.empty()))
              throw InputError("gate: --bless writes a whole baseline: --integrator and --problem do not apply");
            if (o->bless && o->gate.accuracy_only)
              throw InputError("gate: --bless writes a whole baseline (accuracy and speed): --accuracy-only does not apply");
            if (o->run_options.jobs < 0) throw InputError("gate: --jobs must be >= 0 (0: all cores)");
            if (!o->shard.empty()) {
              if (o->bless) throw InputError("gate: --bless writes a whole baseline: --shard does not apply");
              o->gate.shard = parse_shard(o->shard);
              o->run_options.shard = o->gate.shard;
            }
            Expectations expect;
            if (!o->expect.empty()) {
              expect = load_expectations(o->expect);
              o->gate.expect = &expect;
            }
            // Read the baseline before minutes of work, so that a bad path fails at once.
            nlohmann::json baseline;
            if (!o->bless) baseline = read_json(o->baseline, "the baseline ", " (create one with --bless)");
            nlohmann::json current;
            if (o->run) {
              RunOptions ro = o->run_options;
              if (!o->gate.integrators.empty()) ro.integrators = o->gate.integrators;
              ro.problems = o->gate.problems;
              ro.speed = !o->gate.accuracy_only;
              current = run_snapshot(ro);
            } else {
              current = read_json(o->current, "", "");
              // A plain verify report is accepted too (no speed data).
              if (!current.is_object() || current.value("kind", "") != "rigidbench-gate-snapshot")
                current = nlohmann::json::parse(gate_snapshot(current, nlohmann::json()).dump());
            }
            if (!o->snapshot_out.empty()) write_atomic(o->snapshot_out, current.dump(1) + "\n");
            if (o->bless) {
              write_atomic(o->baseline, current.dump(1) + "\n");
              std::printf("gate: blessed %s as the baseline\n", o->baseline.c_str());
              return kOk;
            }
            const GateResult g = gate_compare(baseline, current, o->gate);
            std::fputs(gate_table(g).c_str(), stdout);
            if (!o->junit.empty())
              write_atomic(o->junit, gate_junit(g, iso8601_now(), machine_info().value("hostname", "unknown")));
            return g.exit_code();
          }};
}

}  // namespace rigidbench::cli
