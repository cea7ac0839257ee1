#include "step_benchmarks.hpp"

#include <benchmark/benchmark.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "../verification/runner.hpp"

namespace rigidbench {
namespace {

// Restart from the initial state every 4096 steps so every scheme stays in the regime its step
// was chosen for (explicit first-order schemes blow up on long heavy-top runs); the restart costs
// ~1e-2 ns per step amortised. The steps run in batches of 64 through the driver, resumed on the
// same grid t0 + n h.
constexpr std::int64_t kRestart = 4096, kBatch = 64;

void bm_step(benchmark::State& st, const SchemeEntry* e, const Problem* p, double h) {
  const auto s = e->make(*p);
  s->reset(p->initial, p->t0);
  std::int64_t n = 0;
  if (e->timed_elsewhere()) {
    // An isolated scheme (an engine that may abort the process) or a program: each turn is the
    // kRestart steps from the initial state, run in its child or the program and timed there
    // (timed_run); the benchmark is registered with manual time (register_step_benchmarks), so the
    // fork or the pipe is not in the figure.
    double exchange = 0;  // rigidbench's own wall time of the turns, the pipe or the fork included
    while (st.KeepRunningBatch(kRestart)) {
      s->reset(p->initial, p->t0);
      const TimedRun r = timed_run(*s, FixedSteps{.t0 = p->t0, .h = h, .steps = kRestart}, p->bodies.size());
      if (!r.outcome.ok) {
        st.SkipWithError(r.outcome.reason.c_str());
        break;
      }
      st.SetIterationTime(r.cpu_seconds);
      exchange += r.exchange_wall_seconds;
    }
    st.counters["steps_per_s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
    if (st.iterations() > 0) st.counters["exchange_ns_per_step"] = exchange / double(st.iterations()) * 1e9;
    st.SetLabel(cat("h=", format_number(h, 12)));
    return;
  }
  while (st.KeepRunningBatch(kBatch)) {
    if (n == kRestart) {
      s->reset(p->initial, p->t0);
      n = 0;
    }
    IntegrationOutcome r = integrate(*s, FixedSteps{.t0 = p->t0, .h = h, .steps = n + kBatch, .from = n});
    if (!r.ok) [[unlikely]] {  // a step that fails is not a step's cost
      st.SkipWithError(r.reason.c_str());
      break;
    }
    benchmark::DoNotOptimize(r);
    n += kBatch;
  }
  State x(p->bodies.size());
  s->read(x);
  benchmark::DoNotOptimize(x);
  // Only timing here. The per-step counts (loads, Newton iterations) are deterministic and come from
  // step_counts: as Google Benchmark counters they varied with the steps the timing loop happened to
  // run, and a count that is 0 on every repetition made its cv 0/0, printed "-nan%" and written as
  // the invalid JSON token NaN into benchmark.json. The step goes in the label: a counter would be
  // printed with an SI prefix ("1m" for 0.001).
  st.counters["steps_per_s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
  st.SetLabel(cat("h=", format_number(h, 12)));
}

[[gnu::noinline]] void fixed_work(const SchemeEntry& e, const Problem& p, double h, std::int64_t steps) {
  {
    // Warm-up outside the measurement: the first calls pay one-off costs (glibc's lazy binding of
    // sin/cos, first-touch of pages) that would otherwise land in the N-step loop only and bias
    // (Ir(2N) - Ir(N)) / N.
    const auto w = e.make(p);
    w->reset(p.initial, p.t0);
    IntegrationOutcome r = integrate(*w, FixedSteps{p.t0, h, 8});
    benchmark::DoNotOptimize(r);
  }
  const auto s = e.make(p);
  s->reset(p.initial, p.t0);
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
  IntegrationOutcome r = integrate(*s, FixedSteps{p.t0, h, steps});
  CALLGRIND_STOP_INSTRUMENTATION;
  benchmark::DoNotOptimize(r);
  State x(p.bodies.size());
  s->read(x);
  benchmark::DoNotOptimize(x);
}

/// One adaptive run from the problem's initial state over its output grid (integrator.hpp, "Adaptive
/// schemes"): `measure(scheme, grid)` runs the integration (bracketed by the callgrind requests, or
/// timed by timed_run).
template <class Measure>
IntegrationOutcome adaptive_run(const BenchPair& run, Measure&& measure) {
  SchemeSettings set = run.scheme->settings;
  set.values[std::string(kAbsTolerance.name)] = run.tol;
  set.values[std::string(kRelTolerance.name)] = run.tol;
  const auto s = run.scheme->make(*run.problem, set);
  const OutputGrid g = adaptive_output_grid(*run.problem);
  s->reset(run.problem->initial, g.t0);
  return measure(*s, FixedSteps{g.t0, g.dt, g.intervals});
}

[[gnu::noinline]] void adaptive_work(const BenchPair& run) {
  adaptive_run(run, [](AnyIntegrator& s, const FixedSteps& g) { return integrate(s, g); });  // warm-up, as fixed_work's
  const IntegrationOutcome r = adaptive_run(run, [](AnyIntegrator& s, const FixedSteps& g) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    const IntegrationOutcome o = integrate(s, g);
    CALLGRIND_STOP_INSTRUMENTATION;
    return o;
  });
  benchmark::DoNotOptimize(r);
}

}  // namespace

std::string BenchPair::name() const {
  if (adaptive()) return cat("run/", scheme->info->name, "/", problem->name, "/tol", std::to_string(level));
  return cat("step/", scheme->info->name, "/", problem->name);
}

std::vector<BenchPair> adaptive_bench_runs(const std::vector<const SchemeEntry*>& schemes, const std::vector<Problem>& problems) {
  const ToleranceLadder T;
  std::vector<BenchPair> out;
  for (const Problem& p : problems)
    for (const SchemeEntry* e : schemes)
      if (e->info->adaptive && not_applicable(*e->info, p).empty())
        for (int k = 0; k < T.levels; ++k) out.push_back({e, &p, kNaN, T.tol(k), k});
  return out;
}

RunSeconds cpu_seconds_of_adaptive_run(const BenchPair& run, int repetitions) {
  RunSeconds out;
  for (int r = 0; r < repetitions; ++r) {
    double secs = kNaN;
    const IntegrationOutcome o = adaptive_run(run, [&](AnyIntegrator& s, const FixedSteps& g) {
      const TimedRun t = timed_run(s, g, run.problem->bodies.size());
      secs = t.cpu_seconds;
      return t.outcome;
    });
    if (!o.ok) return {};
    out.fastest = std::isnan(out.fastest) ? secs : std::min(out.fastest, secs);
    out.slowest = std::isnan(out.slowest) ? secs : std::max(out.slowest, secs);
  }
  return out;
}

std::vector<BenchPair> bench_pairs(const std::vector<const SchemeEntry*>& schemes, const std::vector<Problem>& problems) {
  const SchemeEntry &base = baseline_scheme(), &rk4 = rk4_baseline_scheme();
  std::vector<BenchPair> out;
  for (const Problem& p : problems)
    for (const SchemeEntry& e : registry()) {
      const bool selected = &e == &base || &e == &rk4 || std::find(schemes.begin(), schemes.end(), &e) != schemes.end();
      // An adaptive scheme has no step of its own size to time (docs/adaptive.md): its cost per unit of
      // simulated time is in its tolerance ladder.
      if (!selected || e.info->adaptive || !not_applicable(*e.info, p).empty()) continue;
      const Ladder L = make_ladder(p, e.info->order);
      out.push_back({&e, &p, L.h(std::min(2, L.levels - 1))});
    }
  return out;
}

void register_step_benchmarks(const std::vector<BenchPair>& pairs) {
  for (const BenchPair& bp : pairs)
  {
    auto* b = benchmark::RegisterBenchmark(bp.name().c_str(), bm_step, bp.scheme, bp.problem, bp.h)
                  ->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
    if (bp.scheme->timed_elsewhere()) b->UseManualTime();  // timed in its child or the program (bm_step)
  }
}

void run_icount_driver(const std::vector<BenchPair>& pairs, std::int64_t steps, double progress_every) {
  const auto start = std::chrono::steady_clock::now();
  double last = 0;
  std::size_t done = 0;
  for (const BenchPair& bp : pairs) {
    if (bp.adaptive()) {
      adaptive_work(bp);
      const std::string tag = cat(bp.name(), "#run");
      CALLGRIND_DUMP_STATS_AT(tag.c_str());
    }
    for (std::int64_t n : {steps, 2 * steps}) {
      if (bp.adaptive()) break;
      fixed_work(*bp.scheme, *bp.problem, bp.h, n);
      const std::string tag = cat(bp.name(), "#", std::to_string(n));
      CALLGRIND_DUMP_STATS_AT(tag.c_str());
    }
    ++done;
    // Under callgrind a step is ~50 times slower: a line every progress_every seconds of the run, with
    // the time left at the rate so far (the bench's callgrind phase otherwise says nothing for minutes).
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress_every >= 0 && done < pairs.size() && t - last >= progress_every) {
      last = t;
      std::fprintf(stderr, "bench: callgrind: %zu of %zu pairs counted after %.0f s, about %.0f s left\n", done,
                   pairs.size(), t, t * double(pairs.size() - done) / double(done));
    }
  }
}

std::int64_t steps_for_bodies(std::int64_t steps, std::size_t bodies, std::int64_t at_least) {
  if (bodies <= 80) return steps;
  return std::max<std::int64_t>(at_least, std::int64_t(double(steps) * 80.0 / double(bodies)));
}

StepCounts step_counts(const BenchPair& bp) {
  const auto s = bp.scheme->make(*bp.problem);
  s->reset(bp.problem->initial, bp.problem->t0);
  const std::int64_t n = steps_for_bodies(kCountSteps, bp.problem->bodies.size(), 16);
  const TimedRun r = timed_run(*s, FixedSteps{bp.problem->t0, bp.h, n}, bp.problem->bodies.size());
  StepCounts out;
  if (!r.outcome.ok) return out;  // NaN: a scheme that breaks down has no per-step count
  const Counters c = r.counters;
  out.loads = double(c.load_evaluations) / double(n);
  out.newton = double(c.newton_iterations) / double(n);
  out.jacobians = double(c.jacobian_evaluations) / double(n);
  return out;
}

RunSeconds cpu_seconds_of_run(const SchemeEntry& s, const Problem& p, double h, std::int64_t steps, int repetitions) {
  RunSeconds out{1e300, 0};
  const auto integ = s.make(p);
  for (int r = 0; r < repetitions; ++r) {
    integ->reset(p.initial, p.t0);
    const TimedRun run = timed_run(*integ, FixedSteps{p.t0, h, steps}, p.bodies.size());
    benchmark::DoNotOptimize(run);
    if (!run.outcome.ok) return {};  // a run that breaks down has no cost (NaN)
    out.fastest = std::min(out.fastest, run.cpu_seconds);
    out.slowest = std::max(out.slowest, run.cpu_seconds);
  }
  return out;
}

}  // namespace rigidbench
