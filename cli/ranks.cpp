#include "ranks.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../core/atomic_file.hpp"
#include "../core/types.hpp"

#ifdef RIGIDBENCH_HAVE_MPI
#include <mpi.h>
#endif

namespace rigidbench::cli {
namespace {

Ranks g_ranks;

/// The number of processes a launcher says it started (Open MPI, PMIx, PMI / Slurm), 0 if none.
int launched_size() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(var); v && *v) return std::atoi(v);
  return std::getenv("PMIX_RANK") ? 1 : 0;
}

}  // namespace

const Ranks& ranks() { return g_ranks; }

#ifdef RIGIDBENCH_HAVE_MPI

namespace {
enum Code : int { ok = 0, input = 2, internal = 3, io = 5 };

[[noreturn]] void raise(int code, const std::string& message) {
  if (code == input) throw InputError(message);
  if (code == io) throw IoError(message);
  throw std::runtime_error(message);
}
}  // namespace

RankSession::RankSession(int& argc, char**& argv) {
  if (launched_size() < 1) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_ranks.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks.size);
}

RankSession::~RankSession() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Finalize();
  g_ranks = Ranks{};
}

int RankSession::agree(int code) const {
  if (!g_ranks.distributed()) return code;
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

std::vector<std::string> all_gather_bytes(const std::string& bytes) {
  const Ranks& w = g_ranks;
  if (!w.distributed()) return {bytes};
  const long long mine = static_cast<long long>(bytes.size());
  std::vector<long long> sizes(std::size_t(w.size));
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  std::vector<int> counts, offsets;
  long long total = 0;
  for (long long n : sizes) {
    counts.push_back(int(std::min<long long>(n, INT_MAX)));
    offsets.push_back(int(std::min<long long>(total, INT_MAX)));
    total += n;
  }
  if (total > INT_MAX) throw std::runtime_error("the ranks' references exceed 2 GiB together (MPI counts)");
  std::string all(std::size_t(total), '\0');
  MPI_Allgatherv(bytes.data(), int(bytes.size()), MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < w.size; ++r)
    out.push_back(all.substr(std::size_t(offsets[std::size_t(r)]), std::size_t(counts[std::size_t(r)])));
  return out;
}

std::optional<std::vector<nlohmann::ordered_json>> gather_parts(
    const std::function<nlohmann::ordered_json(const Shard&)>& part) {
  const Ranks& w = g_ranks;
  if (!w.distributed()) return std::vector<nlohmann::ordered_json>{part(Shard{})};
  int code = ok;
  std::string payload;
  try {
    payload = part(Shard{w.rank + 1, w.size}).dump();
  } catch (const InputError& e) {
    code = input, payload = e.what();
  } catch (const IoError& e) {
    code = io, payload = e.what();
  } catch (const std::exception& e) {
    code = internal, payload = e.what();
  }
  if (payload.size() > std::size_t(INT_MAX)) code = internal, payload = "a rank's report exceeds 2 GiB (MPI counts)";
  // Every rank's code and length, then the texts, on rank 0.
  int mine[2] = {code, int(payload.size())};
  std::vector<int> heads(w.root() ? 2 * std::size_t(w.size) : 0);
  MPI_Gather(mine, 2, MPI_INT, heads.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> counts, offsets;
  std::string all;
  if (w.root()) {
    long long total = 0;
    for (int r = 0; r < w.size; ++r) {
      counts.push_back(heads[2 * std::size_t(r) + 1]);
      offsets.push_back(int(total));
      total += counts.back();
    }
    if (total > INT_MAX) throw std::runtime_error("the ranks' reports exceed 2 GiB together (MPI counts)");
    all.resize(std::size_t(total));
  }
  MPI_Gatherv(payload.data(), int(payload.size()), MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  // Rank 0 decides: the first failing rank's error, raised on every rank.
  int verdict[2] = {ok, -1};  // code, failing rank
  std::vector<nlohmann::ordered_json> parts;
  if (w.root()) {
    for (int r = 0; r < w.size && verdict[0] == ok; ++r)
      if (heads[2 * std::size_t(r)] != ok) verdict[0] = heads[2 * std::size_t(r)], verdict[1] = r;
    if (verdict[0] == ok)
      for (int r = 0; r < w.size; ++r) {
        try {
          parts.push_back(nlohmann::ordered_json::parse(all.substr(std::size_t(offsets[std::size_t(r)]),
                                                                   std::size_t(counts[std::size_t(r)]))));
        } catch (const nlohmann::json::exception& e) {
          verdict[0] = internal, verdict[1] = r;
          break;
        }
      }
  }
  MPI_Bcast(verdict, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (verdict[0] != ok) {
    std::string message = cat("rank ", std::to_string(verdict[1]), " of ", std::to_string(w.size), ": ");
    if (w.root() && heads[2 * std::size_t(verdict[1])] != ok)
      message += all.substr(std::size_t(offsets[std::size_t(verdict[1])]), std::size_t(counts[std::size_t(verdict[1])]));
    else if (w.root())
      message += "its report did not parse";
    else
      message += "failed (rank 0 prints why)";
    raise(verdict[0], message);
  }
  if (!w.root()) return std::nullopt;
  return parts;
}

#else  // a build without MPI: one rank

RankSession::RankSession(int&, char**&) {
  if (const int n = launched_size(); n > 1)
    throw InputError(cat("started as ", std::to_string(n), " processes by an MPI launcher, but this build has no MPI "
                         "(install libopenmpi-dev and reconfigure; docs/scaling.md, MPI): each would run the whole command"));
}
RankSession::~RankSession() = default;
int RankSession::agree(int code) const { return code; }

std::vector<std::string> all_gather_bytes(const std::string& bytes) { return {bytes}; }

std::optional<std::vector<nlohmann::ordered_json>> gather_parts(
    const std::function<nlohmann::ordered_json(const Shard&)>& part) {
  return std::vector<nlohmann::ordered_json>{part(Shard{})};
}

#endif

}  // namespace rigidbench::cli
