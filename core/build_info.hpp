#pragma once
// What this build of librigidbench knows about itself: written into every report's provenance
// (reports/report.cpp), used to find its data files (core/data_files.cpp) and to build another
// revision the same way (cli/against.cpp). Defined in one generated translation unit
// (core/build_info.cpp.in, configured by CMake): the paths and flags reach no other unit's command
// line, so that a compiler cache shares every other object between two checkouts of the same
// sources - a fresh clone and the worktree of `gate --against` (docs/decisions.md, "Build time").

namespace rigidbench {

struct BuildInfo {
  const char* version;              ///< the project's version (CMake's project(VERSION))
  const char* compiler_id;          ///< CMake's compiler id: GNU, Clang
  const char* cxx_compiler;         ///< the compiler's path
  const char* cxx_flags;            ///< CMAKE_CXX_FLAGS plus the build type's flags
  const char* cxx_flags_base;       ///< CMAKE_CXX_FLAGS alone
  const char* build_type;           ///< Release, Debug, ...
  /// The CMake options (';'-separated -D arguments) that, with the compiler, flags and build type,
  /// make another configure of these sources compile exactly as this one (cli/against.cpp).
  const char* configure_options;
  const char* python_executable;    ///< the Python with jsonschema and matplotlib (render, checks)
  const char* source_data_dir;      ///< <source tree>/reports: renderer and schemas in a build tree
  const char* install_data_subdir;  ///< share/rigidbench, relative to the installation prefix
  const char* install_lib_subdir;   ///< lib (or lib/<multiarch>), relative to the prefix
};

const BuildInfo& build_info();

}  // namespace rigidbench
