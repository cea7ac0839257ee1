#pragma once
// A process-wide request to stop the runs in flight: the Python module's Ctrl-C (docs/python.md,
// python/python_scheme.cpp run_watched). The integration driver asks at every observation
// (integrators/integrate.hpp, integrate) and ends a run there as a breakdown with kCancelledReason,
// so that a compiled scheme's or an engine's level stops within one observation interval instead of
// running to its end. The work that does not observe (a reference's segment, the benchmarks' timing
// loops) is not interrupted. The command line never requests it (SIGINT ends the process).
namespace rigidbench {

inline constexpr const char* kCancelledReason = "interrupted: a stop was requested (Ctrl-C)";
/// Sets (or clears) the request; visible to every thread.
void request_cancel(bool on = true);
/// Whether a stop is requested (a relaxed atomic load: one per observation).
bool cancel_requested();

}  // namespace rigidbench
