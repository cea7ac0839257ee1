// The Python module `rigidbench` (docs/python.md): the catalogue and problem files, references,
// the built-in schemes, verification of a scheme written in Python, and trajectory scoring -- the
// library's own objects and runner behind a thin pybind11 layer, so that a Python scheme gets
// exactly the verdicts a compiled one gets and the same report JSON.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "python_scheme.hpp"
#include "../core/build_info.hpp"
#include "../engines/engines.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/problem_file.hpp"
#include "../reference/reference.hpp"
#include "../reports/card_report.hpp"
#include "../reports/report.hpp"
#include "../reports/verify_report.hpp"
#include "../verification/expectations.hpp"
#include "../verification/program_scheme.hpp"
#include "../verification/scoring.hpp"
#include "../verification/suite.hpp"

namespace py = pybind11;
using namespace rigidbench;
using rigidbench::python::PyHandle;

namespace {

py::object to_python(const nlohmann::ordered_json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

/// (n, 3, 3) / (n, 3) arrays of a list of states, with a body axis after n when there are several.
py::dict states_to_arrays(const std::vector<double>& t, const std::vector<State>& states, const Problem& p) {
  const auto n = py::ssize_t(states.size()), nb = py::ssize_t(p.bodies.size());
  const bool many = nb > 1;
  auto shape = [&](std::vector<py::ssize_t> tail) {
    std::vector<py::ssize_t> s{n};
    if (many) s.push_back(nb);
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  py::array_t<double> R(shape({3, 3})), W(shape({3})), x(shape({3})), v(shape({3}));
  double *r = R.mutable_data(), *w = W.mutable_data(), *xp = x.mutable_data(), *vp = v.mutable_data();
  for (const State& s : states)
    for (const BodyState& b : s.bodies) {
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) *r++ = b.R(i, k);
      for (int i = 0; i < 3; ++i) *w++ = b.W[i], *xp++ = b.x[i], *vp++ = b.v[i];
    }
  py::dict d;
  d["t"] = py::array_t<double>(py::ssize_t(t.size()), t.data());
  d["R"] = R;
  d["W"] = W;
  if (p.translating()) d["x"] = x, d["v"] = v;
  return d;
}

/// The schemes of a `scheme` argument: a name or glob of a registered scheme, a Python class, or a
/// list of those. Python classes get their empty-step overhead measured once per call.
std::vector<SchemeEntry> schemes_of(const py::object& scheme, const std::vector<std::string>& settings, double overhead_ns) {
  std::vector<py::object> items;
  if (py::isinstance<py::list>(scheme) || py::isinstance<py::tuple>(scheme))
    for (const auto& s : scheme) items.push_back(py::reinterpret_borrow<py::object>(s));
  else
    items.push_back(scheme);
  // An empty list (a filter in the caller's code that kept nothing) would be the default selection
  // below: every scheme. It names none.
  if (items.empty()) throw InputError("scheme: an empty list names no scheme (give names, globs or classes; 'all' for the default selection)");
  std::vector<std::string> names;
  std::vector<SchemeEntry> out;
  for (const py::object& s : items) {
    if (py::isinstance<py::str>(s)) names.push_back(s.cast<std::string>());
    else if (py::isinstance<py::type>(s)) out.push_back(python::python_scheme_entry(s, overhead_ns));
    else
      throw InputError("scheme must be a registered scheme's name (or glob), a Python scheme class, or a list of those");
  }
  if (!names.empty())
    for (SchemeEntry& e : configure_schemes(select_schemes(names), settings)) out.push_back(std::move(e));
  else if (!settings.empty())
    throw InputError("settings apply to registered (compiled) schemes only; a Python class reads its own");
  return out;
}

std::vector<Problem> problems_of(const py::object& problems) {
  std::vector<Problem> out;
  if (problems.is_none()) {
    for (const std::string& n : quick_problem_names()) out.push_back(catalogue_problem(n));
    return out;
  }
  std::vector<py::object> items;
  if (py::isinstance<py::list>(problems) || py::isinstance<py::tuple>(problems))
    for (const auto& s : problems) items.push_back(py::reinterpret_borrow<py::object>(s));
  else
    items.push_back(problems);
  if (items.empty()) throw InputError("problems: an empty list names no problem (None for the quick suite)");
  for (const py::object& o : items) {
    if (py::isinstance<py::str>(o)) out.push_back(catalogue_problem(o.cast<std::string>()));
    else if (py::isinstance<Problem>(o)) out.push_back(o.cast<Problem>());
    else throw InputError("problems must be catalogue names or rigidbench.Problem objects (or a list of those)");
  }
  return out;
}

/// Report path rules of `verify --out`: a .json file, or a folder that gets report.json.

/// Every failed check of the run, one dict each (integrator, problem, check, evidence, and whether
/// the expected findings list it): what rigidbench.verify returns as `failed` and prints
/// (PairResult::checks, the gate's names).
py::list failed_checks(const SuiteResult& s, const Expectations* expect) {
  py::list out;
  for (const PairResult& r : s.results)
    for (const PairResult::Check& c : r.checks())
      if (c.failed)
        out.append(py::dict(py::arg("integrator") = r.integrator, py::arg("problem") = r.problem,
                            py::arg("check") = c.name, py::arg("evidence") = c.evidence,
                            py::arg("expected") = expect != nullptr && expect->find(r.integrator, r.problem, c.name) != nullptr));
  return out;
}

/// The report as `rigidbench verify` writes it (with --expect: its expectations and the summary's
/// counts), the failed checks, and whether the run passes (its verdicts, or with expected findings
/// every failure expected and every expectation held: the command's exit status).
py::tuple finish(const SuiteResult& s, const std::string& out, const std::vector<std::string>& command,
                 const std::string& started, const std::optional<Expectations>& expect) {
  VerifyReport report = VerifyReport::of(s, command, started);
  bool ok = !s.any_failed();
  if (expect) {
    const ExpectationReport e = apply_expectations(s, *expect);
    report.add(e, expect->origin);
    ok = e.ok();
  }
  const auto rep = report.to_json();
  if (!out.empty()) write_report_file(report_file_for(out), rep.dump(1) + "\n");
  return py::make_tuple(to_python(rep), failed_checks(s, expect ? &*expect : nullptr), ok);
}

/// The reference options as keyword arguments: the command line's group (ReferenceOptions).
ReferenceSettings ref_settings(const std::string& formulation, const std::string& precision, std::optional<double> tol,
                               const std::string& cache_dir, bool cache) {
  return ReferenceOptions{formulation, precision, tol, cache_dir, !cache}.settings();
}

}  // namespace

/// Seconds a Python scheme's call may take before it is stopped as a breakdown (docs/python.md, "A
/// call that does not return"): far above any real step, so only a call that hangs meets it.
constexpr double kDefaultStepTimeout = 300.0;

/// The step_timeout argument: None is no limit; otherwise positive and finite.
double timeout_of(std::optional<double> t) {
  if (!t) return 0.0;
  if (!std::isfinite(*t) || *t <= 0)
    throw InputError(cat("step_timeout must be a positive number of seconds or None (got ", format_number(*t), ")"));
  return *t;
}

namespace {

/// The canonical state: one body's and every body's (docs/python.md).
void bind_states(py::module_& m) {
  py::class_<BodyState>(m, "BodyState", "One body's canonical state: R (body -> space), W (body angular velocity), x, v")
      .def(py::init<>())
      .def_readwrite("R", &BodyState::R)
      .def_readwrite("W", &BodyState::W)
      .def_readwrite("x", &BodyState::x)
      .def_readwrite("v", &BodyState::v)
      .def("__repr__", [](const BodyState& b) {
        return cat("BodyState(R=", std::string(py::str(py::cast(b.R))), ", W=", std::string(py::str(py::cast(b.W))), ")");
      });

  py::class_<State>(m, "State", "The canonical state of every body (docs/problems.md)")
      .def(py::init<std::size_t>(), py::arg("bodies") = 1)
      .def_readwrite("bodies", &State::bodies)
      // Body 0's fields, for the one-body problems most schemes integrate.
      .def_property("R", [](const State& s) { return s.body().R; }, [](State& s, const Mat3& R) { s.body().R = R; })
      .def_property("W", [](const State& s) { return s.body().W; }, [](State& s, const Vec3& W) { s.body().W = W; })
      .def_property("x", [](const State& s) { return s.body().x; }, [](State& s, const Vec3& x) { s.body().x = x; })
      .def_property("v", [](const State& s) { return s.body().v; }, [](State& s, const Vec3& v) { s.body().v = v; })
      .def("__repr__", [](const State& s) { return cat("State(", std::to_string(s.bodies.size()), " bodies)"); });
}

/// A problem: its data, its invariants and its reference (docs/python.md).
void bind_problem(py::module_& m) {
  py::class_<Problem>(m, "Problem", "A problem of the catalogue or of a problem file (docs/problems.md)")
      .def_readonly("name", &Problem::name)
      .def_readonly("title", &Problem::title)
      .def_readonly("t0", &Problem::t0)
      .def_readonly("t_end", &Problem::t_end)
      .def_property_readonly("family", [](const Problem& p) { return std::string(p.family->equations()); })
      .def_property_readonly("bodies", [](const Problem& p) { return p.bodies.size(); })
      .def_property_readonly("translating", &Problem::translating)
      .def_property_readonly("torque_free", &Problem::torque_free)
      .def_property_readonly("has_potential", &Problem::has_potential)
      .def_property_readonly("initial", [](const Problem& p) { return p.initial; })
      .def("inertia", [](const Problem& p, std::size_t b) { return p.inertia(b); }, py::arg("body") = 0)
      .def("inertia_inverse", [](const Problem& p, std::size_t b) { return p.inertia_inverse(b); }, py::arg("body") = 0)
      .def("mass", [](const Problem& p, std::size_t b) { return p.bodies.at(b).mass; }, py::arg("body") = 0)
      .def("body_moment", &Problem::body_moment, py::arg("t"), py::arg("R"),
           "External moment in body components at time t, attitude R (rigid_body family)")
      .def("spatial_moment", &Problem::spatial_moment, py::arg("t"), py::arg("R"))
      .def("potential", &Problem::potential, py::arg("R"))
      .def("energy", [](const Problem& p, const State& s) { return p.energy(s); })
      .def("invariants",
           [](const Problem& p, const State& s) {
             std::vector<double> v(p.invariants().size());
             p.evaluate_invariants(s, v.data());
             py::dict d;
             for (std::size_t i = 0; i < v.size(); ++i) d[py::str(p.invariants()[i].name)] = v[i];
             return d;
           },
           "The problem's invariants of a state, evaluated by the problem (never by a scheme)")
      .def("to_json", [](const Problem& p) { return to_python(problem_to_json(p)); }, "The problem file (a dict)")
      .def(
          "reference",
          [](const Problem& p, std::vector<double> times, const std::string& formulation, const std::string& precision,
             std::optional<double> tol, const std::string& cache_dir, bool cache) {
            const ReferenceSettings rs = ref_settings(formulation, precision, tol, cache_dir, cache);
            ReferenceSolution r;
            {
              py::gil_scoped_release release;
              r = compute_reference(p, times, rs);
            }
            py::dict d = states_to_arrays(r.times, r.states, p);
            d["kind"] = r.kind;
            d["formulation"] = r.formulation;
            d["tolerance"] = r.tolerance;
            d["error_estimate"] = r.error_estimate.max();
            d["estimate_attitude"] = py::array_t<double>(py::ssize_t(r.estimate_attitude.size()), r.estimate_attitude.data());
            d["estimate_omega"] = py::array_t<double>(py::ssize_t(r.estimate_omega.size()), r.estimate_omega.data());
            return d;
          },
          py::arg("times"), py::arg("formulation") = "", py::arg("precision") = "double", py::arg("tol") = py::none(),
          py::arg("cache_dir") = "", py::arg("cache") = true,
          "The high-accuracy reference at `times` (increasing, from t0): dict of numpy arrays and its error estimate")
      .def("__repr__", [](const Problem& p) { return cat("<rigidbench.Problem ", p.name, ">"); });
}

/// The catalogue and the registered schemes.
void bind_catalogue(py::module_& m) {
  m.def("problem", &catalogue_problem, py::arg("name"), "A catalogue problem by name");
  m.def("load_problem", &load_problem_file, py::arg("path"), "A problem file (docs/problem-files.md)");
  m.def("problem_names", &catalogue_names, "Names of the catalogue problems");
  m.def("quick_problem_names", &quick_problem_names, "The quick suite's problems");
  m.def(
      "schemes",
      [] {
        py::list l;
        for (const SchemeEntry& e : registry()) {
          const SchemeInfo& i = *e.info;
          py::dict d;
          d["name"] = std::string(i.name);
          d["title"] = std::string(i.title);
          d["order"] = i.order;
          d["kind"] = to_string(i.kind);
          py::list fam;
          for (std::string_view f : i.applies.families) fam.append(std::string(f));
          d["families"] = fam;
          py::dict claims;
          for (InvariantKind k : {InvariantKind::energy, InvariantKind::momentum, InvariantKind::casimir, InvariantKind::axial,
                                  InvariantKind::constraint, InvariantKind::nonholonomic})
            claims[to_string(k)] = to_string(i.claims.of(k));
          claims["symmetric"] = i.claims.symmetric ? "exact" : "none";  // structure of the map
          claims["symplectic"] = i.claims.symplectic ? "exact" : "none";
          d["claims"] = claims;
          d["origin"] = to_string(e.origin);
          // What `rigidbench list --json` says of it besides: where it comes from, whether `all`
          // selects it (an engine's on-request variants do not), its settings and its version.
          d["source"] = std::string(i.source);
          d["representation"] = std::string(i.representation);
          d["adaptive"] = i.adaptive;
          d["in_all"] = e.in_all;
          py::list settings;
          for (const SettingInfo& si : i.settings) {
            py::dict sd;
            sd["name"] = std::string(si.name);
            sd["description"] = std::string(si.description);
            sd["default"] = si.default_value;
            sd["min"] = si.min;
            sd["max"] = si.max;
            sd["integer"] = si.integer;
            settings.append(sd);
          }
          d["settings"] = settings;
          if (!i.version.empty()) d["version"] = std::string(i.version);
          l.append(d);
        }
        return l;
      },
      "The registered (compiled) schemes with their declarations");
}

/// Runs: the ladder a program must write, one simulation, the verify suite, timed steps.
void bind_runs(py::module_& m) {
  m.def(
      "ladder",
      [](const Problem& p, int order, std::optional<double> h, std::optional<int> levels, bool adaptive,
         std::optional<double> tol0, std::optional<int> tol_levels) {
        LadderRequest lr{h, levels, false};
        if (const auto T = adaptive_tolerance_ladder(adaptive, tol0, tol_levels)) return to_python(tolerance_ladder_description(p, *T, lr));
        return to_python(ladder_description(p, make_ladder(p, order, lr), order));
      },
      py::arg("problem"), py::arg("order"), py::arg("h") = py::none(), py::arg("levels") = py::none(),
      py::arg("adaptive") = false, py::arg("tol0") = py::none(), py::arg("tol_levels") = py::none(),
      "What `score` needs: steps, span, output grid, columns, initial state (as `rigidbench ladder --json`); "
      "adaptive=True: the tolerances, the output times and the manifest (as `ladder --adaptive --json`)");
  m.def(
      "simulate",
      [](const py::object& scheme, const Problem& p, double h, std::optional<double> t_end, std::int64_t every,
         const std::vector<std::string>& settings, std::optional<double> step_timeout) {
        std::vector<SchemeEntry> e = schemes_of(scheme, settings, NAN);
        if (e.size() != 1) throw InputError("simulate runs one scheme");
        if (std::string why = not_applicable(*e[0].info, p); !why.empty())
          throw InputError(cat("scheme '", std::string(e[0].info->name), "' does not apply to '", p.name, "': ", why));
        Trajectory tr;
        python::run_watched(
            [&] {
              auto integ = e[0].make(p);
              tr = simulate(*integ, p, h, t_end.value_or(p.t_end), every);
            },
            timeout_of(step_timeout));
        py::dict d = states_to_arrays(tr.t, tr.states, p);
        d["ok"] = tr.ok;
        d["reason"] = tr.reason;
        return d;
      },
      py::arg("scheme"), py::arg("problem"), py::arg("h"), py::arg("t_end") = py::none(), py::arg("every") = 1,
      py::arg("settings") = std::vector<std::string>{}, py::arg("step_timeout") = kDefaultStepTimeout,
      "One run (a registered scheme's name or a Python scheme class): dict of numpy arrays t, R, W (x, v), ok, reason");
  m.def(
      "_verify",
      [](const py::object& scheme, const py::object& problems, std::optional<double> h, std::optional<int> levels,
         std::optional<double> t_end, const std::string& out, int jobs, const std::string& formulation,
         const std::string& precision, std::optional<double> tol, const std::string& cache_dir, bool cache,
         bool measure_cost, bool progress, const std::vector<std::string>& settings, double overhead_ns,
         const std::vector<std::string>& command, std::optional<double> step_timeout, std::optional<double> tol0,
         std::optional<int> tol_levels, const std::string& expect_path, bool fixed_ladder) {
        const std::string started = iso8601_now();
        // Read (and refused) before any work, as the command line's --expect.
        const std::optional<Expectations> expect =
            expect_path.empty() ? std::nullopt : std::optional(load_expectations(expect_path));
        SuiteRequest req;
        req.schemes = schemes_of(scheme, settings, overhead_ns);
        req.problem_models = problems_of(problems);
        req.ladder = {h, levels, fixed_ladder};
        req.t_end = t_end;
        req.jobs = jobs;
        req.reference = ref_settings(formulation, precision, tol, cache_dir, cache);
        req.measure_cost = measure_cost;
        req.progress = progress;
        req.tolerance_ladder = user_tolerance_ladder(tol0, tol_levels);
        req.tolerance_ladder_given = tol0 || tol_levels;
        if (!out.empty()) report_file_for(out);  // a bad --out fails before any work
        SuiteResult s;
        python::run_watched([&] { s = run_suite(req); }, timeout_of(step_timeout));
        require_verified(s, "");
        return finish(s, out, command, started, expect);
      });
  m.def(
      "_time_steps",
      [](const py::object& cls, const Problem& p, double h, int steps, int repetitions) {
        const SchemeEntry e = python::python_scheme_entry(cls, NAN);
        double ns = NAN;
        python::run_watched([&] { ns = measure_cost(p, e, h, steps, repetitions).ns_per_step; }, kDefaultStepTimeout);
        return ns;
      },
      "ns per step of a Python scheme class through the runner's own call path (min over repetitions)");
}

/// The conformance card of one scheme (as `rigidbench card`; docs/card.md).
void bind_card(py::module_& m) {
  m.def(
      "card",
      [](const py::object& scheme, const std::vector<std::string>& settings, bool measure_cost,
         std::optional<double> step_timeout, std::optional<std::vector<double>> h_omega, double sweep_span,
         int flip_intervals, double safe_min_h_omega, bool verification) {
        std::vector<SchemeEntry> e = schemes_of(scheme, settings, NAN);
        if (e.size() != 1) throw InputError("card takes one scheme (a Python class or a registered name)");
        CardRequest req;
        req.measure_cost = measure_cost;
        if (h_omega) req.h_omega = *h_omega;
        req.sweep_span = sweep_span;
        req.flip_intervals = flip_intervals;
        req.safe_min_h_omega = safe_min_h_omega;
        req.verification = verification;
        check_card_request(req);
        ConformanceCard c;
        python::run_watched([&] { c = make_card(e[0], req); }, timeout_of(step_timeout));
        return to_python(CardReport::of({std::move(c)}, {"python", "rigidbench.card"}, iso8601_now()).to_json());
      },
      py::arg("scheme"), py::arg("settings") = std::vector<std::string>{}, py::arg("measure_cost") = true,
      py::arg("step_timeout") = kDefaultStepTimeout, py::arg("h_omega") = py::none(), py::arg("sweep_span") = 100.0,
      py::arg("flip_intervals") = 4, py::arg("safe_min_h_omega") = 1e-4, py::arg("verification") = true,
      "The conformance card of one scheme (a Python class or a registered name), as `rigidbench card` writes it: "
      "a dict with `cards`, one card (docs/card.md). Across processes is not measured for a Python class.");
}

/// Scoring trajectories written by any program (as `rigidbench score`).
void bind_score(py::module_& m) {
  m.def(
      "score",
      [](const Problem& p, const std::string& trajectories, const std::string& name, int order,
         const std::map<std::string, std::string>& claims, const std::string& kind, std::optional<double> h,
         std::optional<int> levels, const std::string& out, std::optional<bool> progress, const std::string& attitude,
         const std::string& angular_velocity, const std::string& grid, const std::string& title, const std::string& source,
         const std::string& formulation, const std::string& precision, std::optional<double> tol, const std::string& cache_dir,
         bool cache, bool adaptive, std::optional<double> tol0, std::optional<int> tol_levels, int error_estimate_order,
         bool dense_output) {
        const std::string started = iso8601_now();
        ScoreRequest req;
        req.tolerance = adaptive_tolerance_ladder(adaptive, tol0, tol_levels);
        req.scheme.error_estimate_order = error_estimate_order;
        req.scheme.dense_output = dense_output;
        req.scheme.title = title;
        req.scheme.source = source;
        if (!attitude.empty()) req.attitude = attitude_form_from_string(attitude);
        if (!angular_velocity.empty()) req.omega = omega_frame_from_string(angular_velocity);
        if (!grid.empty()) req.grid = row_grid_from_string(grid);
        req.problem = p;
        req.trajectories = trajectories;
        req.scheme.name = name;
        req.scheme.order = order;
        req.scheme.kind = scheme_kind_from_string(kind);
        for (const auto& [k, v] : claims) set_claim(req.scheme.claims, k, claim_from_string(v));
        req.ladder = {h, levels, false};
        req.reference = ref_settings(formulation, precision, tol, cache_dir, cache);
        req.progress = progress.value_or(::isatty(STDERR_FILENO) == 1);  // None: on at a terminal
        if (!out.empty()) report_file_for(out);
        SuiteResult s;
        {
          py::gil_scoped_release release;
          s = score_trajectories(req);
        }
        return py::object(finish(s, out, {"python", "rigidbench.score"}, started, std::nullopt)[0]);  // the report
      },
      py::arg("problem"), py::arg("trajectories"), py::arg("name"), py::arg("order"),
      py::arg("claims") = std::map<std::string, std::string>{}, py::arg("kind") = "explicit", py::arg("h") = py::none(),
      py::arg("levels") = py::none(), py::arg("out") = "", py::arg("progress") = py::none(), py::arg("attitude") = "",
      py::arg("angular_velocity") = "", py::arg("grid") = "", py::arg("title") = "", py::arg("source") = "",
      py::arg("reference") = "", py::arg("reference_precision") = "double", py::arg("reference_tol") = py::none(),
      py::arg("cache_dir") = "", py::arg("cache") = true, py::arg("adaptive") = false, py::arg("tol0") = py::none(),
      py::arg("tol_levels") = py::none(), py::arg("error_estimate_order") = -1, py::arg("dense_output") = false,
      "Score trajectories written by any program (as `rigidbench score`, the same files and manifest; adaptive=True, "
      "tol0, tol_levels, error_estimate_order, dense_output as its --adaptive, --tol0, --tol-levels, "
      "--error-estimate-order, --dense-output: a file per tolerance; attitude, "
      "angular_velocity, grid and the reference options as its --attitude, --angular-velocity, --grid, --reference, "
      "--reference-precision, --reference-tol, --cache-dir and --no-cache); returns the report dict");
}

}  // namespace

PYBIND11_MODULE(_rigidbench, m) {
  m.doc() = "rigidbench: verification and benchmark harness for rigid-body time integrators (docs/python.md)";
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  // The library's version (CMake's project(VERSION)): the same string as `rigidbench --version` and the
  // "tool" block of every report.
  m.attr("__version__") = build_info().version;
  // The engines' variants, as the command has them (docs/engines.md): `all`, the expected-findings
  // files and the baselines name them alike in both.
  engines::register_engines();
  // Schemes that are programs (docs/programs.md): the files of $RIGIDBENCH_PROGRAMS, as the command
  // has them, and any other file by register_programs(path).
  // A stale entry there is said as a warning, not an import that fails: the module stays usable.
  try {
    register_programs_from_environment();
  } catch (const InputError& e) {
    PyErr_WarnEx(PyExc_RuntimeWarning, cat("rigidbench: $RIGIDBENCH_PROGRAMS: ", e.what()).c_str(), 1);
  }
  m.def(
      "register_programs", [](const std::string& file) { return register_programs(file); }, py::arg("file"),
      "Registers the schemes a program declaration file declares (docs/programs.md); returns their names");

  bind_states(m);
  bind_problem(m);
  bind_catalogue(m);
  bind_runs(m);
  bind_card(m);
  bind_score(m);
}
