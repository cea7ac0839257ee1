#pragma once
// A scheme that is a program (docs/programs.md): any executable - a Python script, a Node.js script
// driving an engine's WebAssembly build, a Julia or Fortran program - that rigidbench starts once and
// then speaks to over its standard input and output, one JSON line per run each way. The program is
// sent the problem (its problem file), the state to start from, the steps of the run (the driver's
// FixedSteps: t_n = t0 + n h) and which states to send back; it answers with those states in the
// trajectory files' format (docs/trajectory-files.md: the same columns, conventions and checks),
// the steps it took, its own counters, its own time per step and, where a step failed, a breakdown.
//
// The scheme is then a scheme like any other: it enters the registry (SchemeOrigin::program), and
// every run the harness makes of it - the levels of the step and tolerance ladders, the long-time
// runs, the probes of a card, the cost runs of verify and bench - goes through the driver's one
// hook for schemes that run elsewhere (integrators/integrate.hpp, RunsElsewhere). A program that
// cannot be started, hangs past its time bound, dies, writes what is not an answer, answers other
// states than were asked or counts steps it did not take is that run's breakdown, with the reason
// and the last line it wrote to its standard error; the harness goes on with the next pair.
//
// Programs are declared in small JSON files (name, command line, variants, settings, claims,
// version, conventions), so a user adds one without building rigidbench: `rigidbench --program
// FILE <command>`, or $RIGIDBENCH_PROGRAMS.
#include <iosfwd>
#include <string>
#include <vector>

#include "../integrators/declared_scheme.hpp"
#include "../integrators/registry.hpp"
#include "scoring.hpp"

namespace rigidbench {

/// One scheme a declaration file names (a program's variant).
struct ProgramDeclaration {
  SchemeDeclaration scheme;
  /// argv: argv[0] is looked up on PATH, or taken relative to `dir` where it holds a '/'.
  std::vector<std::string> command;
  std::string dir;                  // the working directory: the declaration file's folder
  FileConventions conventions;      // of the states the program sends back
  double timeout_seconds = 600;     // the longest one run may take before the program is stopped
  double memory_mb = 0;             // the program's data (RLIMIT_DATA), 0: unbounded; past it, its allocations fail
  bool error_estimate = false;      // answers "error_estimate" requests (an adaptive scheme's estimator check)
  /// Builds one physical body (an engine): refuses problems that are none (skipped, as a native
  /// engine's variants do) and is sent the body every native engine is built from (PhysicalBody).
  bool physical_body = false;
  /// false: selected by its name or a glob only, never by "all" (SchemeEntry::in_all): a scheme too
  /// slow for the default suites and the gate.
  bool in_all = true;
  std::string file;                 // the declaration file, for messages
};

/// What the engines' library lends programs that build physical bodies (engines/engine_body.hpp): why
/// a problem is no such body or chain of them, and what every request then carries: {"body": ...}
/// (mass, centre of mass, central inertia, gravity, pivot) for a rigid_body problem, {"chain": ...}
/// (its links, pivot and gravity) for a spherical_chain (docs/programs.md). Set by
/// engines::register_engines(); a declaration with "physical_body" is refused without it.
struct PhysicalBody {
  std::string (*refusal)(const Problem&) = nullptr;
  nlohmann::json (*body)(const Problem&) = nullptr;
};
void set_physical_body(PhysicalBody b);

/// The declarations of a file (docs/programs.md, "The declaration file"): one per variant. Throws
/// InputError naming the file and the key for anything malformed, unknown keys included.
std::vector<ProgramDeclaration> read_program_declarations(const std::string& file);
/// The entry of a declared program: declares it (declare_scheme: its name must be its own) and
/// makes integrators that speak to it. The program is started by the first run of each integrator.
SchemeEntry program_scheme_entry(ProgramDeclaration d);
/// Registers every scheme of the file and returns their names. `engines`: the file is rigidbench's own
/// npm engines' (engines/npm/programs.json), whose names take the engines' reserved prefixes.
std::vector<std::string> register_programs(const std::string& file, bool engines = false);
/// Registers the declaration files listed in $RIGIDBENCH_PROGRAMS (separated by ':'), once per process;
/// `rigidbench --program FILE` appends its files there, so that the processes it starts (a card's
/// second process) have them too.
void register_programs_from_environment();
void add_programs_to_environment(const std::vector<std::string>& files);

/// The protocol's program side around a registered scheme: reads requests from `in`, runs each through
/// the driver, and answers on `out` until `in` ends (the hidden `rigidbench program-serve`). A built-in
/// scheme served this way and declared as a program gives the verdicts of the built-in bit for bit
/// (tests/test_program_scheme.cpp): the protocol's test of itself, and its reference implementation.
int serve_program(const SchemeEntry& e, std::istream& in, std::ostream& out);

}  // namespace rigidbench
