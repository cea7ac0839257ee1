// libFuzzer target: the declaration file of schemes that are programs (read_program_declarations,
// verification/program_scheme.hpp; docs/programs.md, "The declaration file") on arbitrary bytes,
// written as programs.json in a scratch folder of its own. The reader's promise: a malformed file is
// an InputError naming the file and the key; a file it accepts gives declarations each with a name, a
// command, a working folder, a positive finite time bound and a non-negative memory bound - nothing
// is started by reading (the program runs at an integrator's first run).
#include <cmath>
#include <filesystem>
#include <string>

#include "fuzz.hpp"
#include "../verification/program_scheme.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  static const std::string path =
      (std::filesystem::path(fuzz::scratch_folder("rigidbench-fuzz-programs")) / "programs.json").string();
  fuzz::write_file(path, data, size);
  fuzz::reject_or_accept([&] {
    for (const ProgramDeclaration& d : read_program_declarations(path)) {
      if (d.scheme.name.empty() || d.command.empty() || d.command.front().empty() || d.dir.empty())
        fuzz::finding("an accepted declaration without a name, a command or a working folder");
      if (!(d.timeout_seconds > 0) || !std::isfinite(d.timeout_seconds) || !(d.memory_mb >= 0) || !std::isfinite(d.memory_mb))
        fuzz::finding("an accepted declaration with a time or memory bound that is not a positive finite number");
    }
  });
  return 0;
}
