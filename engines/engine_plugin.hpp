#pragma once
// Engines whose libraries are loaded on first use (docs/engines.md, "Plugins"). Linking an engine's
// libraries costs every process that links them its loader's relocations at start, whether or not
// one of the engine's schemes runs: DART's ~15 ms, Simbody's ~12 ms, against ~2 ms for a program
// linking neither, and the test suite starts the command and the test binary hundreds of times. Such
// an engine is built as a module (librigidbench_<engine>.so) behind a C interface of plain types,
// and its scheme file loads it here the first time one of its schemes is made: listing the schemes,
// or running any other, never loads it.
//
// The file is checked as data before dlopen runs any of it, and loaded from the descriptor of the
// file checked (core/plugin_file.hpp; docs/security.md, "Plugins").
#include <string>
#include <utility>

namespace rigidbench::engines {

/// Where a plugin is and what it must be. Its entry function returns a table of its functions
/// whose first member is `int abi` (the interface version it was built with). The plugin `name`
/// ("dart") is the module librigidbench_<name>.so, its entry function rigidbench_<name>_plugin, and
/// the environment variable RIGIDBENCH_<NAME>_PLUGIN a path the user gives (then the only place tried).
struct EnginePlugin {
  const char* engine;       // "DART": named in messages
  const char* name;         // "dart"
  const char* note;         // the description of its ELF note, "dart-plugin 1" (plugin_file.hpp)
  int abi;                  // the interface version this program was built with
  const char* from_bindir;  // its path from an installed command's folder (<libdir>/rigidbench/...)
  const char* built;        // its path in the build tree that built this program
  const void* (*call)(void* entry) = nullptr;  // entry() through its own type: the table (engine_plugin sets it)
};

/// The plugin's table of functions, loaded once per process (later calls return the same table or
/// throw the same error); InputError naming every place tried when it cannot be loaded.
const void* load_engine_plugin(const EnginePlugin& plugin);

/// The table of the plugin whose entry function has the type Entry (`decltype(&rigidbench_dart_plugin)`,
/// a type only: the function itself is in the plugin, not linked here). The entry symbol is called
/// through that type: a call through another function type is undefined behaviour, and UBSan's
/// -fsanitize=function says so.
template <class Entry>
const auto& engine_plugin(EnginePlugin plugin) {
  plugin.call = [](void* entry) -> const void* { return reinterpret_cast<Entry>(entry)(); };
  return *static_cast<decltype(std::declval<Entry>()())>(load_engine_plugin(plugin));
}

}  // namespace rigidbench::engines
