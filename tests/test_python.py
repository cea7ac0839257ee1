"""The Python module's API (docs/python.md): catalogue and problem files, references, built-in
schemes, verification of Python classes with their errors as breakdowns, and the same report JSON
as the command line."""
import contextlib
import io
import json
import math
import os
import subprocess
import tempfile
import unittest

import numpy as np
import rigidbench

# The slowest tests (seconds of Python steps each) are the ci label's: python.api.ci runs them with
# RIGIDBENCH_PY_CI set, python.api (the fast label) skips them (tests/CMakeLists.txt: the fast label's
# budget of 60 s of CPU).
ci_only = unittest.skipUnless(os.environ.get("RIGIDBENCH_PY_CI"), "the ci label's (python.api.ci)")


class Broken:
    """Raises in step after a few steps: a breakdown with the Python message, not a crash."""
    name = "py_broken"
    order = 1
    families = ["rigid_body"]

    def __init__(self, problem):
        self.n = 0

    def reset(self, state):
        self.R, self.W = np.array(state.R), np.array(state.W)

    def step(self, t, h):
        self.n += 1
        if self.n == 3:
            raise ZeroDivisionError("my scheme divided by zero")

    def read(self):
        return self.R, self.W


class BadShape(Broken):
    name = "py_bad_shape"

    def step(self, t, h):
        pass

    def read(self):
        return self.R, self.W[:2]


class Hangs(Broken):
    """A step that never returns on its third call: a loop that only the watch can end."""
    name = "py_hangs"

    def step(self, t, h):
        self.n += 1
        while self.n >= 3:
            pass


class LieHeunEuler:
    """An adaptive scheme in Python (docs/python.md, "An adaptive scheme"): Lie-Heun with the Lie-Euler
    step as its embedded estimate (orders 2(1)), exact landing on each output time, on the torque-free
    body. `ignore_tolerance` makes it a deliberately broken controller (a fixed tolerance)."""
    name = "py_lie_heun_euler"
    order = 2
    adaptive = True
    families = ["rigid_body"]
    torque_free_only = True
    ignore_tolerance = False

    def __init__(self, problem, abs_tolerance, rel_tolerance):
        self.J, self.Jinv = problem.inertia(), problem.inertia_inverse()
        self.tol = 1e-4 if self.ignore_tolerance else abs_tolerance
        self.n = {"accepted_steps": 0, "rejected_steps": 0, "rhs_evaluations": 0, "shortened_steps": 0}

    def reset(self, state):
        self.R, self.W, self.dt = np.array(state.R), np.array(state.W), 0.0

    def accel(self, W):
        self.n["rhs_evaluations"] += 1
        return self.Jinv @ np.cross(self.J @ W, W)

    @staticmethod
    def exp(u):
        th = np.linalg.norm(u)
        K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
        return np.eye(3) + (math.sin(th) / th if th else 1.0) * K + ((1 - math.cos(th)) / th**2 if th else 0.5) * K @ K

    def step(self, t, h):
        end = t + h
        self.dt = self.dt or h / 10
        while t < end:
            dt = min(self.dt, end - t)
            a1 = self.accel(self.W)
            W2 = self.W + dt * a1
            a2 = self.accel(W2)
            err = self.estimate(dt, W2, a1, a2) / self.tol
            factor = min(5.0, max(0.2, 0.9 * err ** -self.exponent)) if err > 0 else 5.0
            if err > 1:
                self.n["rejected_steps"] += 1
                self.dt = dt * factor
                continue
            self.R = self.R @ self.exp(dt / 2 * (self.W + W2))
            self.W = self.W + dt / 2 * (a1 + a2)
            self.n["accepted_steps"] += 1
            self.n["shortened_steps"] += dt < self.dt
            t = end if dt == end - t else t + dt
            self.dt = max(self.dt, dt * factor) if dt < self.dt else dt * factor

    # The embedded estimate: the difference to the Lie-Euler step, of order 1 (~ h^2), and the
    # controller's exponent 1/(q + 1).
    exponent = 0.5

    def estimate(self, dt, W2, a1, a2):
        return max(np.max(np.abs(dt / 2 * (W2 - self.W))), np.max(np.abs(dt / 2 * (a2 - a1))))

    def read(self):
        return self.R, self.W

    def counters(self):
        return dict(self.n)


class LieHeunDense(LieHeunEuler):
    """The same pair with dense output: it steps past each output time and interpolates there
    (R_n exp(s u_n) and W linear in s, the fraction of the last step), as odeint's dopri5 and SciPy's
    solvers do, and says so (dense_output = True). `fixed_tol` makes it a deliberately broken
    controller: that tolerance, whatever it is given."""
    name = "py_lie_heun_dense"
    dense_output = True
    fixed_tol = None

    def __init__(self, problem, abs_tolerance, rel_tolerance):
        super().__init__(problem, abs_tolerance, rel_tolerance)
        self.tol = self.fixed_tol or self.tol

    def reset(self, state):
        super().reset(state)
        self.t = None
        self.out = (self.R, self.W)

    def step(self, t, h):
        end = t + h
        if self.t is None:
            self.t, self.dt = t, h / 10
        while self.t < end:
            dt = self.dt
            a1 = self.accel(self.W)
            W2 = self.W + dt * a1
            a2 = self.accel(W2)
            err = self.estimate(dt, W2, a1, a2) / self.tol
            factor = min(5.0, max(0.2, 0.9 * err ** -self.exponent)) if err > 0 else 5.0
            self.dt = dt * factor
            if err > 1:
                self.n["rejected_steps"] += 1
                continue
            self.Rp, self.Wp, self.tp, self.u = self.R, self.W, self.t, dt / 2 * (self.W + W2)
            self.R = self.R @ self.exp(self.u)
            self.W = self.W + dt / 2 * (a1 + a2)
            self.t += dt
            self.n["accepted_steps"] += 1
        s = (end - self.tp) / (self.t - self.tp)
        self.out = (self.Rp @ self.exp(s * self.u), self.Wp + s * (self.W - self.Wp))

    def read(self):
        return self.out


class LieHeunCrude(LieHeunEuler):
    """The same Lie-Heun (order 2) with an error estimate of order 0, h |W'| (~ h, not an order-1
    pair's difference): held at tol, it makes h ~ tol and the error ~ h^2 ~ tol^2, a slope of
    p / (q + 1) = 2 that it declares (error_estimate_order = 0), as SciPy's Radau (order 5) declares
    the order 3 of its estimate (a slope of 5/4)."""
    name = "py_lie_heun_crude"
    error_estimate_order = 0
    exponent = 1.0

    def estimate(self, dt, W2, a1, a2):
        return dt * np.max(np.abs(a1))


class LieEuler:
    """Lie-Euler (R_{n+1} = R_n exp(h W_n), W_{n+1} = W_n + h a(W_n)) on the torque-free body."""
    name = "py_lie_euler"
    order = 1
    families = ["rigid_body"]
    torque_free_only = True
    claims = {"constraint": "exact"}

    def __init__(self, problem):
        self.J, self.Jinv = problem.inertia(), problem.inertia_inverse()

    def reset(self, state):
        self.R, self.W = np.array(state.R), np.array(state.W)

    def step(self, t, h):
        u = h * self.W
        th = np.linalg.norm(u)
        K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
        E = np.eye(3) + (math.sin(th) / th if th else 1.0) * K + ((1 - math.cos(th)) / th**2 if th else 0.5) * K @ K
        self.W = self.W + h * self.Jinv @ np.cross(self.J @ self.W, self.W)
        self.R = self.R @ E

    def read(self):
        return {"R": self.R, "W": self.W}


class ModuleTest(unittest.TestCase):
    def test_card_of_a_python_scheme(self):
        # docs/card.md: a Python class gets the card a compiled scheme gets, through the same probes
        # (short ones here); across processes is not measured for a class the program cannot load.
        doc = rigidbench.card(LieEuler, h_omega=[0.01, 0.1], sweep_span=10, flip_intervals=2, safe_min_h_omega=0.01,
                              verification=False)
        c = doc["cards"][0]
        self.assertEqual(c["scheme"], "py_lie_euler")
        self.assertEqual(c["gyroscopic"]["verdict"], "present")
        self.assertEqual(c["energy"]["summary"], "gaining")  # explicit Lie-Euler gains energy (as the built-in)
        self.assertEqual(c["determinism"]["same_process"], "identical")
        self.assertEqual(c["determinism"]["across_threads"], "identical")
        self.assertEqual(c["determinism"]["across_processes"], "not_measured")
        self.assertEqual(c["orders"], [])  # verification=False: the probes alone
        # Lie-Euler's safe step is 1.4e-4 (the built-in's card): below the search's start here.
        self.assertIsNone(c["safe_step"]["safe_h_omega"])
        self.assertLessEqual(c["safe_step"]["unsafe_h_omega"], 0.01)
        self.assertEqual(c["safe_step"]["limited_by"], "attitude")
        with self.assertRaises(rigidbench.InputError):
            rigidbench.card(LieEuler, h_omega=[0.0])

    def test_progress_by_default_only_at_a_terminal(self):
        # verify's progress (stderr, file descriptor 2) is on by default at a terminal and off when
        # stderr is a pipe, a file or a notebook's stream.
        import subprocess
        import sys
        code = "import rigidbench; rigidbench.verify('terze', ['free_body'], measure_cost=False)"
        piped = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(piped.returncode, 0, piped.stderr)
        self.assertNotIn("[1/1] terze", piped.stderr)
        master, slave = os.openpty()
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        os.close(master)
        self.assertEqual(child.wait(), 0, seen)
        self.assertIn(b"[1/1] terze", seen)

    def test_numpy_before_or_after_with_any_interpreter(self):
        # docs/python.md, "Interpreters": through the path file install-python.sh installs (read here
        # with site.addsitedir, PYTHONPATH unset), numpy imports before rigidbench as after it, with
        # Debian's python3 and with the python3 first on PATH (a pyenv or venv one on many machines)
        # when it is of the same version. The module's folder comes from PYTHONPATH (tests/CMakeLists.txt).
        import shutil
        import subprocess
        import sysconfig
        if os.environ.get("LD_PRELOAD"):
            self.skipTest("the sanitizer runtime is preloaded into Debian's interpreter only")
        pkg = os.path.dirname(os.path.dirname(os.path.abspath(rigidbench.__file__)))
        self.assertTrue(os.path.isfile(os.path.join(pkg, "rigidbench.pth")))
        interpreters = ["/usr/bin/python3"]
        first = shutil.which("python3")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        if first:
            probe = subprocess.run([first, "-c", "import sys, sysconfig; print(sys.executable); "
                                    "print(sysconfig.get_config_var('EXT_SUFFIX'))"], capture_output=True, text=True)
            lines = probe.stdout.split()
            if probe.returncode == 0 and len(lines) == 2 and lines[1] == suffix and \
                    os.path.realpath(lines[0]) != os.path.realpath("/usr/bin/python3"):
                interpreters.append(lines[0])
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        for py in interpreters:
            for order in ("numpy, rigidbench", "rigidbench, numpy"):
                code = (f"import site; site.addsitedir({pkg!r}); import {order}; "
                        "print(rigidbench.problem('free_body').name, numpy.zeros(2).sum())")
                run = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env, cwd="/")
                self.assertEqual(run.returncode, 0, f"{py}: import {order}: {run.stderr}")
                self.assertEqual(run.stdout.split(), ["free_body", "0.0"], f"{py}: import {order}")

    def test_version_is_the_command_s(self):
        # rigidbench.__version__, `rigidbench --version` and (tests/citation.py) CMake and CITATION.cff.
        import subprocess
        # The command links its own sanitizer runtime in the sanitize build: not the one preloaded
        # into this interpreter (tests/CMakeLists.txt).
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        run = subprocess.run([os.environ["RIGIDBENCH_EXE"], "--version"], capture_output=True, text=True, env=env)
        self.assertEqual(run.returncode, 0, run.stderr)
        out = run.stdout
        self.assertRegex(rigidbench.__version__, r"^\d+\.\d+\.\d+$")
        self.assertTrue(out.startswith(f"rigidbench {rigidbench.__version__} "), out)

    def test_catalogue_and_problem_files(self):
        p = rigidbench.problem("heavy_top")
        self.assertEqual(p.name, "heavy_top")
        self.assertEqual(p.inertia().shape, (3, 3))
        self.assertFalse(p.torque_free)
        self.assertIn("free_body", rigidbench.problem_names())
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "top.json")
            with open(path, "w") as f:
                json.dump(p.to_json(), f)
            q = rigidbench.load_problem(path)
        self.assertEqual(q.name, "heavy_top")
        np.testing.assert_array_equal(q.inertia(), p.inertia())
        with self.assertRaises(ValueError) as e:
            rigidbench.problem("no_such_problem")
        self.assertIn("no_such_problem", str(e.exception))

    def test_reference_and_simulate(self):
        p = rigidbench.problem("heavy_top")
        ref = p.reference([0.0, 0.25, 0.5])
        self.assertEqual(ref["R"].shape, (3, 3, 3))
        np.testing.assert_allclose(ref["R"][0], p.initial.R, atol=1e-15)
        self.assertLess(ref["error_estimate"], 1e-9)
        run = rigidbench.simulate("terze", p, 0.001, t_end=0.5)
        self.assertTrue(run["ok"])
        self.assertEqual(run["t"].shape, (501,))
        R = run["R"][-1]
        np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-12)
        # second order at h = 1e-3 on a 50 rad/s top: the attitude is right to about 1e-2 rad
        ang = math.acos(max(-1.0, min(1.0, (np.trace(ref["R"][-1].T @ R) - 1) / 2)))
        self.assertLess(ang, 5e-2)
        # invariants come from the problem, from the state
        inv = p.invariants(p.initial)
        self.assertIn("energy", inv)

    def test_python_scheme_verified_like_a_compiled_one(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            rep = rigidbench.verify([LieEuler, "lie_euler"], ["free_body"], h=0.02, levels=4, out=out,
                                    measure_cost=False)
            with open(out) as f:
                self.assertEqual(json.load(f), rep)
        by = {r["integrator"]: r for r in rep["results"]}
        py, cxx = by["py_lie_euler"], by["lie_euler"]
        self.assertEqual(py["scheme"]["origin"], "python")
        self.assertEqual(cxx["scheme"]["origin"], "builtin")
        for m in ("attitude_error_final", "h1_distance"):
            self.assertAlmostEqual(py["convergence"][m]["slope"], cxx["convergence"][m]["slope"], delta=1e-6)
        self.assertEqual(py["invariants"]["orthogonality"]["claim"], "exact")
        self.assertEqual(py["invariants"]["orthogonality"]["verdict"], "pass")
        # The history keys a class's results by its source (docs/history.md, "Outside schemes"); a
        # built-in scheme has no identity of its own (it is rigidbench's revision's).
        self.assertRegex(py["scheme"]["identity"], r"^source [0-9a-f]{12}$")
        self.assertNotIn("identity", cxx["scheme"])

    @ci_only
    def test_a_class_s_identity_follows_its_code(self):
        # An edited class (same name, another coefficient) is another identity; a `version` given is it.
        class Edited(LieEuler):
            def step(self, t, h):
                super().step(t, 1.001 * h)

        class Versioned(LieEuler):
            version = "v2.1"

        def identity(cls):
            return rigidbench.verify(cls, ["free_body"], levels=3, measure_cost=False)["results"][0]["scheme"]["identity"]
        first, edited = identity(LieEuler), identity(Edited)
        self.assertNotEqual(first, edited)
        self.assertEqual(first, identity(LieEuler))
        self.assertEqual(identity(Versioned), "v2.1")
        with self.assertRaisesRegex(ValueError, "`version` is a non-empty str"):
            identity(type("Unversioned", (LieEuler,), {"version": 2}))
        # Two classes of one name in one file (inspect finds the class text by name): their methods
        # tell them apart. A class made at run time has no source: no identity, and a warning says so.
        class Twin(LieEuler):
            def step(self, t, h):
                super().step(t, h)
        first_twin = Twin

        class Twin(LieEuler):  # noqa: F811
            def step(self, t, h):
                super().step(t, 1.01 * h)
        self.assertNotEqual(identity(first_twin), identity(Twin))
        with self.assertWarnsRegex(UserWarning, "no source to identify it by"):
            made = rigidbench.verify(type("Made", (LieEuler,), {"name": "py_made"}), ["free_body"], levels=3,
                                     measure_cost=False, print_failed=False)
        self.assertNotIn("identity", made["results"][0]["scheme"])
        self.assertEqual(line_free := identity(type("Odd", (LieEuler,), {"version": "v1\nv2"})), "v1\\x0av2")
        self.assertNotIn("\n", line_free)
        # Good then broken under one build of rigidbench, into one history: two points of the
        # scheme's history, and --fail-on-worse fails naming both (docs/history.md).
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        with tempfile.TemporaryDirectory() as d:
            files = [os.path.join(d, f"{k}.json") for k in ("good", "broken")]
            for cls, out in zip((LieEuler, Edited), files):
                rigidbench.verify(cls, ["free_body"], levels=4, measure_cost=False, out=out)
            db = os.path.join(d, "h.sqlite")
            exe = os.environ["RIGIDBENCH_EXE"]
            subprocess.run([exe, "history", "--history", db, "--import", *files], check=True, env=env, capture_output=True)
            run = subprocess.run([exe, "history", "--history", db, "--no-render", "--out", os.path.join(d, "t"),
                                  "--fail-on-worse"], capture_output=True, text=True, env=env)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(first, run.stdout)
        self.assertIn(edited, run.stdout)

    def test_verify_returns_and_prints_the_failed_verdicts(self):
        # A first-order scheme that claims order 2 and exact energy: verify returns the report with
        # `failed` - each check by the gate's name with its numbers - and prints them on stderr.
        class ClaimsTwo(LieEuler):
            name = "py_claims_two"
            order = 2
            claims = {"constraint": "exact", "energy": "exact"}

        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rep = rigidbench.verify(ClaimsTwo, ["free_body"], levels=4, measure_cost=False, progress=False)
        self.assertIsInstance(rep, dict)
        failed = {f["check"]: f for f in rep.failed}
        self.assertIn("attitude_error_final", failed)
        self.assertIn("invariant:energy", failed)
        self.assertTrue(all(f["integrator"] == "py_claims_two" and f["problem"] == "free_body" for f in rep.failed))
        self.assertRegex(failed["attitude_error_final"]["evidence"], r"^slope (0\.9|1\.0)\d*, expected 2$")
        self.assertRegex(failed["invariant:energy"]["evidence"], r"^drift \S+ at level \d+ > 1e-11")
        out = err.getvalue()
        self.assertIn("failed verdict(s) in 1 pair(s)", out)
        self.assertIn("py_claims_two x free_body: ", out)
        self.assertIn("invariant:energy (drift ", out)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            quiet = rigidbench.verify(ClaimsTwo, ["free_body"], levels=4, measure_cost=False, progress=False,
                                      print_failed=False)
        self.assertEqual(err.getvalue(), "")
        self.assertEqual({f["check"] for f in quiet.failed}, set(failed))
        # A scheme that holds its claims: nothing failed, nothing printed.
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            ok = rigidbench.verify(LieEuler, ["free_body"], levels=4, measure_cost=False, progress=False)
        self.assertEqual(ok.failed, [])
        self.assertEqual(err.getvalue(), "")

    def test_verify_ladders_sequential_or_fixed(self):
        # docs/metrics.md, "Sequential ladders": the default stops where the claims settle; levels= or
        # fixed_ladder=True run every level, as the command's --levels and --fixed-ladder.
        def stop(**kw):
            r = rigidbench.verify("odeint_rk4_quat", ["free_body"], measure_cost=False, progress=False, **kw)
            s = r["results"][0]["settings"]
            return s["ladder_stop"], s["levels"], s["levels_planned"]
        seq, fixed = stop(), stop(fixed_ladder=True)
        self.assertIn(seq[0], ("decided", "floor"))
        self.assertLess(seq[1], seq[2])
        self.assertEqual(fixed, ("fixed", seq[2], seq[2]))
        self.assertEqual(stop(levels=5), ("fixed", 5, 5))

    def test_verify_with_expected_findings(self):
        # expect= is the command line's --expect: read before the run, the report gains the outcomes,
        # `ok` follows them. The energy claim's failure is listed, the order's is not: not ok, and the
        # order is the one unexpected failure; listing both makes the run pass.
        class ClaimsTwo(LieEuler):
            name = "py_claims_two_expected"
            order = 2
            claims = {"energy": "exact"}

        def findings(checks):
            f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
            json.dump({"kind": "rigidbench-expectations", "schema_version": "1.0",
                       "expected_failures": [{"integrator": ClaimsTwo.name, "problem": "free_body", "checks": checks,
                                              "reason": "a first-order scheme claiming more"}]}, f)
            f.close()
            self.addCleanup(os.remove, f.name)
            return f.name

        common = dict(levels=4, measure_cost=False, progress=False)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            part = rigidbench.verify(ClaimsTwo, ["free_body"], expect=findings(["invariant:energy"]), **common)
        self.assertFalse(part.ok)
        self.assertTrue(any(f["check"] == "invariant:energy" and f["expected"] for f in part.failed))
        self.assertIn("attitude_error_final", {o["check"] for o in part.unexpected})
        self.assertGreater(part["summary"]["unexpected_failures"], 0)
        self.assertIn("invariant:energy (drift", err.getvalue())
        self.assertIn("[expected]", err.getvalue())
        self.assertIn("unexpected failure: py_claims_two_expected x free_body: attitude_error_final", err.getvalue())
        listed = sorted(f["check"] for f in part.failed)
        whole = rigidbench.verify(ClaimsTwo, ["free_body"], expect=findings(listed), print_failed=False, **common)
        self.assertTrue(whole.ok, whole.unexpected)
        self.assertEqual(whole["summary"]["expected_failures"], len(listed))
        self.assertFalse(rigidbench.verify(ClaimsTwo, ["free_body"], print_failed=False, **common).ok)
        # A file that is not an expected-findings list is refused before any work.
        bad = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        bad.write('{"kind": "something else"}')
        bad.close()
        self.addCleanup(os.remove, bad.name)
        with self.assertRaises(rigidbench.InputError):
            rigidbench.verify(ClaimsTwo, ["free_body"], expect=bad.name, **common)

    def test_an_empty_selection_is_refused(self):
        # An empty list from a filter in the caller's code named nothing: it ran every scheme (or the
        # quick suite's problems) as if none had been given.
        with self.assertRaisesRegex(rigidbench.InputError, "an empty list names no scheme"):
            rigidbench.verify([], ["free_body"], levels=3, measure_cost=False)
        with self.assertRaisesRegex(rigidbench.InputError, "an empty list names no problem"):
            rigidbench.verify("terze", [], levels=3, measure_cost=False)

    def test_the_engines_are_the_commands(self):
        # The module registers the engines as the command does (docs/python.md): the same schemes, so
        # that the project's expected findings, which name engine variants, hold here as they do there.
        exe = os.environ["RIGIDBENCH_EXE"]
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        listed = json.loads(subprocess.run([exe, "list", "--json"], check=True, capture_output=True, text=True,
                                           env=env).stdout)
        names = [s["name"] for s in rigidbench.schemes()]
        self.assertEqual(sorted(names), sorted(s["name"] for s in listed["integrators"]))
        # ... with what the command says of each: whether `all` selects it, adaptive, its settings.
        mine = {s["name"]: s for s in rigidbench.schemes()}
        for s in listed["integrators"]:
            m = mine[s["name"]]
            self.assertEqual((m["in_all"], m["adaptive"], m["source"], m.get("version")),
                             (s["in_all"], s["adaptive"], s["source"], s.get("version")), s["name"])
            self.assertEqual([x["name"] for x in m["settings"]], [x["name"] for x in s["settings"]], s["name"])
        engines = [n for n in ("mujoco_rk4", "bullet_gyro_none") if n in names]
        if not engines:
            self.skipTest("this build has neither MuJoCo nor Bullet")
        findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "baselines", "expected-findings.json")
        run = rigidbench.verify(engines, ["free_body"], expect=findings, progress=False, print_failed=False)
        self.assertTrue(run.failed, "both variants fail listed checks on the free body (expected-findings.json)")
        self.assertTrue(all(f["expected"] for f in run.failed), run.failed)
        self.assertTrue(run.ok, run.unexpected)

    @ci_only
    def test_adaptive_python_scheme_on_the_tolerance_ladder(self):
        rep = rigidbench.verify([LieHeunEuler, "odeint_dopri5"], ["free_body"], tol0=1e-3, tol_levels=5,
                                measure_cost=False)
        by = {r["integrator"]: r for r in rep["results"]}
        py = by["py_lie_heun_euler"]
        self.assertEqual(py["status"], "ok", py.get("reason"))
        self.assertEqual(py["scheme"]["origin"], "python")
        self.assertNotIn("convergence", py)
        lv = py["tolerance_ladder"]["levels"]
        self.assertEqual([round(math.log10(x["tol"]) * 2) for x in lv], [-6, -7, -8, -9, -10])
        # Its own counters come through, and its steps follow the tolerances it was given.
        steps = [x["accepted_steps"] for x in lv]
        self.assertTrue(all(b > a for a, b in zip(steps, steps[1:])), steps)
        self.assertTrue(all(x["rhs_evaluations"] == 2 * (x["accepted_steps"] + x["rejected_steps"]) for x in lv))
        self.assertEqual(py["tolerance_ladder"]["proportionality"]["verdict"], "pass",
                         py["tolerance_ladder"]["proportionality"]["note"])
        self.assertEqual(len(by["odeint_dopri5"]["tolerance_ladder"]["levels"]), 5)  # a registered one beside it

        # The same class with a tolerance of its own: the verdict fails, as for a broken C++ controller.
        class Ignores(LieHeunEuler):
            name = "py_ignores_tolerance"
            ignore_tolerance = True
        bad = rigidbench.verify(Ignores, ["free_body"], tol0=1e-3, tol_levels=5, measure_cost=False)["results"][0]
        self.assertEqual(bad["tolerance_ladder"]["proportionality"]["verdict"], "fail")
        # Dense output: a controller stepping past the output times is judged by its tolerance, never
        # "grid-bound" (its steps may span output intervals by design); ignoring its tolerance, with
        # steps longer than the output intervals, it fails - undeclared, the same run is "undefined".
        dense = rigidbench.verify(LieHeunDense, ["free_body"], tol0=1e-3, tol_levels=5, measure_cost=False)["results"][0]
        self.assertEqual(dense["tolerance_ladder"]["proportionality"]["verdict"], "pass",
                         dense["tolerance_ladder"]["proportionality"]["note"])
        broken = {"name": "py_dense_fixed_tol", "fixed_tol": 0.3}
        lad = rigidbench.verify(type("Broken", (LieHeunDense,), broken), ["free_body"], tol0=1e-3, tol_levels=5,
                                measure_cost=False)["results"][0]["tolerance_ladder"]
        self.assertTrue(all(x["accepted_steps"] < lad["output_intervals"] for x in lad["levels"]))
        self.assertFalse(any(x["grid_bound"] for x in lad["levels"]))
        self.assertEqual(lad["proportionality"]["verdict"], "fail", lad["proportionality"]["note"])
        lad = rigidbench.verify(type("Undeclared", (LieHeunDense,), {**broken, "name": "py_dense_undeclared",
                                                                    "dense_output": False}),
                                ["free_body"], tol0=1e-3, tol_levels=5, measure_cost=False)["results"][0]["tolerance_ladder"]
        self.assertEqual(lad["proportionality"]["verdict"], "undefined")
        with self.assertRaisesRegex(Exception, "dense_output"):
            rigidbench.verify(type("NotAdaptive", (LieHeunDense,), {"name": "py_dense_fixed_step", "adaptive": False}),
                              ["free_body"], measure_cost=False)
        # An estimate of another order than local extrapolation's: the band follows the declared order
        # (slope p / (q + 1) = 2); the same controller without the declaration fails the slope-1 rule.
        crude = rigidbench.verify(LieHeunCrude, ["free_body"], tol0=1e-2, tol_levels=3, measure_cost=False)["results"][0]
        prop = crude["tolerance_ladder"]["proportionality"]
        self.assertEqual(prop["expected"], 2.0)
        self.assertEqual(prop["verdict"], "pass", prop["note"])
        undeclared = type("Undeclared", (LieHeunCrude,), {"name": "py_lie_heun_crude_undeclared", "error_estimate_order": -1})
        prop = rigidbench.verify(undeclared, ["free_body"], tol0=1e-2, tol_levels=3,
                                 measure_cost=False)["results"][0]["tolerance_ladder"]["proportionality"]
        self.assertEqual(prop["expected"], 1.0)
        self.assertEqual(prop["verdict"], "fail", prop["note"])
        # A structure claim by an adaptive scheme would be accepted and never judged: refused.
        with self.assertRaisesRegex(Exception, "claims symplectic, a property of a fixed step"):
            rigidbench.verify(type("Sympl", (LieHeunEuler,), {"name": "py_adaptive_symplectic",
                                                               "claims": {"symplectic": "exact"}}),
                              ["free_body"], tol0=1e-2, tol_levels=3, measure_cost=False)
        for bad in (2, -2):  # in [0, order - 1] only
            with self.assertRaisesRegex(Exception, "error_estimate_order"):
                rigidbench.verify(type("Bad", (LieHeunCrude,), {"name": "py_bad_estimate", "error_estimate_order": bad}),
                                  ["free_body"], tol0=1e-2, tol_levels=3, measure_cost=False)
        # Its claims are judged on the tolerance ladder as on a step ladder: Lie-Heun keeps R on SO(3)
        # (R exp(.)) but not the energy, and a claim of exact energy fails instead of being dropped.
        class Claims(LieHeunEuler):
            name = "py_lie_heun_claims"
            claims = {"energy": "exact", "constraint": "exact"}
        claimed = rigidbench.verify(Claims, ["free_body"], tol0=1e-3, tol_levels=5, measure_cost=False)["results"][0]
        self.assertEqual(claimed["invariants"]["energy"]["claim"], "exact")
        self.assertEqual(claimed["invariants"]["energy"]["verdict"], "fail", claimed["invariants"]["energy"]["note"])
        self.assertEqual(claimed["invariants"]["orthogonality"]["verdict"], "pass",
                         claimed["invariants"]["orthogonality"]["note"])
        self.assertEqual(py["invariants"]["energy"]["verdict"], "undefined")  # no claim: reported only
        # The command line's range, through the same check (docs/adaptive.md, "Range").
        for kw in ({"tol0": 0.0}, {"tol0": 1e-20}, {"tol0": 0.5}, {"tol_levels": 2}, {"tol_levels": 25}):
            with self.assertRaisesRegex(Exception, "tol0 must be in"):
                rigidbench.verify(LieHeunEuler, ["free_body"], measure_cost=False, **kw)
        # A selection in which nothing applies is refused, as on the command line (no report).
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(ValueError, "nothing verified.*rigid_body family"):
                rigidbench.verify("gr_nonholonomic", ["free_body"], levels=3, measure_cost=False, out=os.path.join(d, "r.json"))
            self.assertFalse(os.path.exists(os.path.join(d, "r.json")))
        # A tolerance ladder with no adaptive scheme to run it is refused, not ignored.
        with self.assertRaisesRegex(Exception, "none of the selected schemes is adaptive"):
            rigidbench.verify("lie_euler", ["free_body"], tol_levels=5, measure_cost=False)

    @ci_only
    def test_an_adaptive_class_s_own_error_estimate_is_measured(self):
        # error_estimate(t, h): the embedded estimate of one uncontrolled step from the current state,
        # the state unchanged. Lie-Heun's (the difference to Lie-Euler) is of order q = 1: ~ h^2.
        class Estimating(LieHeunEuler):
            name = "py_lie_heun_estimating"

            def error_estimate(self, t, h):
                a1 = self.accel(self.W)
                W2 = self.W + h * a1
                return self.estimate(h, W2, a1, self.accel(W2))
        est = rigidbench.verify(Estimating, ["free_body"], tol0=1e-3, tol_levels=3,
                                measure_cost=False)["results"][0]["tolerance_ladder"]["estimator"]
        self.assertEqual(est["expected"], 2.0)
        self.assertAlmostEqual(est["slope"], 2.0, delta=0.1)
        self.assertEqual(est["verdict"], "pass", est["note"])
        # Told it is of order 0 (slope 1 expected), the same estimate fails: the check can fail.
        told = type("Told", (Estimating,), {"name": "py_lie_heun_estimating_q0", "error_estimate_order": 0})
        est = rigidbench.verify(told, ["free_body"], tol0=1e-3, tol_levels=3,
                                measure_cost=False)["results"][0]["tolerance_ladder"]["estimator"]
        self.assertEqual(est["verdict"], "fail", est["note"])
        # Without the method: not measured. With one that gives no number: an error naming it.
        self.assertNotIn("estimator", rigidbench.verify(LieHeunEuler, ["free_body"], tol0=1e-3, tol_levels=3,
                                                        measure_cost=False)["results"][0]["tolerance_ladder"])
        # A return that is no estimate, a raise, or an estimate that takes the step: the estimator's
        # check fails with the reason, and the run and its report go on.
        def boom(self, t, h):
            raise RuntimeError("boom")

        def moves(self, t, h):
            self.W = self.W + h
            return 1e-3
        for bad, why in ((lambda self, t, h: "small", "not a finite real number"), (lambda self, t, h: True, "not a finite"),
                         (lambda self, t, h: -1.0, "not a finite"), (lambda self, t, h: 1j, "not a finite"),
                         (lambda self, t, h: math.inf, "not a finite"), (boom, "raised RuntimeError: boom"),
                         (moves, "changed the scheme's state")):
            r = rigidbench.verify(type("BadEstimate", (LieHeunEuler,), {"name": "py_bad_estimate_value", "error_estimate": bad}),
                                  ["free_body"], tol0=1e-3, tol_levels=3, measure_cost=False)["results"][0]
            self.assertEqual(r["status"], "ok", r.get("reason"))
            est = r["tolerance_ladder"]["estimator"]
            self.assertEqual(est["verdict"], "fail", est["note"])
            self.assertIn(why, est["note"])

    def test_counters_that_are_not_counts_are_refused(self):
        # counters() returning floats, negatives or raising was read as zeros, and a missing
        # rejected_steps passed: a controller rejecting 70 % of its steps passed rejected_steps so.
        def variant(name, counters):
            return type(name, (LieHeunEuler,), {"name": name, "counters": counters})
        cases = [("py_float_counts", lambda self: {**self.n, "rejected_steps": 0.0}, "is not a whole number"),
                 ("py_numpy_bool_counts", lambda self: {**self.n, "rejected_steps": np.bool_(False)}, "is not a whole number"),
                 ("py_huge_counts", lambda self: {**self.n, "rejected_steps": 2**64}, "beyond any count"),
                 ("py_negative_counts", lambda self: {**self.n, "rejected_steps": -5}, "is negative"),
                 ("py_raising_counts", lambda self: 1 / 0, "raised ZeroDivisionError"),
                 ("py_unknown_count", lambda self: {**self.n, "rejected_step": 3}, "'rejected_step' is not a counter"),
                 ("py_no_rejections", lambda self: {k: v for k, v in self.n.items() if k != "rejected_steps"},
                  "has no 'rejected_steps'"),
                 ("py_not_a_dict", lambda self: [1, 2], "not a dict")]
        for name, counters, words in cases:
            with self.subTest(name):
                with self.assertRaisesRegex(rigidbench.InputError, words):
                    rigidbench.verify(variant(name, counters), ["free_body"], tol0=1e-3, tol_levels=3, measure_cost=False)
        # Counts no run can have (no accepted step): the level breaks down, the pair fails - never a pass.
        zero = variant("py_zero_steps", lambda self: {**self.n, "accepted_steps": 0})
        r = rigidbench.verify(zero, ["free_body"], tol0=1e-3, tol_levels=3, measure_cost=False)["results"][0]
        self.assertEqual(r["status"], "breakdown", r.get("reason"))
        self.assertIn("0 accepted steps", json.dumps(r["tolerance_ladder"]))
        # The tolerances are the ladder's: one given by hand would not be used, and is refused.
        with self.assertRaisesRegex(rigidbench.InputError, "tolerance ladder sets"):
            rigidbench.verify(["odeint_dopri5"], ["free_body"], settings=["odeint_dopri5.abs_tolerance=1e-3"],
                              measure_cost=False)

    def test_a_state_that_is_not_a_rotation_is_a_breakdown(self):
        # read() returning a zero matrix for R had attitude error 0 at every level.
        def as_state(R, W):
            s = rigidbench.State()
            s.R, s.W = R, W
            return s
        for name, R in (("py_zero_r", np.zeros((3, 3))), ("py_reflection", np.diag([1.0, 1.0, -1.0])),
                        ("py_stretched", np.diag([1.0, 1.0, 1.001]))):
            for form, read in (("tuple", lambda self, R=R: (R, self.W)),
                               ("state", lambda self, R=R: as_state(R, self.W))):  # the State path too
                cls = type(f"{name}_{form}", (LieEuler,), {"name": f"{name}_{form}", "read": read})
                r = rigidbench.verify(cls, ["free_body"], h=0.05, levels=3, measure_cost=False)["results"][0]
                self.assertEqual(r["status"], "breakdown", f"{name} as a {form}")
                self.assertIn("is not a rotation", r["reason"])

    def test_errors_in_user_code_are_breakdowns(self):
        rep = rigidbench.verify([Broken, BadShape], ["free_body"], h=0.05, levels=3, measure_cost=False)
        by = {r["integrator"]: r for r in rep["results"]}
        self.assertEqual(by["py_broken"]["status"], "breakdown")
        self.assertIn("ZeroDivisionError", by["py_broken"]["reason"])
        self.assertIn("my scheme divided by zero", by["py_broken"]["reason"])
        self.assertEqual(by["py_bad_shape"]["status"], "breakdown")
        self.assertIn("W must be a 3 array", by["py_bad_shape"]["reason"])

    def test_no_silent_substitutions(self):
        # numpy's False is False; a return outside the contract is a breakdown naming its type; a
        # complex or boolean state is refused, not cast to real.
        class NumpyFalse(LieEuler):
            name = "py_numpy_false"

            def step(self, t, h):
                super().step(t, h)
                return np.bool_(False)

        class ReturnsInt(LieEuler):
            name = "py_returns_int"

            def step(self, t, h):
                super().step(t, h)
                return 0

        class Complex(LieEuler):
            name = "py_complex"

            def read(self):
                return {"R": self.R.astype(complex), "W": self.W}

        class NumpyTrue(LieEuler):
            name = "py_numpy_true"

            def step(self, t, h):
                super().step(t, h)
                return np.bool_(True)
        rep = rigidbench.verify([NumpyFalse, ReturnsInt, Complex, NumpyTrue], ["free_body"], levels=3,
                                measure_cost=False)
        by = {r["integrator"]: r for r in rep["results"]}
        self.assertEqual(by["py_numpy_false"]["status"], "breakdown")
        self.assertIn("step returned False", by["py_numpy_false"]["reason"])
        self.assertEqual(by["py_returns_int"]["status"], "breakdown")
        self.assertIn("step returned a int", by["py_returns_int"]["reason"])
        self.assertEqual(by["py_complex"]["status"], "breakdown")
        self.assertIn("array of real numbers (got dtype complex128)", by["py_complex"]["reason"])
        self.assertEqual(by["py_numpy_true"]["status"], "ok")

    def test_bad_declarations_are_errors(self):
        class NoOrder:
            name = "x"
        with self.assertRaises(ValueError):
            rigidbench.verify(NoOrder, ["free_body"])

        class BadClaim(LieEuler):
            name = "bad_claim"
            claims = {"energy": "perfect"}
        with self.assertRaises(ValueError) as e:
            rigidbench.verify(BadClaim, ["free_body"])
        self.assertIn("perfect", str(e.exception))

    def test_one_name_one_scheme(self):
        # A report holds each pair once: two classes under one name, or a class named like a
        # registered scheme, are refused before any work (not written as a report no reader takes).
        class Twin(LieEuler):
            pass
        with self.assertRaises(ValueError) as e:
            rigidbench.verify([LieEuler, Twin], ["free_body"], levels=3, measure_cost=False)
        self.assertIn("two schemes are named 'py_lie_euler'", str(e.exception))

        # A class named like a registered scheme is refused even alone: it was drawn in terze's colours
        # and recorded in the history as terze (outside names are their own).
        class Impostor(LieEuler):
            name = "terze"
        for selection in ([Impostor, "terze"], [Impostor]):
            with self.assertRaises(ValueError) as e:
                rigidbench.verify(selection, ["free_body"], levels=3, measure_cost=False)
            self.assertIn("scheme name 'terze' is a registered scheme's", str(e.exception))
        # ... and an engine's variant's (the module registers the engines), or any name under an
        # engine's prefix, which is the engine's whether or not this build has it.
        for name, why in (("mujoco_euler", "is a registered scheme's"),
                          ("mujoco_my_variant", "names the schemes of one of rigidbench's engines")):
            EngineImpostor = type("EngineImpostor", (LieEuler,), {"name": name})
            with self.assertRaisesRegex(ValueError, why):
                rigidbench.verify(EngineImpostor, ["free_body"], levels=3, measure_cost=False)

    def test_a_call_that_never_returns(self):
        # The timeout stops it: every level is a breakdown that says why, and the run ends.
        r = rigidbench.verify(Hangs, ["free_body"], levels=3, measure_cost=False, step_timeout=0.1)
        res = r["results"][0]
        self.assertEqual(res["status"], "breakdown")
        self.assertIn("did not return within 0.1 s (step_timeout", res["reason"])
        run = rigidbench.simulate(Hangs, rigidbench.problem("free_body"), 0.01, t_end=0.1, step_timeout=0.1)
        self.assertFalse(run["ok"])
        self.assertIn("did not return within 0.1 s", run["reason"])
        for bad in (0, -1, float("nan"), float("inf")):
            with self.assertRaises(ValueError):
                rigidbench.verify(Hangs, ["free_body"], levels=3, measure_cost=False, step_timeout=bad)

    def interrupt(self, code, wait):
        """Runs `code` in a new interpreter, sends SIGINT `wait` seconds after it prints 'started',
        and returns the seconds it then took to end, its exit status, its stdout and its stderr."""
        import signal
        import subprocess
        import sys
        import time
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(p.stdout.readline().strip(), "started")
        time.sleep(wait)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=60)
        finally:
            p.kill()
        return time.monotonic() - t, p.returncode, out, err

    def test_ctrl_c_stops_a_hanging_run(self):
        # SIGINT while a step hangs (no timeout): KeyboardInterrupt in the caller within a second,
        # not a process that has to be killed.
        code = ("import rigidbench, sys; sys.path.insert(0, %r); from test_python import Hangs\n"
                "print('started', flush=True)\n"
                "rigidbench.verify(Hangs, ['free_body'], levels=3, measure_cost=False, step_timeout=None)\n"
                % os.path.dirname(os.path.abspath(__file__)))
        took, status, _, err = self.interrupt(code, 0.5)  # inside the hanging step by then
        self.assertLess(took, 5)
        self.assertNotEqual(status, 0)
        self.assertIn("KeyboardInterrupt", err)

    @ci_only
    def test_ctrl_c_stops_a_compiled_scheme(self):
        # A compiled scheme's level is not Python code: the stop request reaches it at its next
        # observation (core/cancel.hpp). Levels of 10^8 steps (about 20 s in all) end within a second,
        # and the request ends with the run: the next run in the same interpreter is not interrupted.
        code = ("import rigidbench\n"
                "print('started', flush=True)\n"
                "try:\n"
                "    rigidbench.verify('lie_euler', ['heavy_top'], levels=11, measure_cost=False, progress=False)\n"
                "except KeyboardInterrupt:\n"
                "    print('interrupted', flush=True)\n"
                "r = rigidbench.verify('terze', ['free_body'], levels=3, measure_cost=False, progress=False)\n"
                "print('after:', r['results'][0]['status'], flush=True)\n")
        took, status, out, err = self.interrupt(code, 1.5)  # the reference is there by then (0.2 s uncached)
        self.assertLess(took, 5)
        self.assertEqual(status, 0, err)
        self.assertIn("interrupted", out)
        self.assertIn("after: ok", out)

    def test_call_overhead_and_ladder(self):
        ns = rigidbench.call_overhead_ns(steps=500, repetitions=2)
        self.assertTrue(math.isfinite(ns) and ns > 0)
        lad = rigidbench.ladder(rigidbench.problem("free_body"), 2)
        self.assertEqual(lad["columns"][:2], ["t", "R11"])
        self.assertGreaterEqual(len(lad["levels"]), 3)

    def test_score_takes_an_adaptive_scheme_s_files_as_the_command_line(self):
        # rkmk_dopri5's runs at the tolerances rigidbench.ladder(adaptive=True) lists, written on its
        # output times with a manifest, scored by rigidbench.score(adaptive=True) and by `rigidbench
        # score --adaptive`: the same tolerance ladder (docs/trajectory-files.md, "Adaptive schemes").
        import subprocess
        p = rigidbench.problem("heavy_top")
        lad = rigidbench.ladder(p, 5, adaptive=True, tol0=1e-5, tol_levels=4)
        self.assertTrue(lad["adaptive"])
        self.assertEqual(len(lad["tolerances"]), 4)
        with tempfile.TemporaryDirectory() as d:
            levels = []
            for k, lv in enumerate(lad["tolerances"]):
                tol = lv["tol"]
                run = rigidbench.simulate("rkmk_dopri5", p, lad["output_dt"], t_end=lad["t_end"],
                                          settings=[f"rkmk_dopri5.abs_tolerance={tol!r}", f"rkmk_dopri5.rel_tolerance={tol!r}"])
                self.assertTrue(run["ok"])
                self.assertEqual(len(run["t"]), lad["outputs"] + 1)
                with open(os.path.join(d, lv["file"]), "w") as f:
                    f.write("t,R11,R12,R13,R21,R22,R23,R31,R32,R33,W1,W2,W3\n")
                    for n, t in enumerate(run["t"]):
                        row = [t] + list(np.asarray(run["R"][n]).reshape(9)) + list(run["W"][n])
                        f.write(",".join(repr(float(x)) for x in row) + "\n")
                # The counts as a program would report them (simulate does not return the controller's).
                levels.append({"tol": tol, "file": lv["file"], "accepted_steps": 40 * (k + 1), "rejected_steps": 1,
                               "rhs_evaluations": 241 * (k + 1), "seconds": 1e-3 * (k + 1)})
            with open(os.path.join(d, "manifest.json"), "w") as f:
                json.dump({"levels": levels, "cost": {"machine": "this test", "method": "made up"}}, f)
            py = rigidbench.score(p, d, "rkmk_file", 5, adaptive=True, tol0=1e-5, tol_levels=4, progress=False)
            out = os.path.join(d, "cli.json")
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            cmd = [os.environ["RIGIDBENCH_EXE"], "score", "--adaptive", "--tol0", "1e-5", "--tol-levels", "4", "--problem",
                   "heavy_top", "--trajectories", d, "--name", "rkmk_file", "--order", "5", "--quiet", "--out", out]
            cli_run = subprocess.run(cmd, capture_output=True, text=True, env=env)
            self.assertEqual(cli_run.returncode, 0, cli_run.stdout + cli_run.stderr)
            with open(out) as f:
                cli = json.load(f)
            a, b = py["results"][0]["tolerance_ladder"], cli["results"][0]["tolerance_ladder"]
            self.assertEqual(a["proportionality"]["verdict"], "pass")
            self.assertEqual(a["proportionality"]["verdict"], b["proportionality"]["verdict"])
            self.assertAlmostEqual(a["proportionality"]["slope"], b["proportionality"]["slope"], delta=1e-12)
            self.assertEqual([x["seconds"] for x in a["levels"]], [1e-3 * (k + 1) for k in range(4)])
            self.assertIn("declared", py["results"][0]["cost"])
            with self.assertRaises(rigidbench.InputError):
                rigidbench.score(p, d, "rkmk_file", 5, tol0=1e-5, progress=False)  # tol0 without adaptive=True
            # What the program declares of its controller, both ways alike: an order-3 estimate of a
            # fifth-order method (Radau IIA's kind: slope 5/4 expected) and dense output (no level
            # grid-bound, though 40 accepted steps for 20 outputs would not make the first grid-bound
            # anyway: the count is set below to make it so).
            levels[0]["accepted_steps"] = 30
            with open(os.path.join(d, "manifest.json"), "w") as f:
                json.dump({"levels": levels, "cost": {"machine": "this test", "method": "made up"}}, f)
            plain = rigidbench.score(p, d, "rkmk_file", 5, adaptive=True, tol0=1e-5, tol_levels=4, progress=False)
            self.assertTrue(plain["results"][0]["tolerance_ladder"]["levels"][0]["grid_bound"])
            py = rigidbench.score(p, d, "rkmk_file", 5, adaptive=True, tol0=1e-5, tol_levels=4, progress=False,
                                  error_estimate_order=3, dense_output=True)
            decl = cmd + ["--error-estimate-order", "3", "--dense-output"]
            self.assertIn(subprocess.run(decl, capture_output=True, text=True, env=env).returncode, (0, 1))
            with open(out) as f:
                cli = json.load(f)
            for r in (py, cli):
                t = r["results"][0]["tolerance_ladder"]
                self.assertEqual(t["proportionality"]["expected"], 1.25)
                self.assertFalse(any(lv["grid_bound"] for lv in t["levels"]))
            # Declared by a fixed-step scheme: refused, naming it (check_adaptive_declaration).
            fixed = subprocess.run([c for c in decl if c not in ("--adaptive", "--tol0", "1e-5", "--tol-levels", "4")],
                                   capture_output=True, text=True, env=env)
            self.assertEqual(fixed.returncode, 2, fixed.stdout + fixed.stderr)
            self.assertIn("adaptive", fixed.stderr)
            levels[0]["accepted_steps"] = 40
            # A manifest declaring zero steps made every level grid-bound, so excluded, and a failed
            # slope undefined (exit 0): now such counts are the level's breakdown, and the run fails.
            for lv in levels:
                lv["accepted_steps"] = 0
            with open(os.path.join(d, "manifest.json"), "w") as f:
                json.dump({"levels": levels, "cost": {"machine": "this test", "method": "made up"}}, f)
            zero = subprocess.run(cmd, capture_output=True, text=True, env=env)
            self.assertEqual(zero.returncode, 1, zero.stdout + zero.stderr)
            with open(out) as f:
                self.assertIn("0 accepted steps", json.dumps(json.load(f)["results"][0]["tolerance_ladder"]))

    def test_score_takes_the_command_line_s_files_and_options(self):
        # A thinned, quaternion (x, y, z, w), world-angular-velocity file set scored by
        # rigidbench.score and by `rigidbench score`: the same fitted orders and verdicts, and the
        # same refusal for a bad option (docs/trajectory-files.md).
        import subprocess
        p = rigidbench.problem("free_body")
        lad = rigidbench.ladder(p, 2, levels=3)

        def quaternion(R):  # x, y, z, w of a rotation matrix (largest-component method)
            t = np.trace(R)
            if t > 0:
                s = 2 * math.sqrt(1 + t)
                return [(R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s, s / 4]
            i = int(np.argmax(np.diag(R)))
            j, k = (i + 1) % 3, (i + 2) % 3
            s = 2 * math.sqrt(1 + R[i, i] - R[j, j] - R[k, k])
            q = [0.0, 0.0, 0.0, (R[k, j] - R[j, k]) / s]
            q[i], q[j], q[k] = s / 4, (R[j, i] + R[i, j]) / s, (R[k, i] + R[i, k]) / s
            return q

        with tempfile.TemporaryDirectory() as d:
            for lv in lad["levels"]:
                stride = round(lad["observation_dt"] / lv["h"])
                run = rigidbench.simulate("terze", p, lv["h"], every=stride)
                self.assertEqual(len(run["t"]), lad["observations"] + 1)
                with open(os.path.join(d, lv["file"]), "w") as f:
                    f.write("t,q1,q2,q3,q4,w1,w2,w3\n")
                    for n, t in enumerate(run["t"]):
                        R, W = run["R"][n], run["W"][n]
                        row = [lad["t0"] + n * stride * lv["h"]] + quaternion(R) + list(R @ W)
                        f.write(",".join(repr(float(x)) for x in row) + "\n")
            with open(os.path.join(d, "manifest.json"), "w") as f:
                json.dump({"attitude": "quaternion_xyzw", "angular_velocity": "world"}, f)
            claims = {"momentum": "exact", "constraint": "exact"}
            py = rigidbench.score(p, d, "terze_file", 2, claims=claims, levels=3, progress=False, reference_tol=1e-13,
                                  title="Terze's scheme, from files")
            out = os.path.join(d, "cli.json")
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            cmd = [os.environ["RIGIDBENCH_EXE"], "score", "--problem", "free_body", "--trajectories", d, "--name",
                   "terze_file", "--order", "2", "--claims", "momentum=exact,constraint=exact", "--levels", "3",
                   "--reference-tol", "1e-13", "--title", "Terze's scheme, from files", "--quiet", "--out", out]
            run = subprocess.run(cmd, capture_output=True, text=True, env=env)
            # (three levels from h0 = 0.05 are too coarse for Q_II's 2 % band: exit 1, the same both ways)
            self.assertIn(run.returncode, (0, 1), run.stdout + run.stderr)
            with open(out) as f:
                cli = json.load(f)
            a, b = py["results"][0], cli["results"][0]
            self.assertEqual(a["status"], "ok")
            for name, c in b["convergence"].items():
                self.assertAlmostEqual(a["convergence"][name]["slope"], c["slope"], delta=1e-12)
                self.assertEqual(a["convergence"][name]["verdict"], c["verdict"])
            for name, i in b["invariants"].items():
                self.assertEqual(a["invariants"][name]["verdict"], i["verdict"], name)
            self.assertEqual(a["q_ii"]["verdict"], b["q_ii"]["verdict"])
            self.assertEqual(a["scheme"]["title"], b["scheme"]["title"])
            self.assertEqual(a["reference"]["tolerance"], b["reference"]["tolerance"])
            self.assertEqual(a["invariants"]["orthogonality"]["verdict"], "pass")
            # The same refusal, with the same message, both ways.
            with self.assertRaises(rigidbench.InputError) as e:
                rigidbench.score(p, d, "terze_file", 2, levels=3, attitude="quaternion_wxyz", progress=False)
            bad = subprocess.run(cmd + ["--attitude", "quaternion_wxyz"], capture_output=True, text=True, env=env)
            self.assertEqual(bad.returncode, 2)
            self.assertIn("declares quaternion_xyzw: give one", str(e.exception))
            self.assertIn("declares quaternion_xyzw: give one", bad.stderr)


if __name__ == "__main__":
    unittest.main()
