#pragma once
// A scheme written in Python, behind the same AnyIntegrator interface as a compiled one, so that the
// runner, metrics and verdicts are the ones every scheme gets (docs/python.md).
//
// The Python contract mirrors integrators/integrator.hpp: a class whose attributes declare the
// scheme (name, order, kind, families, claims, ...), constructed as cls(problem), with
// reset(state), step(t, h) and read(). Every call takes the GIL; the runner itself runs without it.
#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <string>

#include "../integrators/declared_scheme.hpp"
#include "../integrators/registry.hpp"

namespace rigidbench::python {

namespace py = pybind11;

/// A Python object whose references are only touched with the GIL held: copies of the handle (in
/// std::function, on runner threads) share it without touching Python's reference counts.
struct PyHandle {
  py::object obj;
  explicit PyHandle(py::object o) : obj(std::move(o)) {}
  ~PyHandle() {
    py::gil_scoped_acquire gil;
    obj = py::object();
  }
};

/// The declaration read from the class attributes (name, order required); raises ValueError /
/// InputError with the attribute's name when one is missing or malformed.
SchemeDeclaration declaration_of(const py::handle& cls);

/// A SchemeEntry whose factory constructs cls(problem) per run. `overhead_ns` is the measured empty
/// step (reported with the cost), NaN when not measured.
SchemeEntry python_scheme_entry(const py::object& cls, double overhead_ns);

/// Runs `work` - which runs without the GIL and calls Python schemes from its own threads - on a
/// thread of its own while the calling thread, holding the GIL, watches it every 50 ms (docs/python.md,
/// "A call that does not return"): Ctrl-C (a signal Python has a handler for) interrupts every call
/// in flight (KeyboardInterrupt, delivered at its next bytecode), makes every later call a breakdown,
/// and is raised here once `work` has ended; a call running longer than `timeout_s` seconds (NaN or
/// <= 0: no limit) receives a TimeoutError and its run is a breakdown saying so. A call blocked in C
/// (a sleep, a lock) sees either only when it returns to Python. Rethrows what `work` threw.
void run_watched(const std::function<void()>& work, double timeout_s);

/// Reads a state from what read() returned: a rigidbench.State, (R, W) / (R, W, x, v), a dict with
/// those keys, or a list of one of those per body. Throws InputError naming what is wrong.
void state_from_python(const py::handle& o, const Problem& p, State& out);

}  // namespace rigidbench::python
