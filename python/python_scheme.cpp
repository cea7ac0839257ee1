#include "python_scheme.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

#include "../core/cancel.hpp"
#include "../core/text_escape.hpp"
#include "../verification/scoring.hpp"

namespace rigidbench::python {
namespace {

// The watch of run_watched: every Python call of a scheme in flight, by Python thread id. Touched
// only with the GIL held (by the calls and by the watching thread), so the mutex never waits long.
using Clock = std::chrono::steady_clock;
struct InFlight {
  Clock::time_point start;
  bool timed_out = false;
};
std::mutex g_calls_mutex;
std::map<unsigned long, InFlight> g_calls;
std::atomic<bool> g_cancelled{false};
std::atomic<double> g_timeout{0.0};

/// One scheme call (constructor, reset, step and read, counters) registered with the watch; the
/// GIL must be held. Its end clears an asynchronous exception that arrived too late to be raised in
/// it, so that it never surfaces in the next call.
class WatchedCall {
 public:
  WatchedCall() : id_(PyThread_get_thread_ident()) {
    const std::lock_guard<std::mutex> l(g_calls_mutex);
    g_calls[id_] = InFlight{Clock::now(), false};
  }
  ~WatchedCall() {
    {
      const std::lock_guard<std::mutex> l(g_calls_mutex);
      g_calls.erase(id_);
    }
    PyThreadState_SetAsyncExc(id_, nullptr);
  }
  WatchedCall(const WatchedCall&) = delete;
  WatchedCall& operator=(const WatchedCall&) = delete;
  /// Why the call ended by the watch, empty if it did not.
  std::string stopped() const {
    bool timed_out = false;
    {
      const std::lock_guard<std::mutex> l(g_calls_mutex);
      timed_out = g_calls.at(id_).timed_out;
    }
    if (timed_out)
      return cat("python: the call did not return within ", format_number(g_timeout.load(), 6),
                 " s (step_timeout; docs/python.md)");
    if (g_cancelled) return "python: interrupted (KeyboardInterrupt)";
    return {};
  }

 private:
  unsigned long id_;
};

/// The Python exception of a user's call, bounded (a breakdown reason is one line of a table).
std::string python_message(const py::error_already_set& e) {
  std::string m = e.what();
  if (const auto nl = m.find('\n'); nl != std::string::npos) m.resize(nl);
  if (m.size() > 400) m = m.substr(0, 400) + "...";
  return m;
}

/// What a step() returned (docs/python.md): None or True go on; False - Python's or numpy's - or a
/// str is a breakdown; anything else (a number, an array, a tuple) is not part of the contract and is
/// a breakdown naming its type, never read as success. Returns the reason, empty to go on.
std::string step_failure(const py::object& r) {
  if (r.is_none()) return {};
  if (py::isinstance<py::str>(r)) return cat("python: ", r.cast<std::string>().substr(0, 400));
  const std::string type = py::str(py::type::of(r).attr("__name__"));
  const std::string module = py::str(py::getattr(py::type::of(r), "__module__", py::str("")));
  if (py::isinstance<py::bool_>(r) || (type == "bool_" && module == "numpy"))
    return PyObject_IsTrue(r.ptr()) == 1 ? std::string() : std::string("python: step returned False");
  return cat("python: step returned a ", module.empty() || module == "builtins" ? type : cat(module, ".", type),
             " (expected None, True, False or a str)");
}

template <class M>
M matrix_of(const py::handle& o, const char* what, int rows, int cols) {
  // Real numbers only: forcecast would drop a complex array's imaginary part and read booleans as
  // 0/1 without a word (numpy's kinds: f float, i/u integer).
  if (py::isinstance<py::array>(o)) {
    const char kind = py::reinterpret_borrow<py::array>(o).dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u')
      throw InputError(cat(what, " must be an array of real numbers (got dtype ",
                           std::string(py::str(py::reinterpret_borrow<py::array>(o).dtype())), ")"));
  }
  py::array_t<double, py::array::c_style | py::array::forcecast> a;
  try {
    a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(o);
  } catch (const py::error_already_set&) {
  }
  if (!a || (rows > 1 ? !(a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == cols)
                      : !(a.ndim() == 1 && a.shape(0) == cols)))
    throw InputError(cat(what, " must be a ", rows > 1 ? cat(std::to_string(rows), "x", std::to_string(cols)) : std::to_string(cols),
                         " array of numbers (got ", std::string(py::str(py::repr(o))).substr(0, 80), ")"));
  M m;
  const double* d = a.data();
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(rows > 1 ? i : j, rows > 1 ? j : 0) = d[i * cols + j];
  return m;
}

/// As a file's rows are (verification/scoring.hpp): an R off SO(3) from read() is the step's
/// breakdown, not a state scored as if it were one (a zero R had attitude error 0 at every level).
void require_rotation(const Mat3& R) {
  if (const std::string why = rotation_problem(R); !why.empty()) throw InputError(cat("read() returned an R that ", why.substr(2)));
}

void body_from_python(const py::handle& o, bool translating, BodyState& b) {
  if (py::isinstance<BodyState>(o)) {
    b = o.cast<BodyState>();
    require_rotation(b.R);
    return;
  }
  if (py::isinstance<State>(o)) {
    const State& s = o.cast<const State&>();
    if (s.bodies.size() != 1) throw InputError("a State of several bodies where one body was expected");
    b = s.bodies[0];
    require_rotation(b.R);
    return;
  }
  py::object R, W, x, v;
  if (py::isinstance<py::dict>(o)) {
    const py::dict d = py::reinterpret_borrow<py::dict>(o);
    if (!d.contains("R") || !d.contains("W")) throw InputError("read() returned a dict without 'R' and 'W'");
    R = d["R"], W = d["W"];
    if (translating) {
      if (!d.contains("x") || !d.contains("v")) throw InputError("read() returned a dict without 'x' and 'v' (a translating family)");
      x = d["x"], v = d["v"];
    }
  } else if (py::isinstance<py::tuple>(o) || py::isinstance<py::list>(o)) {
    const py::sequence s = py::reinterpret_borrow<py::sequence>(o);
    const std::size_t want = translating ? 4 : 2;
    if (s.size() != want)
      throw InputError(cat("read() returned a sequence of ", std::to_string(s.size()), " items; expected ",
                           translating ? "(R, W, x, v)" : "(R, W)"));
    R = s[0], W = s[1];
    if (translating) x = s[2], v = s[3];
  } else {
    throw InputError(cat("read() must return (R, W)", translating ? " / (R, W, x, v)" : "",
                         ", a dict or a rigidbench.State (got ", std::string(py::str(py::type::of(o).attr("__name__"))), ")"));
  }
  b.R = matrix_of<Mat3>(R, "R", 3, 3);
  require_rotation(b.R);
  b.W = matrix_of<Vec3>(W, "W", 1, 3);
  if (translating) {
    b.x = matrix_of<Vec3>(x, "x", 1, 3);
    b.v = matrix_of<Vec3>(v, "v", 1, 3);
  }
}

/// One Python scheme object bound to one problem (constructed per ladder level, like a C++ one).
class PythonScheme final : public AnyIntegrator {
 public:
  PythonScheme(const SchemeInfo& info, std::shared_ptr<PyHandle> cls, const Problem& p, const SchemeSettings& set)
      : info_(&info), p_(&p) {
    x_.bodies.resize(p.bodies.size());
    if (g_cancelled) {
      pending_ = "python: interrupted (KeyboardInterrupt)";
      return;
    }
    py::gil_scoped_acquire gil;
    const WatchedCall call;
    try {
      const py::object problem = py::cast(&p, py::return_value_policy::reference);
      // An adaptive class takes its tolerances as keywords (docs/python.md, "An adaptive scheme").
      obj_ = std::make_shared<PyHandle>(info.adaptive ? cls->obj(problem, py::arg("abs_tolerance") = set.get(kAbsTolerance),
                                                                 py::arg("rel_tolerance") = set.get(kRelTolerance))
                                                      : cls->obj(problem));
    } catch (const py::error_already_set& e) {
      const std::string why = call.stopped();
      pending_ = !why.empty() ? why
                              : cat("python: constructing ", std::string(info.name), "(problem) raised ", python_message(e));
    }
  }
  const SchemeInfo& info() const override { return *info_; }
  void reset(const State& x0, double) override {
    x_ = x0;
    if (!obj_) return;
    if (g_cancelled) {
      pending_ = "python: interrupted (KeyboardInterrupt)";
      return;
    }
    py::gil_scoped_acquire gil;
    const WatchedCall call;
    try {
      obj_->obj.attr("reset")(x0);
      pending_.clear();
    } catch (const py::error_already_set& e) {
      const std::string why = call.stopped();
      pending_ = !why.empty() ? why : cat("python: reset raised ", python_message(e));
    }
  }
  StepStatus step(double t, double h) override {
    if (!pending_.empty()) return StepStatus::breakdown(pending_);
    if (g_cancelled) return StepStatus::breakdown("python: interrupted (KeyboardInterrupt)");
    py::gil_scoped_acquire gil;
    const WatchedCall call;
    try {
      const py::object r = obj_->obj.attr("step")(t, h);
      if (const std::string why = step_failure(r); !why.empty()) return StepStatus::breakdown(why);
      state_from_python(obj_->obj.attr("read")(), *p_, x_);
    } catch (const py::error_already_set& e) {
      const std::string why = call.stopped();
      return StepStatus::breakdown(!why.empty() ? why : cat("python: ", python_message(e)));
    } catch (const InputError& e) {
      return StepStatus::breakdown(cat("python: ", e.what()));
    }
    return StepStatus::success();
  }
  void read(State& x) const override { x = x_; }
  /// counters() -> a dict of the Counters' names (docs/python.md, "Counters"): optional for a
  /// fixed-step class; an adaptive class must give accepted_steps, rejected_steps and
  /// rhs_evaluations, as the file route's manifest must. Each value an int >= 0 (Python's or numpy's); a key that is
  /// not a counter's name, a float, a negative, a missing required key or a counters() that raises
  /// is an InputError naming it - never read as zero (a controller rejecting 70 % of its steps
  /// passed rejected_steps so).
  Counters counters() const override {
    Counters c;
    if (!obj_ || g_cancelled) return c;
    py::gil_scoped_acquire gil;
    const WatchedCall call;
    const std::string who = cat("python: ", std::string(info_->name), ".counters()");
    if (!py::hasattr(obj_->obj, "counters")) {
      if (info_->adaptive)
        throw InputError(cat(who, " is missing: an adaptive scheme reports accepted_steps, rejected_steps and "
                                  "rhs_evaluations (docs/python.md, \"Counters\")"));
      return c;
    }
    py::object r;
    try {
      r = obj_->obj.attr("counters")();
    } catch (const py::error_already_set& e) {
      const std::string why = call.stopped();
      throw InputError(!why.empty() ? why : cat(who, " raised ", python_message(e)));
    }
    if (!py::isinstance<py::dict>(r))
      throw InputError(cat(who, " returned ", std::string(py::str(py::type::of(r).attr("__name__"))), ", not a dict"));
    static const std::pair<const char*, std::uint64_t Counters::*> kFields[] = {
        {"load_evaluations", &Counters::load_evaluations}, {"newton_iterations", &Counters::newton_iterations},
        {"jacobian_evaluations", &Counters::jacobian_evaluations}, {"accepted_steps", &Counters::accepted_steps},
        {"rejected_steps", &Counters::rejected_steps},     {"rhs_evaluations", &Counters::rhs_evaluations},
        {"shortened_steps", &Counters::shortened_steps}};
    const py::dict d = py::reinterpret_borrow<py::dict>(r);
    for (const auto& [k, v] : d) {
      const std::string key = py::isinstance<py::str>(k) ? k.cast<std::string>() : std::string(py::str(py::repr(k)));
      const auto f = std::find_if(std::begin(kFields), std::end(kFields), [&](const auto& e) { return key == e.first; });
      if (f == std::end(kFields))
        throw InputError(cat(who, ": '", key.substr(0, 60), "' is not a counter (load_evaluations, newton_iterations, "
                                  "jacobian_evaluations, accepted_steps, rejected_steps, rhs_evaluations, shortened_steps)"));
      const std::string shown = std::string(py::str(py::repr(v))).substr(0, 60);
      // An integer: a Python int or one that says it is one (__index__: numpy's integers), not a
      // bool, not a float however whole.
      // numpy's bool is an index too: a truth value is no count.
      const std::string type = py::str(py::type::of(v).attr("__name__"));
      if (!PyIndex_Check(v.ptr()) || PyBool_Check(v.ptr()) || type.rfind("bool", 0) == 0)
        throw InputError(cat(who, ": ", key, " = ", shown, " is not a whole number (an int)"));
      int overflow = 0;
      const py::int_ as_int = py::reinterpret_steal<py::int_>(PyNumber_Index(v.ptr()));
      const long long n = PyLong_AsLongLongAndOverflow(as_int.ptr(), &overflow);
      if (overflow > 0) throw InputError(cat(who, ": ", key, " = ", shown, " is beyond any count (2^63 or more)"));
      if (overflow < 0 || n < 0) throw InputError(cat(who, ": ", key, " = ", shown, " is negative"));
      c.*(f->second) = std::uint64_t(n);
    }
    if (info_->adaptive)
      for (const char* need : {"accepted_steps", "rejected_steps", "rhs_evaluations"})
        if (!d.contains(need))
          throw InputError(cat(who, " has no '", need, "': an adaptive scheme's tolerance ladder needs it (as the file "
                                    "route's manifest does)"));
    return c;
  }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }
  /// error_estimate(t, h), optional (docs/python.md, "An adaptive scheme"): the class's estimate of
  /// one uncontrolled step of h from its current state, its state unchanged - what the estimator's
  /// order is measured on (docs/adaptive.md). A finite real number >= 0 (NaN: none at that h); a
  /// raise, a bool, a negative, an infinity or anything else is an InputError naming it, never a
  /// number made up (the estimator's check then fails with it: tolerance_ladder.cpp).
  std::optional<double> error_estimate(double t, double h) override {
    if (!obj_ || !pending_.empty() || g_cancelled) return std::nullopt;
    py::gil_scoped_acquire gil;
    if (!py::hasattr(obj_->obj, "error_estimate")) return std::nullopt;
    const WatchedCall call;
    const std::string who = cat("python: ", std::string(info_->name), ".error_estimate(t, h)");
    py::object r;
    State before = x_, after = x_;  // the object's own state around the call: an estimate takes no step
    try {
      state_from_python(obj_->obj.attr("read")(), *p_, before);
      r = obj_->obj.attr("error_estimate")(t, h);
      state_from_python(obj_->obj.attr("read")(), *p_, after);
    } catch (const py::error_already_set& e) {
      const std::string why = call.stopped();
      throw InputError(!why.empty() ? cat(who, ": ", why) : cat(who, " raised ", python_message(e)));
    }
    if (!same_state(before, after))
      throw InputError(cat(who, " changed the scheme's state: an estimate is of one step not taken (docs/python.md)"));
    const std::string shown = std::string(py::str(py::repr(r))).substr(0, 60);
    const double v = PyBool_Check(r.ptr()) || !PyNumber_Check(r.ptr()) ? -1.0 : PyFloat_AsDouble(r.ptr());
    if (PyErr_Occurred() != nullptr) PyErr_Clear();
    if (!(v >= 0 && v < std::numeric_limits<double>::infinity()) && !std::isnan(v))
      throw InputError(cat(who, " returned ", shown, ", not a finite real number >= 0 (or NaN: none at this h)"));
    return v;
  }

 private:
  const SchemeInfo* info_;
  const Problem* p_;
  std::shared_ptr<PyHandle> obj_;
  std::string pending_;  // an error of the constructor or reset, reported by the next step
  State x_;
};

template <class T>
T attr_or(const py::handle& cls, const char* name, T fallback) {
  if (!py::hasattr(cls, name)) return fallback;
  try {
    return cls.attr(name).cast<T>();
  } catch (const py::cast_error&) {
    throw InputError(cat("the scheme class's '", name, "' has the wrong type"));
  }
}

}  // namespace

void run_watched(const std::function<void()>& work, double timeout_s) {
  g_cancelled = false;
  request_cancel(false);
  g_timeout = std::isfinite(timeout_s) && timeout_s > 0 ? timeout_s : 0.0;
  std::exception_ptr failed;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread worker;
  {
    py::gil_scoped_release release;
    worker = std::thread([&] {
      {
        // A thread state of its own for the whole run, so that each scheme call on this thread only
        // takes the GIL: without one, every gil_scoped_acquire created and destroyed a thread state
        // (the numpy example took 50% longer). Worker threads of the pool still make their own.
        const py::gil_scoped_acquire own_state;
        const py::gil_scoped_release run_without_gil;
        try {
          work();
        } catch (...) {
          failed = std::current_exception();
        }
      }
      const std::lock_guard<std::mutex> l(m);
      done = true;
      cv.notify_all();
    });
  }
  PyObject *type = nullptr, *value = nullptr, *trace = nullptr;  // the KeyboardInterrupt, once caught
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> l(m);
      if (cv.wait_for(l, std::chrono::milliseconds(50), [&] { return done; })) break;
    }
    if (!type && PyErr_CheckSignals() != 0) {  // Python's SIGINT handler raised KeyboardInterrupt
      PyErr_Fetch(&type, &value, &trace);
      g_cancelled = true;
      request_cancel();  // compiled schemes and engines: their runs end at the next observation
    }
    const auto now = Clock::now();
    const std::lock_guard<std::mutex> l(g_calls_mutex);
    for (auto& [id, c] : g_calls) {
      if (type)
        PyThreadState_SetAsyncExc(id, PyExc_KeyboardInterrupt);
      else if (g_timeout > 0 && !c.timed_out && std::chrono::duration<double>(now - c.start).count() > g_timeout) {
        c.timed_out = true;
        PyThreadState_SetAsyncExc(id, PyExc_TimeoutError);
      }
    }
  }
  {
    py::gil_scoped_release release;
    worker.join();
  }
  g_cancelled = false;
  request_cancel(false);
  if (type) {
    PyErr_Restore(type, value, trace);
    throw py::error_already_set();
  }
  if (failed) std::rethrow_exception(failed);
}

void state_from_python(const py::handle& o, const Problem& p, State& out) {
  const bool tr = p.translating();
  const std::size_t nb = p.bodies.size();
  out.bodies.resize(nb);
  if (py::isinstance<State>(o)) {
    const State& s = o.cast<const State&>();
    if (s.bodies.size() != nb)
      throw InputError(cat("read() returned a State of ", std::to_string(s.bodies.size()), " bodies; the problem has ", std::to_string(nb)));
    for (const BodyState& b : s.bodies) require_rotation(b.R);
    out = s;
    return;
  }
  if (nb == 1) {
    body_from_python(o, tr, out.bodies[0]);
    return;
  }
  if (!py::isinstance<py::list>(o) && !py::isinstance<py::tuple>(o))
    throw InputError(cat("read() must return a list of ", std::to_string(nb), " bodies (the problem has several)"));
  const py::sequence s = py::reinterpret_borrow<py::sequence>(o);
  if (s.size() != nb)
    throw InputError(cat("read() returned ", std::to_string(s.size()), " bodies; the problem has ", std::to_string(nb)));
  for (std::size_t b = 0; b < nb; ++b) body_from_python(s[b], tr, out.bodies[b]);
}

/// What the history keys the class's results by (SchemeInfo::identity, docs/history.md): its
/// `version` when it gives one (a str), else "source " and the SHA-256 (12 hex digits) of its source
/// as inspect finds it, so that an edited class is a new identity; none where the source cannot be
/// had (a class made at run time).
std::string identity_of(const py::handle& cls) {
  if (py::hasattr(cls, "version")) {
    const py::object v = cls.attr("version");
    if (!py::isinstance<py::str>(v) || v.cast<std::string>().empty())
      throw InputError("a Python scheme's `version` is a non-empty str (the identity the history keys its results by)");
    return line_text(v.cast<std::string>());  // one line in the history's keys (core/text_escape.hpp)
  }
  const py::module_ inspect = py::module_::import("inspect");
  try {
    // The class's text, and each of its methods' own (found by their code's line, not by name as the
    // class is: two classes of one name in one file have one class text but their own methods).
    std::string text = inspect.attr("getsource")(cls).cast<std::string>();
    for (const auto& [name, member] : py::dict(py::module_::import("builtins").attr("dict")(cls.attr("__dict__"))))
      if (inspect.attr("isfunction")(member).cast<bool>()) {
        try {
          text += inspect.attr("getsource")(member).cast<std::string>();
        } catch (const py::error_already_set&) {  // a method made at run time: the class text holds it
        }
      }
    const py::object digest = py::module_::import("hashlib").attr("sha256")(py::bytes(text)).attr("hexdigest")();
    return cat("source ", digest.cast<std::string>().substr(0, 12));
  } catch (const py::error_already_set&) {
    // No source (a class made at run time, type(...)): its results cannot be told from another
    // build's in the history - said, as a Python warning, with what to do.
    py::module_::import("warnings").attr("warn")(
        cat("rigidbench: the scheme class ", py::str(cls.attr("__name__")).cast<std::string>(),
            " has no source to identify it by (made at run time?): give it a `version` (a str) so that the "
            "history can tell its versions apart (docs/history.md, \"Outside schemes\")"));
    return {};
  }
}

SchemeDeclaration declaration_of(const py::handle& cls) {
  SchemeDeclaration d;
  if (!py::hasattr(cls, "name") || !py::hasattr(cls, "order"))
    throw InputError("a Python scheme class declares at least `name` (str) and `order` (int) as class attributes");
  d.name = attr_or<std::string>(cls, "name", "");
  d.order = attr_or<int>(cls, "order", 0);
  d.title = attr_or<std::string>(cls, "title", "");
  d.source = attr_or<std::string>(cls, "source", "");
  d.representation = attr_or<std::string>(cls, "representation", "");
  d.notes = attr_or<std::string>(cls, "notes", "");
  d.kind = scheme_kind_from_string(attr_or<std::string>(cls, "kind", "explicit"));
  d.families = attr_or<std::vector<std::string>>(cls, "families", {"rigid_body"});
  d.features = attr_or<std::vector<std::string>>(cls, "features", {});
  d.spherical_only = attr_or<bool>(cls, "spherical_only", false);
  d.torque_free_only = attr_or<bool>(cls, "torque_free_only", false);
  d.adaptive = attr_or<bool>(cls, "adaptive", false);
  d.error_estimate_order = attr_or<int>(cls, "error_estimate_order", -1);
  d.dense_output = attr_or<bool>(cls, "dense_output", false);
  for (const auto& [k, v] : attr_or<std::map<std::string, std::string>>(cls, "claims", {}))
    set_claim(d.claims, k, claim_from_string(v));
  d.identity = identity_of(cls);
  return d;
}

SchemeEntry python_scheme_entry(const py::object& cls, double overhead_ns) {
  const SchemeInfo& info = declare_scheme(declaration_of(cls));
  auto handle = std::make_shared<PyHandle>(cls);
  SchemeEntry e{&info,
                [&info, handle](const Problem& p, const SchemeSettings& set) -> std::unique_ptr<AnyIntegrator> {
                  return std::make_unique<PythonScheme>(info, handle, p, set);
                },
                {},
                false,
                SchemeOrigin::python};
  e.call_overhead_ns = overhead_ns;
  e.cost_note = "wall clock of a Python scheme, including the call overhead: every step calls step() and read() "
                "through pybind11 and converts the state (cost.call_overhead_ns: an empty scheme's step on the "
                "same path, measured in the same run)";
  return e;
}

}  // namespace rigidbench::python
