#pragma once
// What must be undone when a signal ends rigidbench (SIGINT, SIGTERM, SIGHUP): the temporaries of
// reports being written (core/atomic_file.hpp) and the programs it started, each in a process group
// of its own (verification/program_scheme.hpp). One handler runs every registered cleanup, then
// ends the process as the signal would have. It is installed only where a signal's disposition is
// the default: an embedding program's handler (the Python interpreter's, which requests a stop
// instead: core/cancel.hpp) is left alone, and so is an ignored signal (a background job's SIGINT).
namespace rigidbench {

/// Registers `cleanup` (at most 8; async-signal-safe: it may only read memory and make system calls
/// such as unlink or kill) and installs the handler on first use.
void on_fatal_signal(void (*cleanup)());

}  // namespace rigidbench
