#include "data_files.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "build_info.hpp"
#include "types.hpp"

namespace rigidbench {
namespace fs = std::filesystem;

namespace {
/// The file this function's code was loaded from (librigidbench.so), or empty.
fs::path library_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&library_path), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  const fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : p;
}
}  // namespace

std::string data_dir() {
  if (const char* env = std::getenv("RIGIDBENCH_DATA_DIR"); env && *env) return env;
  // <prefix>/<libdir>/librigidbench.so -> <prefix>/<datadir>/rigidbench. The libdir may have several
  // components (lib/x86_64-linux-gnu), so the prefix is found by removing exactly those.
  if (const fs::path lib = library_path(); !lib.empty()) {
    fs::path prefix = lib.parent_path();
    const fs::path libdir(build_info().install_lib_subdir);
    for (auto it = libdir.begin(); it != libdir.end(); ++it) prefix = prefix.parent_path();
    const fs::path installed = prefix / build_info().install_data_subdir;
    std::error_code ec;
    if (fs::is_regular_file(installed / "render" / "render_report.py", ec)) return installed.string();
  }
  return build_info().source_data_dir;
}

std::string data_file(const std::string& relative) {
  const fs::path p = fs::path(data_dir()) / relative;
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    throw InputError(cat("rigidbench's data file '", p.string(), "' is missing (set RIGIDBENCH_DATA_DIR to the folder "
                         "holding render/ and schema/)"));
  return p.string();
}

std::string python_executable() {
  if (const char* env = std::getenv("RIGIDBENCH_PYTHON"); env && *env) return env;
  return build_info().python_executable;
}

}  // namespace rigidbench
