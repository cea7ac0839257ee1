// libFuzzer target: the check a plugin named by a path from outside passes before dlopen runs any of
// it (plugin_file_problem, core/plugin_file.hpp; docs/security.md, "Plugins"), on arbitrary bytes
// written as a regular file of the user's. The checker reads ELF headers, the section table and its
// notes with offsets and sizes taken from the file: it must never read out of bounds, never throw,
// and accept only a file that carries the note's owner and description in its bytes.
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz.hpp"
#include "../core/plugin_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  static const std::string path =
      (std::filesystem::path(fuzz::scratch_folder("rigidbench-fuzz-plugin")) / "plugin.so").string();
  fuzz::write_file(path, data, size);
  const std::string why = plugin_file_problem(path, "dart-plugin 1");  // noexcept in practice: a throw is a finding
  if (why.empty()) {
    const std::string_view bytes = fuzz::text(data, size);
    if (bytes.find("rigidbench") == std::string_view::npos || bytes.find("dart-plugin 1") == std::string_view::npos)
      fuzz::finding("a file without the note's owner and description was accepted");
  }
  return 0;
}
