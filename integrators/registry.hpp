#pragma once
// The runtime registry of schemes: what the command line, the verification suites, the benchmarks
// and the reports look schemes up in. The built-in schemes (integrators/builtin.hpp, a type list)
// are registered first; a program linking the library adds its own with register_scheme<S>() (or
// rigidbench::main<S...>, rigidbench.hpp) before running a command, and from then on they stand
// beside the built-ins in every command and report.
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "any_integrator.hpp"

namespace rigidbench {

/// Where a scheme's code lives (the report's `scheme.origin`): compiled into the library, registered
/// by the C++ program that links it, a Python class (python/), trajectories written by any
/// program and scored from files (verification/scoring.hpp), or a program in any language spoken
/// to over a pipe (verification/program_scheme.hpp).
enum class SchemeOrigin { builtin, registered, python, trajectories, program };
const char* to_string(SchemeOrigin o);

struct SchemeEntry {
  const SchemeInfo* info;
  /// Makes one integrator bound to a problem. A std::function so that entries built at run time (a
  /// Python class, recorded trajectories) carry what they need.
  std::function<std::unique_ptr<AnyIntegrator>(const Problem&, const SchemeSettings&)> factory;
  SchemeSettings settings;  // empty in the registry: every default
  bool builtin = true;      // false: registered by the program that links the library
  SchemeOrigin origin = SchemeOrigin::builtin;
  /// false: selected only by its name or a glob, never by "all" - a scheme too slow for the default
  /// suites and the gate (Simbody's variants, 20-90 us a step: docs/engines.md). `list` says so.
  bool in_all = true;
  /// What the wall-clock cost includes beyond the core update (e.g. a Python call's overhead); empty
  /// for compiled schemes.
  std::string cost_note = {};
  /// Measured time of an empty step through the same call path (a Python scheme's step() and read()
  /// doing nothing), ns; NaN for compiled schemes. Reported beside the cost (cost.call_overhead_ns).
  double call_overhead_ns = std::numeric_limits<double>::quiet_NaN();
  /// Why its cost is not comparable with rigidbench's own, where it is not: an outside program's step
  /// compiled without optimisation (rigidbench::main, rigidbench.hpp; docs/extending.md, "Build
  /// type"). Its cost is measured and reported, flagged (cost.not_comparable); empty otherwise.
  std::string not_comparable = {};
  /// One integrator of this scheme on `p` (with `set`: other settings than the entry's, e.g. an
  /// adaptive scheme's tolerance). A registered scheme (an engine, an outside C++ scheme: code that
  /// is not rigidbench's) that throws while it is made - an engine refusing the model, a plugin that cannot be
  /// loaded - is that pair's breakdown, not the end of the command: the integrator returned then
  /// breaks down at its first step with the reason (docs/engines.md, "Faults"). A built-in's or a
  /// recorded trajectory's exception propagates (a Python class reports its own at its first step).
  std::unique_ptr<AnyIntegrator> make(const Problem& p) const { return make(p, settings); }
  /// Its runs are made outside this process - an isolated engine's in a child, a program's in the
  /// program - and timed there (timed_run): the benchmarks time them by their own clock, and
  /// callgrind, which counts this process, does not count a program.
  bool timed_elsewhere() const { return info->isolate || origin == SchemeOrigin::program; }
  std::unique_ptr<AnyIntegrator> make(const Problem& p, const SchemeSettings& set) const;
};

/// An integrator that could not be made: every step is a breakdown with `why`; read() gives back the
/// state it was reset to.
std::unique_ptr<AnyIntegrator> refused_integrator(const SchemeInfo& info, std::string why);

/// The entry of a scheme type (not registered by this call).
template <Integrator S>
SchemeEntry scheme_entry(bool builtin = false) {
  return {&S::info(),
          [](const Problem& p, const SchemeSettings& set) -> std::unique_ptr<AnyIntegrator> {
            return std::make_unique<Erased<S>>(p, set);
          },
          {},
          builtin,
          builtin ? SchemeOrigin::builtin : SchemeOrigin::registered};
}

/// Built-in schemes first, then the registered ones in registration order. Entries never move
/// (a deque), so pointers to them stay valid after further registrations.
const std::deque<SchemeEntry>& registry();
/// Adds a scheme. Throws InputError for a name that is not [a-z0-9_]{1,64} (is_name,
/// core/names.hpp), or a name that is already registered (a built-in's or another outside scheme's); returns the entry.
const SchemeEntry& register_scheme(SchemeEntry e);
template <Integrator S>
const SchemeEntry& register_scheme() {
  return register_scheme(scheme_entry<S>());
}

/// Schemes this program would have in another build: a family of names (a prefix, "dart_") and why
/// it is absent ("DART (Debian libdart-dev) was not found when this build was configured"). `list`
/// names them, and a name or glob that selects nothing but falls in such a family is refused with
/// that reason instead of a bare "unknown" (docs/engines.md, "Building").
struct AbsentSchemes {
  std::string prefix;
  std::string why;
};
void register_absent(AbsentSchemes a);
const std::vector<AbsentSchemes>& absent_schemes();

/// The scheme every cost ratio refers to (docs/metrics.md, Cost): Boost.Odeint RK4 on the
/// quaternion Kirchhoff form of the same problem.
const SchemeEntry& baseline_scheme();
/// The second baseline (ratio_to_rk4): the same RK4 on the same right-hand side, written out by
/// hand -- the arithmetic limit, where odeint's ratio also measures odeint's generic algebra.
const SchemeEntry& rk4_baseline_scheme();

/// The name prefixes of the schemes of rigidbench's own engines (engines/: mujoco_, ode_,
/// bullet_, simbody_, dart_, sundials_), reserved whether or not this program registered them (the
/// Python module does not): an outside scheme never takes an engine's name (declare_scheme).
const std::vector<std::string_view>& engine_name_prefixes();

/// InputError where what a scheme declares about its steps does not fit together: an error-estimate
/// order (SchemeInfo::error_estimate_order) or dense output declared by a scheme that is not adaptive,
/// an estimate order outside [0, order - 1], or a structure claim (symmetric, symplectic) by an adaptive
/// scheme - a property of a fixed step's one-step map, which the tolerance ladder does not measure, so
/// it would be accepted and never judged. Registration and every declaration (Python, score,
/// programs) call it.
void check_adaptive_declaration(const SchemeInfo& info);

/// Exact name; throws InputError listing the registered names.
const SchemeEntry& find_scheme(const std::string& name);
/// Whether a scheme of that exact name is registered.
bool is_registered(std::string_view name);
/// Names, shell-style globs (*, ?) or "all"; an entry matching nothing is an InputError.
std::vector<const SchemeEntry*> select_schemes(const std::vector<std::string>& patterns);
/// Copies of `schemes` with user settings applied. Each assignment is "name=value" (every selected
/// scheme that declares `name`; at least one must) or "scheme.name=value" (that scheme, which must be
/// selected and declare it). Values must be finite, within the SettingInfo range, whole numbers where
/// declared integer. Throws InputError naming the assignment otherwise.
std::vector<SchemeEntry> configure_schemes(const std::vector<const SchemeEntry*>& schemes,
                                           const std::vector<std::string>& assignments);
bool glob_match(const std::string& pattern, const std::string& text);
/// True when `name` matches one of the globs, or the list is empty or holds "all" (the
/// --integrator / --problem filters of gate and history).
bool matches_any(const std::vector<std::string>& globs, const std::string& name);

}  // namespace rigidbench
