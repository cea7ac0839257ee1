# What makes a build of rigidbench fast without changing what it computes (docs/decisions.md,
# "Build time", has each measure's measured saving):
#
# - RIGIDBENCH_CCACHE: compile through ccache (Debian package `ccache`) when it is installed. Its
#   cache is ccache's own default folder (~/.cache/ccache, or $CCACHE_DIR). CCACHE_BASEDIR is this
#   source tree, so paths on the command line are relative to it and two checkouts of the same
#   sources (a fresh clone, the worktree of `gate --against`) share their objects; the sloppiness
#   lets a precompiled header be cached (ccache manual, "Precompiled headers").
# - RIGIDBENCH_PCH: precompiled headers for the heavy third-party headers every unit parses
#   (Eigen, nlohmann/json, the standard library; Catch2 for the tests). CLI11 is parsed by the two
#   unity units of cli/ only.
# - RIGIDBENCH_UNITY: the units of code that is never timed - the command line, the report writers
#   and tracking, the tests - compiled in a few unity batches (rigidbench_unity below). The schemes,
#   problems, references and metrics keep one unit per file, so their optimised code, and with it
#   the instruction counts the speed gate compares, are what they were.
#
# None of them changes a computed number: the unity sources are the same code under the same flags,
# and x86-64 doubles are IEEE without excess precision or contraction (-std=c++20 sets
# -ffp-contract=off), so inlining across files cannot change a result.

option(RIGIDBENCH_CCACHE "Compile through ccache when it is installed" ON)
option(RIGIDBENCH_PCH "Precompiled headers for the heavy third-party headers" ON)
option(RIGIDBENCH_UNITY "Unity batches for the command line, report and tracking code and the tests" ON)
# RIGIDBENCH_UNITY_ALL: every other source of the library too, in batches of six per layer. Only for a
# build whose instruction counts nobody compares (the clang-native preset, which CI gates on accuracy
# alone): the release preset keeps one unit per scheme so that the speed gate measures that code.
option(RIGIDBENCH_UNITY_ALL "Unity batches for every source of the library (builds whose speed is not gated)" OFF)

if(RIGIDBENCH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(RIGIDBENCH_CCACHE_EXE ccache)
  if(RIGIDBENCH_CCACHE_EXE)
    set(CMAKE_CXX_COMPILER_LAUNCHER env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${RIGIDBENCH_CCACHE_EXE})
    message(STATUS "rigidbench: compiling through ${RIGIDBENCH_CCACHE_EXE} (RIGIDBENCH_CCACHE=OFF to stop)")
    # __FILE__ relative to the tree: Catch2's test macros expand it, and CMake's unity files include
    # each source by its absolute path, so without this every test unit's preprocessed text carried
    # the checkout's path and missed the cache in a fresh clone (docs/decisions.md, Build time).
    add_compile_options(-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=)
  else()
    message(STATUS "rigidbench: ccache not found - every build compiles everything (Debian: apt-get install ccache)")
  endif()
endif()

# rigidbench_pch(TARGET [HEADER...]): the common headers, plus the target's own heavy ones.
function(rigidbench_pch target)
  if(NOT RIGIDBENCH_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <algorithm> <array> <cmath> <cstdint> <cstdio> <filesystem> <fstream> <functional> <map> <memory>
    <optional> <set> <sstream> <string> <string_view> <vector>
    <Eigen/Core> <Eigen/Geometry> <nlohmann/json.hpp> ${ARGN})
endfunction()

# rigidbench_unity(TARGET GROUP SOURCE...): SOURCEs of TARGET compiled as one unity unit named
# GROUP (CMake's UNITY_BUILD_MODE GROUP: sources without a group keep their own unit).
function(rigidbench_unity target group)
  if(NOT RIGIDBENCH_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${group})
endfunction()

# rigidbench_unity_all(TARGET): with RIGIDBENCH_UNITY_ALL, the sources of TARGET not in a group yet,
# in groups of six by folder. CMake leaves a source with its own compile options out of any unity
# unit, so the sanitize preset's per-file coverage switches would keep most of it apart anyway.
# Left alone: the error metrics, one file each by design with the same local helper names (at_end,
# over_grid, floor, ...: docs/metrics.md), and the files whose local helpers share a name with a
# neighbour's (Entry, pi, num).
set(RIGIDBENCH_UNITY_ALL_ALONE problems/catalogue.cpp problems/families/body_system.cpp
    verification/runner.cpp)
function(rigidbench_unity_all target)
  if(NOT RIGIDBENCH_UNITY OR NOT RIGIDBENCH_UNITY_ALL)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  get_target_property(_sources ${target} SOURCES)
  set(_count_by_dir "")
  foreach(_src IN LISTS _sources)
    if(NOT _src MATCHES "\\.cpp$")
      continue()
    endif()
    get_source_file_property(_group ${_src} TARGET_DIRECTORY ${target} UNITY_GROUP)
    if(_group)
      continue()
    endif()
    # The group's name from the folder relative to the tree (it names the unity file, which must not
    # carry the checkout's path: ccache shares objects between checkouts).
    get_filename_component(_dir ${_src} DIRECTORY)
    if(_dir MATCHES "^${PROJECT_BINARY_DIR}")
      file(RELATIVE_PATH _dir ${PROJECT_BINARY_DIR} ${_dir})
      set(_dir "build_${_dir}")
    else()
      file(RELATIVE_PATH _dir ${PROJECT_SOURCE_DIR} ${_dir})
    endif()
    get_filename_component(_name ${_src} NAME)
    if(_dir STREQUAL "verification/error_metrics" OR "${_dir}/${_name}" IN_LIST RIGIDBENCH_UNITY_ALL_ALONE)
      continue()
    endif()
    string(MAKE_C_IDENTIFIER "${_dir}" _key)
    if(NOT DEFINED _n_${_key})
      set(_n_${_key} 0)
    endif()
    math(EXPR _batch "${_n_${_key}} / 6")
    math(EXPR _n_${_key} "${_n_${_key}} + 1")
    set_source_files_properties(${_src} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP all_${_key}_${_batch})
  endforeach()
endfunction()
