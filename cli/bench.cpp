// `rigidbench bench`: cost per step against the in-run baseline, instruction counts, work-precision.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "../benchmarks/bench_suite.hpp"
#include "commands.hpp"
#include "ranks.hpp"
#include "../tracking/merge.hpp"
#include "../problems/catalogue.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

namespace {

/// What `bench` is asked on its command line.
struct BenchOptions {
  BenchRequest req;
  SchemeOptions schemes;
  ProblemOptions problems;
  bool no_icount = false, no_wp = false, quiet = false;
  std::string out, shard;
  HistoryOptions history;
};

CLI::App* add_bench_options(CLI::App& app, BenchOptions& o) {
  auto* sc = app.add_subcommand("bench", "Cost per step (ratio to the RK4 baseline), instruction counts, work-precision");
  o.schemes.add_to(sc, Use::run, "the baseline always runs", false);
  o.problems.add_to(sc, Use::run, false, false, "bench: every problem");
  sc->add_option("--min-time", o.req.min_time, "Google Benchmark minimum time per repetition [s] (default 0.05)");
  sc->add_option("--repetitions", o.req.repetitions, "Interleaved repetitions; the min is used (default 5)");
  sc->add_option("--icount-steps", o.req.icount_steps, "Steps N of the instruction-count driver (runs N and 2N)");
  sc->add_option("--jobs", o.req.jobs, "Callgrind drivers counting instructions at the same time (default 0: one per core; "
                 "1 under MPI)")->check(CLI::NonNegativeNumber);
  sc->add_flag("--no-icount", o.no_icount, "Skip the instruction counts (callgrind)");
  sc->add_flag("--require-icount", o.req.require_icount, "Fail (exit 2) when valgrind is missing");
  sc->add_flag("--no-work-precision", o.no_wp, "Skip the work-precision sweeps");
  sc->add_option("--out", o.out, "Output folder: bench.json (rigidbench) and benchmark.json (Google Benchmark)");
  sc->add_option("--shard", o.shard, "Run shard k/N of the pairs (the baseline runs in every shard; docs/gate.md)");
  sc->add_option("--sizes", o.req.sizes,
                 "Scaling study: run each scalable --problem (particle_gas) at these numbers of bodies and fit the "
                 "growth exponent of the cost (no work-precision sweeps)");
  o.history.add_to(sc);
  sc->add_flag("--quiet", o.quiet, "No console table or progress");
  return sc;
}

/// One bench run: the request the options map onto, and what becomes of its report (bench.json in
/// --out, a record in the history).
struct BenchRun {
  BenchRequest req;
  std::string out;
  std::unique_ptr<HistoryDb> history;
  std::vector<std::string> argv;
  std::string started;

  void write_and_record(const nlohmann::ordered_json& report) const {
    if (!out.empty()) {
      const std::string path = (std::filesystem::path(out) / "bench.json").string();
      write_report(path, report.dump(1) + "\n");
      std::printf("report: %s\n", path.c_str());
    }
    if (history) {
      HistoryRun run;
      run.command = "bench";
      run.bench = nlohmann::json::parse(report.dump());
      record_run(history.get(), run);
    }
  }
};

/// N ranks: rank r runs shard r+1/N (Google Benchmark's own file in OUT/rank-r/), rank 0 writes the
/// merged bench.json (docs/scaling.md, MPI). Timings of ranks sharing a machine disturb each other;
/// instruction counts do not.
int run_bench_distributed(const BenchRun& b, bool shard_given) {
  if (shard_given) throw InputError("--shard and MPI both split the pairs: under mpirun each rank runs shard rank+1/N");
  if (!b.req.sizes.empty()) throw InputError("--sizes runs in one process (not under MPI with several ranks)");
  const auto parts = gather_parts([&](const Shard& shard) {
    BenchRequest mine = b.req;
    mine.shard = shard;
    mine.quiet = b.req.quiet || !ranks().root();
    if (mine.jobs == 0) mine.jobs = 1;  // the ranks already share the cores
    if (!b.out.empty()) {
      mine.out_dir = (std::filesystem::path(b.out) / cat("rank-", std::to_string(ranks().rank))).string();
      std::filesystem::create_directories(mine.out_dir);
    }
    return bench_report(run_bench(mine), b.argv, b.started);
  });
  if (!parts) return kOk;
  std::vector<std::string> names;
  for (int r = 0; r < ranks().size; ++r) names.push_back(cat("rank ", std::to_string(r)));
  const nlohmann::ordered_json merged = merge_shard_reports(*parts, names);
  std::printf("bench: %d MPI ranks, %zu entries\n", ranks().size, merged.at("results").size());
  b.write_and_record(merged);
  return kOk;
}

/// The console table: cost per pair, then the scaling fits of a --sizes study.
void print_bench_table(const BenchResult& b) {
  std::printf("\n%-18s %-14s %10s %9s %14s %9s %10s %10s\n", "integrator", "problem", "ns/step", "x RK4",
              "instr/step", "x RK4", "flops/step", "instr/flop");
  for (const auto& e : b.entries)
    std::printf("%-18s %-14s %10s %9s %14s %9s %10s %10s\n", e.integrator.c_str(), e.problem.c_str(),
                fmt(e.ns_per_step, "%.1f").c_str(), fmt(e.ratio_to_baseline, "%.3f").c_str(),
                fmt(e.instructions_per_step, "%.1f").c_str(), fmt(e.instruction_ratio_to_baseline, "%.3f").c_str(),
                fmt(e.flops_per_step, "%.0f").c_str(), fmt(e.instructions_per_flop, "%.2f").c_str());
  for (const auto& e : b.entries)
    if (!e.breakdown.empty())
      std::printf("%s x %s: no time: breakdown: %s\n", e.integrator.c_str(), e.problem.c_str(), e.breakdown.c_str());
  if (b.scaling.empty()) return;
  std::printf("\nscaling: cost per step ~ n^b (least squares on log-log axes; 1 is O(n))\n");
  std::printf("%-26s %-14s %8s %12s %14s\n", "integrator", "problem", "bodies", "ns/step", "instr/step");
  for (const ScalingSeries& s : b.scaling) {
    for (const ScalingPoint& q : s.points)
      std::printf("%-26s %-14s %8zu %12s %14s\n", s.integrator.c_str(), s.problem.c_str(), q.n,
                  fmt(q.ns_per_step, "%.0f").c_str(), fmt(q.instructions_per_step, "%.0f").c_str());
    std::printf("%-26s %-14s %8s b = %s +- %s (time), %s +- %s (instructions)\n", s.integrator.c_str(),
                s.problem.c_str(), "fit", fmt(s.ns_fit.slope, "%.3f").c_str(),
                fmt(s.ns_fit.stderr_slope, "%.3f").c_str(), fmt(s.instruction_fit.slope, "%.3f").c_str(),
                fmt(s.instruction_fit.stderr_slope, "%.3f").c_str());
  }
}

int run_bench_local(const BenchRun& run) {
  const BenchResult b = run_bench(run.req);
  print_bench_table(b);
  run.write_and_record(bench_report(b, run.argv, run.started));
  if (!run.out.empty()) std::printf("google benchmark: %s\n", b.gbench_json.c_str());
  return kOk;
}

}  // namespace

Command add_bench(CLI::App& app, const std::vector<std::string>& argv) {
  auto o = std::make_shared<BenchOptions>();
  auto* sc = add_bench_options(app, *o);
  return {sc, [o, argv] {
            BenchRun run;
            run.req = o->req;
            if (!o->shard.empty()) run.req.shard = parse_shard(o->shard);
            if (!o->out.empty()) std::filesystem::create_directories(o->out);
            if (!o->schemes.integrators.empty()) run.req.integrators = o->schemes.integrators;
            run.req.problems = o->problems.problems;
            run.req.icount = !o->no_icount;
            run.req.work_precision = !o->no_wp;
            run.req.quiet = o->quiet;
            run.req.out_dir = o->out;
            run.out = o->out;
            run.history = o->history.open();
            run.argv = argv;
            run.started = iso8601_now();
            add_benchmark_context();
            return ranks().distributed() ? run_bench_distributed(run, !o->shard.empty()) : run_bench_local(run);
          }};
}

Command add_bench_driver(CLI::App& app) {
  struct Options {
    std::int64_t steps = 2000;
    std::vector<std::string> integrators, problems;
    bool progress = false;
    double progress_every = 5;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("bench-driver", "(internal) fixed-work driver run under callgrind by `bench`");
  sc->group("");  // hidden from --help
  sc->add_option("--steps", o->steps)->required();
  sc->add_option("--integrator", o->integrators)->required();
  sc->add_option("--problem", o->problems)->required();
  sc->add_flag("--progress", o->progress, "report the pairs counted on stderr every few seconds");
  sc->add_option("--progress-every", o->progress_every, "seconds between progress lines (tests shorten it)")
      ->check(CLI::NonNegativeNumber);
  return {sc, [o] {
            std::vector<Problem> problems;
            for (const auto& n : o->problems) problems.push_back(catalogue_problem(n));
            const auto schemes = select_schemes(o->integrators);
            auto pairs = bench_pairs(schemes, problems);
            for (const BenchPair& run : adaptive_bench_runs(schemes, problems)) pairs.push_back(run);
            run_icount_driver(pairs, o->steps, o->progress ? o->progress_every : -1);
            return kOk;
          }};
}

}  // namespace rigidbench::cli
