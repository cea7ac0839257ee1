#pragma once
// Shared by the libFuzzer targets (docs/fuzzing.md). The contract every reader of outside input
// keeps: a bad input is an InputError naming what is wrong (the command's exit 2). Anything else -
// another exception (the command's exit 3, "internal error"), a crash, a hang, a sanitizer report -
// is a finding, so only InputError is caught here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "../core/types.hpp"

namespace rigidbench::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs `f`; a bad input (InputError) is the expected answer and is swallowed.
template <class F>
void reject_or_accept(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  }
}

/// The input's bytes as the file `path` (replaced), for a reader that takes a file.
inline void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
}

/// A property the reader promises broke: report it the way libFuzzer reports a crash.
[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "rigidbench fuzz finding: %s\n", what);
  std::abort();
}

/// A scratch folder of the target's own, under `base` (the temporary folder by default), removed
/// when the process exits.
inline std::string scratch_folder(const char* name, std::filesystem::path base = std::filesystem::temp_directory_path()) {
  static std::string made;
  made = (base / (std::string(name) + "-XXXXXX")).string();
  if (!mkdtemp(made.data())) finding("cannot make the scratch folder");
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(made, ec);
  });
  return made;
}

}  // namespace rigidbench::fuzz
