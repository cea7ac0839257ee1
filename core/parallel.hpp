#pragma once
// Threads inside one work unit (docs/scaling.md, "Threads inside a unit"; docs/decisions.md,
// "Parallel loads"). A sweep runs its units on the scheduler's workers (task_graph.hpp); a unit that
// is one long computation - the reference of a 2 000-sphere body system - may split its inner loops
// over the cores no other unit is using at that moment. The split never changes a result: a loop run
// through for_each_chunk writes each index's output from that index's inputs alone, so the results are
// the same bit for bit on any number of threads, and the number can follow the load of the machine.
#include <cstddef>
#include <functional>

namespace rigidbench::parallel {

/// The cores this process may use: the hardware threads, divided among the MPI ranks started on
/// this machine (OMPI_COMM_WORLD_LOCAL_SIZE; docs/scaling.md, MPI). At least 1. The default of
/// `--jobs`.
int cores();

/// The threads an inner loop may use now. Outside a scheduler's unit: 1 (a scheme's step timed by
/// bench, or a program's own loop, stays on its thread). Inside one: the scheduler's workers (its
/// --jobs) that the other running units leave, its own included - workers - running units + 1, at
/// least 1. So `--jobs 1` keeps every loop on one thread, and a long unit left alone at the end of a
/// sweep spreads over the workers that have nothing left to do.
int spare_threads();

/// The workers a scheduler started now may use: cores() outside a unit, spare_threads() inside one.
int workers();

/// Marks the calling thread as running a unit of a scheduler of `workers` workers while it lives
/// (TaskGraph's workers; a unit that runs a graph of its own is counted once).
class UnitScope {
 public:
  explicit UnitScope(int workers);
  ~UnitScope();
  UnitScope(const UnitScope&) = delete;
  UnitScope& operator=(const UnitScope&) = delete;

 private:
  bool counted_;
  int outer_workers_;
};

/// Calls f(begin, end) on consecutive chunks covering [0, n), on up to `threads` threads (OpenMP;
/// one call on the calling thread when threads <= 1). f must not throw, and must write only the
/// outputs of its own indices.
void for_each_chunk(std::size_t n, int threads, const std::function<void(std::size_t, std::size_t)>& f);

}  // namespace rigidbench::parallel
