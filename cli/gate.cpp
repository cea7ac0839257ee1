// `rigidbench gate`: accuracy and speed regressions against a blessed baseline (docs/gate.md).
#include <cstdio>
#include <fstream>
#include <memory>

#include "rigidbench/benchmarks/bench_suite.hpp"
#include "rigidbench/cli/commands.hpp"
#include "rigidbench/reports/gate.hpp"
#include "rigidbench/reports/report.hpp"

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

/// The current snapshot: the quick suite and the benchmarks run now.
nlohmann::json run_snapshot() {
  SuiteRequest sr;
  sr.progress = false;
  sr.measure_cost = false;
  std::fprintf(stderr, "gate: running the quick suite...\n");
  const std::string started = iso8601_now();
  const SuiteResult s = run_suite(sr);
  const nlohmann::json verify_json = nlohmann::json::parse(suite_report(s, {}, started).dump());
  BenchRequest br;
  br.min_time = 0.01;
  br.repetitions = 3;
  br.work_precision = false;
  br.quiet = true;
  std::fprintf(stderr, "gate: running the benchmarks (instruction counts where valgrind is present)...\n");
  add_benchmark_context();
  const BenchResult b = run_bench(br);
  const nlohmann::json bench_json = nlohmann::json::parse(bench_report(b, {}, started).dump());
  return nlohmann::json::parse(gate_snapshot(verify_json, bench_json).dump());
}

}  // namespace

Command add_gate(CLI::App& app) {
  struct Options {
    std::string baseline, current, junit, snapshot_out;
    bool run = false, bless = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("gate", "Compare a run with a blessed baseline (accuracy and speed regressions)");
  sc->add_option("--baseline", o->baseline, "Baseline snapshot (JSON); written only with --bless")->required();
  sc->add_option("--current", o->current, "Current snapshot or verify report (JSON)");
  sc->add_flag("--run", o->run, "Run the quick suite and the benchmarks to produce the current snapshot");
  sc->add_flag("--bless", o->bless, "Write the current snapshot as the new baseline (the only way to write one)");
  sc->add_option("--junit", o->junit, "Write JUnit XML (one testcase per scheme x problem x metric)");
  sc->add_option("--snapshot-out", o->snapshot_out, "Also write the current snapshot to this file");
  return {sc, [o] {
            if (o->run == !o->current.empty()) throw InputError("gate: give exactly one of --run and --current FILE");
            nlohmann::json current;
            if (o->run) {
              current = run_snapshot();
            } else {
              current = read_json(o->current, "", "");
              // A plain verify report is accepted too (no speed data).
              if (current.value("kind", "") != "rigidbench-gate-snapshot" && current.contains("results"))
                current = nlohmann::json::parse(gate_snapshot(current, nlohmann::json()).dump());
            }
            if (!o->snapshot_out.empty()) write_atomic(o->snapshot_out, current.dump(1) + "\n");
            if (o->bless) {
              write_atomic(o->baseline, current.dump(1) + "\n");
              std::printf("gate: blessed %s as the baseline\n", o->baseline.c_str());
              return kOk;
            }
            const nlohmann::json baseline = read_json(o->baseline, "the baseline ", " (create one with --bless)");
            const GateResult g = gate_compare(baseline, current);
            std::fputs(gate_table(g).c_str(), stdout);
            if (!o->junit.empty()) write_atomic(o->junit, gate_junit(g));
            return g.exit_code();
          }};
}

}  // namespace rigidbench::cli
