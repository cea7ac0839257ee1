#pragma once
// Files written so that a reader never sees half of one and a failure never loses the previous one
// (docs/decisions.md, "Writing files"): every report, snapshot, trajectory and history page goes
// through AtomicFile - a temporary beside the target, created exclusively under an unpredictable
// name, written, flushed to disk, renamed over the target, and the folder flushed too. Only a
// regular file (or nothing) is ever replaced: a symbolic link is followed and its target replaced, a
// character device or a FIFO (/dev/null, a pipe to another program) is written through, and anything
// else (a folder, a block device, a socket) is refused - never turned into a regular file. A link
// (the file's or a folder's on the way) or a FIFO that belongs to another user - neither this user
// nor root - is refused, and so is a file this process read as an input (docs/security.md).
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rigidbench {

/// The system refused a write (no space, read-only file system, permission, file too large): not
/// the user's input. The CLI maps it to exit code 5; the message carries the errno text.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One file being written atomically. The temporary is ".<name>.tmp.<pid>.<random>" in the target's
/// folder, created with O_CREAT | O_EXCL | O_NOFOLLOW; temporaries of this user's left there by
/// killed runs (their process gone) are removed when the next one is created; SIGINT and SIGTERM remove the temporary before the process ends (the handlers
/// are installed only where the signal's disposition is the default, e.g. not inside Python).
class AtomicFile {
 public:
  /// InputError when the folder does not exist or the target is one of this process's inputs
  /// (note_input); IoError when the temporary cannot be created, when the target exists and is
  /// neither a regular file, a character device nor a FIFO, is a FIFO that no program reads, or is
  /// reached through a link, or is a FIFO, of another user's.
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

/// Records that this process read `path` as an input (`what`: "the baseline 'b.json'"), by its
/// device and inode: AtomicFile then refuses to replace it (InputError naming `what`), whatever path
/// the output is given by - `compare --in X --out X`, a link to X, X's folder and name. The readers
/// of outside files call it (read_json_input, trajectory files, the history).
void note_input(const std::string& path, std::string_view what);
/// Undoes note_input for the one file a command reads in order to replace it (gate --bless keeping
/// the old baseline's own tolerances).
void forget_input(const std::string& path);
/// What `path` was read as, when note_input recorded it.
std::optional<std::string> read_as_input(const std::string& path);

}  // namespace rigidbench
