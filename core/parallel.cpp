#include "parallel.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

namespace rigidbench::parallel {
namespace {
std::atomic<int> g_running{0};  // units running now, in every scheduler of the process
thread_local int t_depth = 0;   // this thread's nesting of UnitScope
thread_local int t_workers = 1; // the workers of the scheduler whose unit this thread runs
}  // namespace

int cores() {
  static const int n = [] {
    int hw = int(std::max(1u, std::thread::hardware_concurrency()));
    if (const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"); v && std::atoi(v) > 1) hw /= std::atoi(v);
    return std::max(1, hw);
  }();
  return n;
}

int spare_threads() {
  if (t_depth == 0) return 1;
  return std::max(1, t_workers - g_running.load(std::memory_order_relaxed) + 1);
}

int workers() { return t_depth == 0 ? cores() : spare_threads(); }

UnitScope::UnitScope(int workers) : counted_(t_depth++ == 0), outer_workers_(t_workers) {
  t_workers = std::max(1, workers);
  if (counted_) g_running.fetch_add(1, std::memory_order_relaxed);
}

UnitScope::~UnitScope() {
  --t_depth;
  t_workers = outer_workers_;
  if (counted_) g_running.fetch_sub(1, std::memory_order_relaxed);
}

void for_each_chunk(std::size_t n, int threads, const std::function<void(std::size_t, std::size_t)>& f) {
  if (threads <= 1 || n < 2) {
    f(0, n);
    return;
  }
  const int T = int(std::min<std::size_t>(std::size_t(threads), n));
#pragma omp parallel num_threads(T)
  {
    const std::size_t k = std::size_t(omp_get_thread_num()), m = std::size_t(omp_get_num_threads());
    f(n * k / m, n * (k + 1) / m);
  }
}

}  // namespace rigidbench::parallel
