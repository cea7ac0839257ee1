#pragma once
// `simulate` and `reference` output (docs/trajectory-files.md) written as the rows are produced, so
// that memory does not grow with the number of steps, and committed atomically at the end
// (core/atomic_file.hpp): a run that breaks down or is interrupted leaves no file.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../core/atomic_file.hpp"
#include "../core/state.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

class TrajectoryWriter {
 public:
  /// Memory of one pass of the JSON transpose, in doubles (64 MiB).
  static constexpr std::size_t kTransposeDoubles = std::size_t(1) << 23;
  /// Opens the temporary now (a folder that cannot be written fails before any work). The format
  /// is chosen by the extension, .csv or .json (InputError otherwise). `transpose_doubles`: the
  /// JSON transpose's memory (a test makes it small to force one pass per column).
  TrajectoryWriter(const std::string& path, const Problem& p, nlohmann::ordered_json meta,
                   std::size_t transpose_doubles = kTransposeDoubles);
  ~TrajectoryWriter();
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// One row: t, the state columns `score` reads back, the problem's invariants.
  void add(double t, const State& s);
  /// Writes what remains and renames the file into place; without it nothing is left behind.
  void finish();
  std::size_t rows() const { return rows_; }

 private:
  const Problem& p_;
  nlohmann::ordered_json meta_;
  std::vector<std::string> cols_;
  std::vector<double> row_;
  AtomicFile file_;
  bool csv_;
  // JSON is column-major: the rows go to one unnamed scratch file (binary, row-major) and finish()
  // transposes it in passes of as many columns as fit a fixed memory budget. One scratch file per
  // column ran out of file descriptors on a body system of thousands of bodies (18 columns each).
  std::FILE* scratch_ = nullptr;
  std::size_t transpose_doubles_;
  std::string buf_;
  std::size_t rows_ = 0;
};

}  // namespace rigidbench
