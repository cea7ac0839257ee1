#include "plugin_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "types.hpp"

namespace rigidbench {

namespace {

/// A file descriptor closed on every path.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool read_at(int fd, void* p, std::size_t n, off_t at) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t k = ::pread(fd, c, n, at);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= std::size_t(k);
    at += k;
  }
  return true;
}

/// e_machine of the running program (/proc/self/exe): a plugin must be built for the same machine.
int own_machine() {
  static const int m = [] {
    Fd f{::open("/proc/self/exe", O_RDONLY | O_CLOEXEC)};
    Elf64_Ehdr e{};
    return f.fd >= 0 && read_at(f.fd, &e, sizeof e, 0) ? int(e.e_machine) : -1;
  }();
  return m;
}

std::string checked_plugin(const std::string& path, std::string_view desc);
std::string checked_fd(int fd, std::string_view desc);

/// Whether one SHT_NOTE section's bytes hold the note (owner "rigidbench", the type, `desc`).
bool holds_note(const std::vector<char>& b, std::string_view desc) {
  const auto align4 = [](std::size_t n) { return (n + 3) / 4 * 4; };
  for (std::size_t at = 0; at + sizeof(Elf64_Nhdr) <= b.size();) {
    Elf64_Nhdr h{};
    std::memcpy(&h, b.data() + at, sizeof h);
    const std::size_t name_at = at + sizeof h, desc_at = name_at + align4(h.n_namesz);
    const std::size_t end = desc_at + align4(h.n_descsz);
    if (h.n_namesz > b.size() || h.n_descsz > b.size() || end > b.size()) return false;
    const std::string_view name(b.data() + name_at, h.n_namesz > 0 ? h.n_namesz - 1 : 0);
    std::string_view d(b.data() + desc_at, h.n_descsz);
    if (!d.empty() && d.back() == '\0') d.remove_suffix(1);
    if (name == "rigidbench" && h.n_type == RIGIDBENCH_PLUGIN_NOTE_TYPE && d == desc) return true;
    at = end;
  }
  return false;
}

}  // namespace

std::string plugin_file_problem(const std::string& path, std::string_view desc) {
  std::string why;
  const int fd = open_plugin_file(path, desc, why);
  if (fd >= 0) ::close(fd);
  return why;
}

int open_plugin_file(const std::string& path, std::string_view desc, std::string& why) {
  why = checked_plugin(path, desc);
  if (!why.empty()) return -1;
  // Reopened and compared with the file checked: the descriptor handed back is of that file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat a {}, b {};
  if (fd < 0 || ::fstat(fd, &a) != 0 || ::stat(path.c_str(), &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev ||
      !S_ISREG(a.st_mode) || (a.st_mode & (S_IWGRP | S_IWOTH))) {
    if (fd >= 0) ::close(fd);
    why = "changed while it was checked";
    return -1;
  }
  // Checked again through this descriptor: what dlopen maps is what was read.
  if (std::string again = checked_fd(fd, desc); !again.empty()) {
    ::close(fd);
    why = again;
    return -1;
  }
  return fd;
}

namespace {

std::string checked_plugin(const std::string& path, std::string_view desc) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file" : S_ISDIR(st.st_mode) ? "is a folder" : "is not a regular file";
  // Like sshd's StrictModes: code that another user could have changed is not run.
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "is writable by other users (chmod go-w it)";
  if (st.st_uid != ::geteuid() && st.st_uid != 0)
    return cat("belongs to another user (uid ", std::to_string(st.st_uid), "), neither you nor root");
  // O_NONBLOCK: should the file have been swapped for a FIFO since stat, open does not wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) return std::strerror(errno);
  struct stat again {};
  if (::fstat(f.fd, &again) != 0 || !S_ISREG(again.st_mode) || again.st_ino != st.st_ino) return "changed while it was checked";
  return checked_fd(f.fd, desc);
}

std::string checked_fd(int fd, std::string_view desc) {
  const Fd f{::dup(fd)};
  if (f.fd < 0) return std::strerror(errno);
  Elf64_Ehdr e{};
  if (!read_at(f.fd, &e, sizeof e, 0) || std::memcmp(e.e_ident, ELFMAG, SELFMAG) != 0) return "is not an ELF file";
  if (e.e_ident[EI_CLASS] != ELFCLASS64 || e.e_type != ET_DYN) return "is not a 64-bit ELF shared object";
  if (int(e.e_machine) != own_machine()) return "is built for another machine";
  if (e.e_shentsize != sizeof(Elf64_Shdr) || e.e_shnum == 0 || e.e_shnum > 4096) return "has no readable section table";
  std::vector<Elf64_Shdr> sections(e.e_shnum);
  if (!read_at(f.fd, sections.data(), sections.size() * sizeof(Elf64_Shdr), off_t(e.e_shoff))) return "is cut short";
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type != SHT_NOTE || s.sh_size > (1u << 16)) continue;
    std::vector<char> b(s.sh_size);
    if (read_at(f.fd, b.data(), b.size(), off_t(s.sh_offset)) && holds_note(b, desc)) return {};
  }
  return cat("carries no rigidbench note '", std::string(desc), "' (another library, or a plugin of another version)");
}

}  // namespace

}  // namespace rigidbench
