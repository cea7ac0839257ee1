#include "atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <utility>

#include "signal_cleanup.hpp"
#include "types.hpp"

namespace rigidbench {
namespace {

// The temporaries in flight, for the signal handler: fixed storage, claimed with an atomic flag, so
// that the handler only reads memory and calls unlink (async-signal-safe).
constexpr int kSlots = 16;
constexpr std::size_t kPathMax = 4096;
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};
  char path[kPathMax];
};
std::array<Slot, kSlots> g_slots;

void remove_temporaries() {
  for (Slot& s : g_slots)
    if (s.ready.load()) ::unlink(s.path);
}

int claim_slot(const std::string& tmp) {
  if (tmp.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_slots[std::size_t(i)].used.compare_exchange_strong(expected, true)) {
      std::memcpy(g_slots[std::size_t(i)].path, tmp.c_str(), tmp.size() + 1);
      g_slots[std::size_t(i)].ready.store(true);
      return i;
    }
  }
  return -1;  // more than kSlots files at once: written all the same, without the signal cleanup
}

void release_slot(int i) {
  if (i < 0) return;
  g_slots[std::size_t(i)].ready.store(false);
  g_slots[std::size_t(i)].used.store(false);
}

/// Removes ".<name>.tmp.<pid>.<n>" files in `dir` whose process no longer exists (killed runs).
void remove_stale_temporaries(const std::string& dir, const std::string& name) {
  const std::string prefix = cat(".", name, ".tmp.");
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string f = e->d_name;
    if (f.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = std::strtol(f.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid()) continue;
    // Only a regular file of this user's: what someone else left (or planted) is theirs.
    const std::string full = cat(dir, "/", f);
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::unlink(full.c_str());
  }
  ::closedir(d);
}

/// Whether a link or a FIFO on the way to an output belongs to someone else: neither this user nor
/// root (docs/security.md, "Outputs"). Stricter than Linux's fs.protected_symlinks, which trusts any
/// link outside a sticky folder: a folder another user made at a predictable place (`--out /tmp/x`)
/// could hold a link to a file of this user's.
bool foreign(const struct stat& st) { return st.st_uid != ::geteuid() && st.st_uid != 0; }

[[noreturn]] void refuse_foreign(const std::string& out, const std::string& at, const struct stat& st, const char* what) {
  throw IoError(cat("cannot write '", out, "': ", at == out ? std::string("it") : cat("'", at, "' on its way"), " is ", what,
                    " of another user (uid ", std::to_string(st.st_uid), "); rigidbench does not write through it"));
}

/// IoError when any component of `path` - a folder on the way or the file itself - is a symbolic
/// link of another user's, following the links of this user's (and root's) to check where they
/// lead; `out` names the output in the message.
void refuse_foreign_links(const std::string& out, const std::string& path, int depth = 0) {
  namespace fs = std::filesystem;
  if (depth > 40) throw IoError(cat("cannot write '", out, "': too many levels of symbolic links"));
  fs::path prefix;
  for (const fs::path& part : fs::path(path)) {
    prefix /= part;
    struct stat st {};
    if (::lstat(prefix.c_str(), &st) != 0) return;  // not there yet: created by this process
    if (!S_ISLNK(st.st_mode)) continue;
    if (foreign(st)) refuse_foreign(out, prefix.string(), st, "a symbolic link");
    std::error_code ec;
    fs::path to = fs::read_symlink(prefix, ec);
    if (ec) return;
    refuse_foreign_links(out, (to.is_relative() ? prefix.parent_path() / to : to).string(), depth + 1);
  }
}

/// The path with every symbolic link along its last component followed (a link to a link, a
/// relative link, a link to a file not yet there); IoError for a loop. Links of other users are
/// refused before (refuse_foreign_links).
std::string resolve_links(std::string path) {
  namespace fs = std::filesystem;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    if (hops == 40) throw IoError(cat("cannot write '", path, "': too many levels of symbolic links"));
    std::error_code ec;
    fs::path to = fs::read_symlink(path, ec);
    if (ec) throw IoError(cat("cannot write '", path, "': ", ec.message()));
    if (to.is_relative()) to = fs::path(path).parent_path() / to;
    path = to.string();
  }
}

const char* file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

/// The files this process has read as inputs, by device and inode, with what they were read as.
struct Inputs {
  std::mutex m;
  std::map<std::pair<dev_t, ino_t>, std::string> files;
};
Inputs& inputs() {
  static Inputs in;
  return in;
}

/// A name no one can have planted: 48 random bits (the temporary is then created with O_EXCL).
std::string random_suffix() {
  static std::mutex m;
  static std::mt19937_64 g{std::random_device{}()};
  const std::lock_guard<std::mutex> lock(m);
  char b[17];
  std::snprintf(b, sizeof b, "%012llx", static_cast<unsigned long long>(g() & 0xffffffffffffull));
  return b;
}

}  // namespace

void note_input(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  Inputs& in = inputs();
  const std::lock_guard<std::mutex> lock(in.m);
  in.files.emplace(std::pair{st.st_dev, st.st_ino}, std::string(what));
}

void forget_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  Inputs& in = inputs();
  const std::lock_guard<std::mutex> lock(in.m);
  in.files.erase(std::pair{st.st_dev, st.st_ino});
}

std::optional<std::string> read_as_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  Inputs& in = inputs();
  const std::lock_guard<std::mutex> lock(in.m);
  const auto it = in.files.find({st.st_dev, st.st_ino});
  if (it == in.files.end()) return std::nullopt;
  return it->second;
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  // What stands at the target decides how it is written (the header): the file a link names is
  // replaced and the link kept; a device or a FIFO is written through; only a regular file is
  // ever renamed over.
  refuse_foreign_links(path, path);
  const std::string target = resolve_links(path);
  if (const auto what = read_as_input(target))
    throw InputError(cat("cannot write '", path, "': it is ", *what,
                         " this command read; rigidbench does not replace its own input - write to another file"));
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISFIFO(st.st_mode) && foreign(st)) refuse_foreign(path, path, st, "a FIFO");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      target_ = target;
      open_through(S_ISFIFO(st.st_mode));
      return;
    }
    throw IoError(cat("cannot write '", path, "': it is ", file_kind(st.st_mode),
                      ", and only a regular file is ever replaced"));
  }
  target_ = target;
  const fs::path tp(target);
  dir_ = tp.has_parent_path() ? tp.parent_path().string() : std::string(".");
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) throw InputError(cat("cannot write '", path, "': folder '", dir_, "' does not exist"));
  const std::string name = tp.filename().string();
  remove_stale_temporaries(dir_, name);
  on_fatal_signal(remove_temporaries);
  // Created, never opened: O_EXCL fails on anything already at the name (a file, a link someone
  // planted, dangling or not) and O_NOFOLLOW refuses a link, so the bytes go to a new file of this
  // process's and nowhere else. The name is unpredictable too, so that no one can make the creation
  // fail on purpose; a clash (EEXIST) just draws another.
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 32; ++attempt) {
    tmp_ = cat(dir_, "/.", name, ".tmp.", std::to_string(::getpid()), ".", random_suffix());
    fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    tmp_.clear();  // nothing of ours to remove
    committed_ = true;
    throw IoError(cat("cannot write '", path_, "': cannot create a file in its folder: ", std::strerror(err)));
  }
  slot_ = claim_slot(tmp_);
  f_ = ::fdopen(fd, "wb");
  if (f_ == nullptr) {
    const int err = errno;
    ::close(fd);
    fail("cannot create a file in its folder", err);
  }
}

void AtomicFile::open_through(bool fifo) {
  // A FIFO is opened without blocking: with no reader, open fails (ENXIO) instead of waiting forever;
  // the writes themselves then block as a pipe's should.
  const int fd = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));
  if (fd < 0) {
    const int err = errno;
    if (fifo && err == ENXIO) throw IoError(cat("cannot write '", path_, "': it is a FIFO that no program reads"));
    throw IoError(cat("cannot write '", path_, "': ", std::strerror(err)));
  }
  if (fifo) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // A reader that goes away mid-write is a refused write (EPIPE, exit 5), not a kill by SIGPIPE -
    // unless the embedding program handles SIGPIPE itself.
    struct sigaction old {};
    if (::sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) ::signal(SIGPIPE, SIG_IGN);
  }
  f_ = ::fdopen(fd, "wb");
  if (f_ == nullptr) {
    const int err = errno;
    ::close(fd);
    throw IoError(cat("cannot write '", path_, "': ", std::strerror(err)));
  }
}

AtomicFile::~AtomicFile() {
  if (f_ != nullptr) std::fclose(f_);
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
  release_slot(slot_);
}

void AtomicFile::fail(const char* what, int err) {
  if (f_ != nullptr) std::fclose(f_);
  f_ = nullptr;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  release_slot(slot_);
  slot_ = -1;
  committed_ = true;  // nothing left to remove
  throw IoError(cat("cannot write '", path_, "': ", what, ": ", std::strerror(err)));
}

void AtomicFile::write(std::string_view bytes) {
  if (f_ == nullptr) throw std::logic_error("AtomicFile::write after commit");
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) fail("write failed", errno ? errno : EIO);
}

void AtomicFile::commit() {
  if (f_ == nullptr) throw std::logic_error("AtomicFile::commit twice");
  errno = 0;
  if (std::fflush(f_) != 0) fail("write failed", errno ? errno : EIO);
  if (tmp_.empty()) {  // written through a device or a FIFO: nothing to sync or rename
    std::FILE* f = f_;
    f_ = nullptr;
    committed_ = true;
    if (std::fclose(f) != 0) throw IoError(cat("cannot write '", path_, "': closing failed: ", std::strerror(errno)));
    return;
  }
  if (::fsync(::fileno(f_)) != 0) fail("flushing to disk failed", errno);
  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    committed_ = true;
    throw IoError(cat("cannot write '", path_, "': closing failed: ", std::strerror(err)));
  }
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) fail("renaming into place failed", errno);
  committed_ = true;
  release_slot(slot_);
  slot_ = -1;
  // The rename itself is durable only once the folder is.
  const int d = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
  if (d >= 0) {
    ::fsync(d);
    ::close(d);
  }
}

void write_atomic(const std::string& path, std::string_view content) {
  AtomicFile f(path);
  f.write(content);
  f.commit();
}

}  // namespace rigidbench
