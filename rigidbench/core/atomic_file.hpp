#pragma once
// Files written so that a reader never sees half of one and a failure never loses the previous one
// (docs/decisions.md, "Writing files"): every report, snapshot, trajectory and history page goes
// through AtomicFile - a temporary beside the target, written, flushed to disk, renamed over the
// target, and the folder flushed too. Only a regular file (or nothing) is ever replaced: a symbolic
// link is followed and its target replaced, a character device or a FIFO (/dev/null, a pipe to
// another program) is written through, and anything else (a folder, a block device, a socket) is
// refused - never turned into a regular file.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rigidbench {

/// The system refused a write (no space, read-only file system, permission, file too large): not
/// the user's input. The CLI maps it to exit code 5; the message carries the errno text.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One file being written atomically. The temporary is ".<name>.tmp.<pid>.<n>" in the target's
/// folder; temporaries left there by killed runs (their process gone) are removed when the next
/// one is created; SIGINT and SIGTERM remove the temporary before the process ends (the handlers
/// are installed only where the signal's disposition is the default, e.g. not inside Python).
class AtomicFile {
 public:
  /// InputError when the folder does not exist; IoError when the temporary cannot be created, when
  /// the target exists and is neither a regular file, a character device nor a FIFO, or is a FIFO
  /// that no program reads.
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// IoError (with the errno text) when the system refuses the bytes.
  void write(std::string_view bytes);
  /// Flushes, syncs, renames over the target and syncs the folder; IoError on failure (the target
  /// is then untouched).
  void commit();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what, int err);
  void open_through(bool fifo);
  std::string path_, target_, tmp_, dir_;  // target_: path_ with links followed; tmp_ empty when writing through (a device or a FIFO)
  std::FILE* f_ = nullptr;
  int slot_ = -1;
  bool committed_ = false;
};

/// The whole content at once through AtomicFile.
void write_atomic(const std::string& path, std::string_view content);

}  // namespace rigidbench
