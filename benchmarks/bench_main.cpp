// Standalone Google Benchmark binary: every registered scheme's step on every applicable catalogue
// problem, with Google Benchmark's own command line and output formats. `rigidbench bench` runs the
// same registrations and adds ratios, instruction counts and work-precision.
#include <benchmark/benchmark.h>

#include "step_benchmarks.hpp"
#include "../problems/catalogue.hpp"
#include "../reports/report.hpp"

using namespace rigidbench;

int main(int argc, char** argv) {
  static std::vector<Problem> problems;
  for (const auto& n : catalogue_names()) problems.push_back(catalogue_problem(n));
  static const auto pairs = bench_pairs(select_schemes({"all"}), problems);
  register_step_benchmarks(pairs);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  add_benchmark_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
