#pragma once
// What a verification holds in memory, estimated before any work (docs/decisions.md, "Memory of a
// run"). The grid-sized data dominate for body systems: every level run keeps its observables on the
// observation grid (LevelRun::xi) until its pair is assessed, and the reference keeps its states there
// (two solves for the error estimate, the cache's payload). Both grow as bodies x grid points; the
// ladder's observation grid is chosen so that one pair's share fits kGridMemoryBudget where the step
// count allows it (make_ladder), and a run whose estimate exceeds what the machine has is refused up
// front with the estimate, instead of being killed by the kernel hours later.
#include <cstdint>
#include <optional>
#include <string>

#include "../problems/problem.hpp"

namespace rigidbench {

/// The observation grid of one pair - its level runs and its reference grid - is coarsened (by
/// powers of two that divide the coarsest level's steps) until it fits in this many bytes.
constexpr double kGridMemoryBudget = double(std::int64_t(1) << 31);  // 2 GiB

/// Bytes of one level run on a grid of m intervals: observables, invariants and energy per point.
double level_run_bytes(const Problem& p, std::int64_t m);
/// Bytes of a reference on a grid of m intervals at its peak: both solves (the raw solver state and
/// the canonical states of each, the two run at once when there are cores for it), then the kept
/// solution, the estimate's states and the cache's payload.
double reference_grid_bytes(const Problem& p, std::int64_t m);
/// One pair's grid data: its `levels` level runs and its reference, on m intervals - what make_ladder
/// keeps within kGridMemoryBudget.
double pair_grid_bytes(const Problem& p, int levels, std::int64_t m);
/// What the program needs whatever the grid: the code, the problem models, the schemes' states and
/// scratch (a fixed part and a per-body part, measured: scripts/body-memory.py).
double fixed_bytes(const Problem& p);

struct MemoryEstimate {
  double references = 0;  // every reference grid
  double levels = 0;      // every pair's level runs, as if all were held at once (they can be: a pair's
                          // levels may all finish while its reference is still running)
  double fixed = 0;
  double total() const { return references + levels + fixed; }
};

/// The memory this machine lets the process have, in bytes, and what it comes from: the least of
/// RIGIDBENCH_MEMORY_LIMIT (a number of bytes with an optional K, M, G or T suffix, powers of 1024),
/// the address-space limit (ulimit -v), the cgroup's memory.max and MemAvailable from /proc/meminfo.
/// Empty when none is known. Throws InputError for a malformed RIGIDBENCH_MEMORY_LIMIT.
std::optional<double> memory_available(std::string& source);

/// Throws InputError naming the estimate, its parts and the limit when est.total() exceeds
/// memory_available(); `what` names the run ("verify").
void require_memory(const MemoryEstimate& est, const std::string& what);

/// "1.5 GiB", "320 MiB": a byte count for people.
std::string format_bytes(double bytes);

}  // namespace rigidbench
