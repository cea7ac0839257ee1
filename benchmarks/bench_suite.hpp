#pragma once
// `rigidbench bench`: wall-clock microbenchmarks with in-run baseline ratios, deterministic
// instruction counts (callgrind), and work-precision sweeps with Pareto fronts (docs/metrics.md, Cost).
#include "../core/shard.hpp"
#include <cstdint>
#include <string>
#include <vector>

#include "step_benchmarks.hpp"
#include "../verification/metrics.hpp"

namespace rigidbench {

struct BenchRequest {
  std::vector<std::string> integrators{"all"};
  std::vector<std::string> problems;   // catalogue names; empty: all
  double min_time = 0.05;              // Google Benchmark --benchmark_min_time [s]
  int repetitions = 5;                 // interleaved; the min is used
  bool icount = true;                  // instruction counts (needs valgrind)
  bool require_icount = false;         // fail instead of skipping when valgrind is missing
  std::int64_t icount_steps = 2000;    // N (the driver runs N and 2N steps)
  bool work_precision = true;
  std::string out_dir;                 // where benchmark.json (Google Benchmark's format) goes
  bool quiet = false;
  /// Only this shard's pairs; the in-run baseline schemes run in every shard (each shard's ratios
  /// are to its own baseline run; merge keeps the owning shard's baseline entries).
  Shard shard;
  /// The scaling study: each scalable problem of `problems` (particle_gas) is run at these numbers
  /// of bodies (particle_gas_N) and the growth of the cost with n is fitted (BenchResult::scaling).
  /// No work-precision sweeps then (their references would be a study of their own).
  std::vector<std::size_t> sizes;
  /// Callgrind drivers run at the same time for the instruction counts (0: one per core). The
  /// timings always run alone, before them.
  int jobs = 0;
};

struct BenchEntry {
  std::string integrator, problem;
  double h = kNaN;
  double ns_per_step = kNaN;          // CPU time, min over repetitions
  double ns_per_step_median = kNaN;
  double ratio_to_baseline = kNaN;    // ns_per_step / baseline's, same problem, same run
  double instructions_per_step = kNaN;
  double instruction_ratio_to_baseline = kNaN;
  double ratio_to_rk4 = kNaN, instruction_ratio_to_rk4 = kNaN;  // to the hand-written RK4 (rk4_quat)
  double loads_per_step = kNaN, newton_per_step = kNaN;
  double jacobians_per_step = kNaN;  // Newton iterations that evaluated and factorised the Jacobian
  /// The scheme's derived floating-point work at the measured Newton iterations (SchemeInfo::flops,
  /// docs/flops.md; NaN where not derived), its sin/cos/tan calls, and instructions per flop.
  double flops_per_step = kNaN, calls_per_step = kNaN, instructions_per_flop = kNaN;
  int repetitions = 0;
  /// Each repetition's CPU time per step over the median of the baseline scheme's on the same problem
  /// in the same run: the spread the gate's rank test reads (docs/gate.md, "Times").
  std::vector<double> ratio_samples{};
  /// Why the pair has no time: the scheme's breakdown in its timed run (a program that died, a
  /// non-finite state); empty when it was timed.
  std::string breakdown{};
};

struct WorkPoint {
  double h = kNaN, error = kNaN, cpu_seconds = kNaN, instructions = kNaN;  // cpu_seconds: the fastest repetition
  bool pareto_cpu = false, pareto_instructions = false;
  /// An adaptive pair's point: its tolerance (h is NaN) - the cost is a whole run at it, over the
  /// output times verify observes it at (docs/adaptive.md, "Head-to-head").
  double tol = kNaN;
  double cpu_seconds_max = kNaN;  ///< the slowest repetition of the run (the figure's error bar)
};
struct WorkSeries {
  std::string integrator, problem;
  std::vector<WorkPoint> points;
};

/// Cost per step against the number of bodies n of a scalable problem: log cost = a + b log n fitted
/// by least squares over the sizes run (b: the growth exponent; 1 is O(n)).
struct ScalingPoint {
  std::size_t n = 0;
  double ns_per_step = kNaN, instructions_per_step = kNaN;
};
struct ScalingSeries {
  std::string integrator, problem;  // problem: the scalable problem's name (particle_gas)
  std::vector<ScalingPoint> points;   // ascending n
  LineFit ns_fit, instruction_fit;  // slope = the growth exponent, with its standard error
};

struct BenchResult {
  std::vector<Problem> problems;
  std::vector<BenchEntry> entries;
  std::vector<WorkSeries> work;
  std::vector<ScalingSeries> scaling;  // with BenchRequest::sizes
  std::string work_metric = "attitude_error_final";
  std::string icount_tool;   // valgrind version, empty when not measured
  std::string icount_note;
  std::string gbench_json;   // path of Google Benchmark's JSON output ("" if none)
  double seconds = 0;
  Shard shard;
};

BenchResult run_bench(const BenchRequest& req);

/// Runs the instruction-count driver (`<driver_exe> bench-driver ...`; default: this executable)
/// for `pairs` under callgrind and returns instructions per step for each pair (same order).
/// Throws InputError if valgrind cannot be run. With `progress`, the driver reports on stderr every few
/// seconds how many pairs it has counted (a run of many pairs under callgrind takes minutes).
std::vector<double> count_instructions(const std::vector<BenchPair>& pairs, std::int64_t steps, std::string& tool,
                                       const std::string& driver_exe = "", bool progress = false);

/// count_instructions with each pair's own step count, icount_steps_for(steps, its bodies): one
/// driver run per distinct count. With jobs > 1 the problems are shared out among `jobs` drivers run
/// at the same time, longest first by estimated cost (`cost[i]`: pair i's expected cost per step,
/// e.g. its timed ns per step; missing or not positive: its number of bodies). The counts do not
/// depend on which pairs share a driver (tests/test_bench.cpp), so only the wall time changes.
std::vector<double> count_instructions_by_size(const std::vector<BenchPair>& pairs, std::int64_t steps, std::string& tool,
                                               const std::string& driver_exe = "", bool progress = false, int jobs = 1,
                                               const std::vector<double>& cost = {});

/// Steps N of the instruction-count driver for a problem of n bodies: `steps` up to 80 bodies, then
/// fewer in proportion (at least 4), so that a 10 000-body count stays minutes, not hours.
std::int64_t icount_steps_for(std::int64_t steps, std::size_t bodies);

/// The growth exponents of BenchResult::scaling from its entries (exposed for the tests).
std::vector<ScalingSeries> scaling_series(const std::vector<BenchEntry>& entries, const std::vector<Problem>& problems);

/// Marks the Pareto-optimal points (no other point at most as costly and at most as inaccurate).
void mark_pareto(std::vector<WorkSeries>& series);

}  // namespace rigidbench
