#pragma once
// MPI across machines (docs/scaling.md, "MPI"): started by a launcher (`mpirun -np N`, Slurm's
// `srun`), the N processes of one command split its pairs - `verify` longest first with its
// references (all_gather_bytes hands those over; verification/suite.hpp, RankGroup), `bench` and
// `gate --run` as the N shards of a sweep (rank r runs shard r+1/N, core/shard.hpp) - and rank 0
// gathers their reports and writes the one merged report
// (tracking/merge.hpp) -- the same report as one process writes, timing aside. Without a launcher, or
// in a build without MPI, there is one rank and nothing changes.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../core/shard.hpp"

namespace rigidbench::cli {

struct Ranks {
  int rank = 0, size = 1;
  bool distributed() const { return size > 1; }
  bool root() const { return rank == 0; }
};

/// Initialises MPI when the process was started by a launcher (and the build has MPI), for the
/// duration of one command; finalises it at the end. Throws InputError when a launcher started
/// several processes of a build without MPI (they would each run the whole command).
class RankSession {
 public:
  RankSession(int& argc, char**& argv);
  ~RankSession();
  RankSession(const RankSession&) = delete;
  RankSession& operator=(const RankSession&) = delete;
  /// Every rank's exit code becomes rank 0's (it wrote the report; the others' errors reached it).
  int agree(int code) const;
};

/// This process's rank and the number of ranks (0 and 1 outside a RankSession).
const Ranks& ranks();

/// Collective: every rank's bytes, in rank order, on every rank (one rank: {bytes}). Throws on
/// every rank alike when they exceed what MPI counts (2 GiB together).
std::vector<std::string> all_gather_bytes(const std::string& bytes);

/// Runs `part(shard)` on every rank with its shard and gathers the results on rank 0, in rank order;
/// the other ranks get nullopt. When a part throws on any rank, every rank throws after all have
/// finished (no rank waits forever): InputError (exit 2), IoError (5) or an internal error (3), with
/// the failing rank's message.
std::optional<std::vector<nlohmann::ordered_json>> gather_parts(
    const std::function<nlohmann::ordered_json(const Shard&)>& part);

}  // namespace rigidbench::cli
