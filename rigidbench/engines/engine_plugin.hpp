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

namespace rigidbench::engines {

/// Where a plugin is and what it must be. Its entry function returns a table of its functions
/// whose first member is `int abi` (the interface version it was built with); `call` calls the entry
/// symbol through its own type (a call through another function type is undefined behaviour, and
/// UBSan's -fsanitize=function says so).
struct EnginePlugin {
  const char* engine;       // "DART": named in messages
  const char* env;          // "RIGIDBENCH_DART_PLUGIN": a path the user gives (then the only place tried)
  const char* file;         // "librigidbench_dart.so"
  const char* from_bindir;  // its path from an installed command's folder (<libdir>/rigidbench/...)
  const char* built;        // its path in the build tree that built this program
  const char* note;         // the description of its ELF note, "dart-plugin 1" (plugin_file.hpp)
  const char* entry;        // the symbol of its entry function, "rigidbench_dart_plugin"
  int abi;                  // the interface version this program was built with
  const void* (*call)(void* entry);  // entry() through its own type: the table
};

/// The plugin's table of functions, loaded once per process (later calls return the same table or
/// throw the same error); InputError naming every place tried when it cannot be loaded.
const void* load_engine_plugin(const EnginePlugin& plugin);

}  // namespace rigidbench::engines
