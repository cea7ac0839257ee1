#include "rigidbench/core/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "rigidbench/core/types.hpp"

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

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (Slot& s : g_slots)
    if (s.ready.load()) ::unlink(s.path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // someone else's
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
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
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::unlink(cat(dir, "/", f).c_str());
  }
  ::closedir(d);
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  static std::atomic<unsigned> counter{0};
  const fs::path target(path);
  dir_ = target.has_parent_path() ? target.parent_path().string() : std::string(".");
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) throw InputError(cat("cannot write '", path, "': folder '", dir_, "' does not exist"));
  const std::string name = target.filename().string();
  remove_stale_temporaries(dir_, name);
  tmp_ = cat(dir_, "/.", name, ".tmp.", std::to_string(::getpid()), ".", std::to_string(counter++));
  install_handlers_once();
  slot_ = claim_slot(tmp_);
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (f_ == nullptr) fail("cannot create a file in its folder", errno);
}

AtomicFile::~AtomicFile() {
  if (f_ != nullptr) std::fclose(f_);
  if (!committed_) ::unlink(tmp_.c_str());
  release_slot(slot_);
}

void AtomicFile::fail(const char* what, int err) {
  if (f_ != nullptr) std::fclose(f_);
  f_ = nullptr;
  ::unlink(tmp_.c_str());
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
  if (::fsync(::fileno(f_)) != 0) fail("flushing to disk failed", errno);
  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    committed_ = true;
    throw IoError(cat("cannot write '", path_, "': closing failed: ", std::strerror(err)));
  }
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail("renaming into place failed", errno);
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
