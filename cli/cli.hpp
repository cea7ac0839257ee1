#pragma once
// The rigidbench command line (list, problem export, simulate, reference, verify, bench, compare,
// gate, report) as a library call: the `rigidbench` program is run_cli, and a program that
// registers its own schemes or problems first (rigidbench::main, rigidbench.hpp) gets the same
// commands with them beside the built-ins.
//
// Exit codes: 0 ok; 1 a verdict failed (or a numerical breakdown; for `gate`, a regression); 2 bad
// input (the message names the offending value; no output file is written); 3 internal error (a
// bug: please report it); 4 (`gate`) the baseline is stale; 5 the system refused a write (no space,
// read-only, permission: the message has the system's reason; a long run's report is saved under
// <cache dir>/unsaved/ instead).
namespace rigidbench {

int run_cli(int argc, char** argv);

}  // namespace rigidbench
