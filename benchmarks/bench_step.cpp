// Microbenchmarks of every registered scheme's core update on every applicable catalogue problem,
// registered from the registry's type list: the object timed here is the object `verify` runs.
// Conventions (STYLE.md): set-up outside the loop, a no-inline call, DoNotOptimize on the state,
// no PauseTiming in the loop, counters as rates, build context in the output.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "integrators/registry.hpp"
#include "problems/catalogue.hpp"
#include "reports/report.hpp"
#include "verification/runner.hpp"

using namespace rigidbench;

namespace {

template <class S>
[[gnu::noinline]] StepStatus step_once(S& s, double t, double h) {
  return s.step(t, h);
}

template <class S>
void bm_step(benchmark::State& st, const Problem* p, double h) {
  S s(*p);
  s.reset(p->initial, p->t0);
  // Restart from the initial state every 4096 steps so that every scheme stays in the regime the
  // step size was chosen for (the restart costs ~1e-2 ns per step amortised).
  constexpr std::int64_t kRestart = 4096;
  std::int64_t n = 0;
  State x(p->bodies.size());
  for (auto _ : st) {
    if (n == kRestart) {
      s.reset(p->initial, p->t0);
      n = 0;
    }
    StepStatus r = step_once(s, p->t0 + double(n) * h, h);
    benchmark::DoNotOptimize(r);
    ++n;
  }
  s.read(x);
  benchmark::DoNotOptimize(x);
  const Counters c = s.counters();
  const double steps_since_reset = double(n > 0 ? n : 1);
  st.counters["steps_per_s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["loads_per_step"] = double(c.load_evaluations) / steps_since_reset;
  st.counters["newton_per_step"] = double(c.newton_iterations) / steps_since_reset;
  st.counters["h"] = h;
}

}  // namespace

int main(int argc, char** argv) {
  static std::vector<Problem> problems;
  for (const auto& n : catalogue_names()) problems.push_back(catalogue_problem(n));
  Schemes::for_each([&]<class S>() {
    for (const Problem& p : problems) {
      if (!not_applicable(S::info(), p).empty()) continue;
      // The step of the verification ladder's third level: representative of the asymptotic range.
      const Ladder L = make_ladder(p, S::info().order);
      const double h = L.h(std::min(2, L.levels - 1));
      benchmark::RegisterBenchmark(cat("step/", S::info().name, "/", p.name).c_str(), bm_step<S>, &p, h);
    }
  });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  const auto tool = tool_info();
  for (const char* k : {"version", "git_revision", "compiler", "flags", "build_type"})
    benchmark::AddCustomContext(cat("rigidbench_", k), tool[k].get<std::string>());
  benchmark::AddCustomContext("rigidbench_baseline", std::string(BaselineScheme::info().name));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
