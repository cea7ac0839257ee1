// Engines loaded on first use (engine_plugin.hpp; docs/engines.md, "Plugins").
#include "engine_plugin.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "../core/plugin_file.hpp"
#include "../core/types.hpp"

namespace rigidbench::engines {

namespace {

/// The names that follow from the plugin's (engine_plugin.hpp, EnginePlugin).
struct Names {
  std::string file, env, entry;
  explicit Names(const EnginePlugin& p)
      : file(cat("librigidbench_", p.name, ".so")), env(cat("RIGIDBENCH_", upper(p.name), "_PLUGIN")),
        entry(cat("rigidbench_", p.name, "_plugin")) {}
  static std::string upper(std::string s) {
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
  }
};

/// Where the plugin may be: the path in its environment variable alone when that is set (a path the
/// user gave is never silently replaced by another); otherwise beside an installed command
/// (<prefix>/<bindir>/rigidbench -> <prefix>/<libdir>/rigidbench/<file>), then the build tree that
/// built this program.
std::vector<std::string> candidates(const EnginePlugin& p, const Names& n) {
  if (const char* env = std::getenv(n.env.c_str()); env && *env) return {env};
  std::vector<std::string> c;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) c.push_back((exe.parent_path() / p.from_bindir).lexically_normal().string());
  c.emplace_back(p.built);
  return c;
}

/// The table, or empty and `failure` set.
const void* load(const EnginePlugin& p, std::string& failure) {
  const Names n(p);
  std::string tried;
  for (const std::string& path : candidates(p, n)) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried += cat("\n  ", path, ": no such file");
      continue;
    }
    // Read as data before dlopen runs any of it (a FIFO would block it; a foreign library's
    // constructors would run), and loaded from the descriptor of the file read, so that it is the
    // one loaded (a bare name would send dlopen searching LD_LIBRARY_PATH): docs/security.md, "Plugins".
    std::string why;
    const int fd = open_plugin_file(std::filesystem::absolute(path, ec).string(), p.note, why);
    if (fd < 0) {
      tried += cat("\n  ", path, ": ", why);
      continue;
    }
    // The descriptor stays open for the life of the process (close-on-exec): the loader knows a
    // loaded object by the name it was opened under, and a second plugin opened as the same
    // "/proc/self/fd/N" after N was closed and reused would be handed the first plugin again.
    void* lib = dlopen(cat("/proc/self/fd/", std::to_string(fd)).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      ::close(fd);
      tried += cat("\n  ", path, ": ", dlerror());
      continue;
    }
    void* entry = dlsym(lib, n.entry.c_str());
    const void* table = entry ? p.call(entry) : nullptr;
    // Every table's first member is its `int abi` (engine_plugin.hpp).
    const int abi = table ? *static_cast<const int*>(table) : -1;
    if (abi != p.abi) {
      tried += cat("\n  ", path, ": not a ", p.engine, " plugin of this rigidbench (interface ",
                   table ? std::to_string(abi) : std::string("missing"), ", expected ", std::to_string(p.abi), ")");
      continue;
    }
    return table;
  }
  failure = cat("the ", p.engine, " schemes need their plugin, ", n.file, ", which could not be loaded (set ", n.env,
                " to its path; docs/engines.md, \"Plugins\"). Tried:", tried);
  return nullptr;
}

}  // namespace

const void* load_engine_plugin(const EnginePlugin& plugin) {
  struct Loaded {
    const void* table = nullptr;
    std::string failure;
  };
  static std::mutex mutex;
  static std::map<std::string, Loaded> loaded;  // by the plugin's name
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = loaded.try_emplace(plugin.name);
  if (fresh) it->second.table = load(plugin, it->second.failure);
  if (!it->second.table) throw InputError(it->second.failure);
  return it->second.table;
}

}  // namespace rigidbench::engines
