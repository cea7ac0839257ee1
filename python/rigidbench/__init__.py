"""rigidbench: verification and benchmark harness for rigid-body time integrators.

The library's own objects and runner behind pybind11 (docs/python.md): a scheme written in Python
gets the verdicts a compiled one gets -- observed order, Q_II, exact invariants, errors against the
reference -- and the same report JSON, which `rigidbench compare`, `gate` and `report` accept.

    import rigidbench
    p = rigidbench.problem("heavy_top")
    ref = p.reference([0.0, 1.0, 2.0])              # dict of numpy arrays
    run = rigidbench.simulate("terze", p, 0.01)      # a built-in scheme
    report = rigidbench.verify(MyScheme, ["free_body", "heavy_top"], out="my-report.json")

A Python scheme is a class with the contract of a C++ one (integrators/integrator.hpp):
    class MyScheme:
        name = "my_scheme"; order = 2; kind = "explicit"
        families = ["rigid_body"]; claims = {"constraint": "exact"}
        def __init__(self, problem): ...
        def reset(self, state): ...          # state.R, state.W (body 0); state.bodies for several
        def step(self, t, h): ...            # None/True: ok; False or a str: a breakdown
        def read(self): return R, W          # (R, W, x, v) for translating families
"""
import os as _os
import sys as _sys

try:
    import numpy as _np
except ImportError:  # a python3 other than Debian's (pyenv, a venv) of the same version: Debian's
    # python3-numpy, which the set-up installs, through a finder for numpy alone (rigidbench_debian_numpy).
    import rigidbench_debian_numpy  # noqa: F401
    import numpy as _np

from ._rigidbench import (BodyState, InputError, Problem, State, card, ladder, load_problem, problem,  # noqa: F401
                          problem_names, quick_problem_names, register_programs, schemes, score, simulate)
from . import _rigidbench

__version__ = _rigidbench.__version__  # rigidbench --version, CMake's project version, CITATION.cff

__all__ = ["BodyState", "InputError", "Problem", "State", "card", "ladder", "load_problem", "problem", "problem_names",
           "quick_problem_names", "register_programs", "Report", "schemes", "score", "simulate", "verify",
           "call_overhead_ns"]


class _EmptyStep:
    """The call path of a Python scheme with no arithmetic: what every Python step pays on top of its
    own work (step() and read() through pybind11, the state converted back)."""
    name = "python_empty_step"
    order = 1
    families = ["rigid_body"]

    def __init__(self, problem):
        self._R = _np.eye(3)
        self._W = _np.zeros(3)

    def reset(self, state):
        self._R = _np.array(state.R)
        self._W = _np.array(state.W)

    def step(self, t, h):
        return None

    def read(self):
        return self._R, self._W


def _stderr_is_terminal():
    """Where the runner writes its progress (file descriptor 2) is a terminal."""
    try:
        return _os.isatty(2)
    except OSError:
        return False


def call_overhead_ns(problem_=None, steps=5000, repetitions=5):
    """ns per step of an empty Python scheme through the runner's call path (min over repetitions)."""
    p = problem_ if problem_ is not None else problem("free_body")
    return _rigidbench._time_steps(_EmptyStep, p, 1e-3, steps, repetitions)


class Report(dict):
    """A verify report: the dict `rigidbench verify` writes as JSON; `failed`, every check that
    failed (a list of dicts: integrator, problem, check - the gate's name -, evidence, the numbers it
    was decided on, and expected, whether the expected findings list it); `ok`, whether the run
    passes as the command line's exit status says (no failed verdict, or with `expect` every failure
    expected and every expectation held); `unexpected`, with `expect`, the outcomes that make it fail
    (the report's expectations.outcomes other than expected failures and pairs not run)."""

    def __init__(self, report=(), failed=(), ok=None):
        super().__init__(report)
        self.failed = list(failed)
        self.ok = (not self.failed) if ok is None else bool(ok)
        outcomes = ((self.get("expectations") or {}).get("outcomes")) or []
        self.unexpected = [o for o in outcomes if o.get("outcome") in
                           ("unexpected_failure", "unexpected_pass", "unknown_check", "unknown_scheme",
                            "unknown_problem")]


def _print_failed(report):
    """The failed verdicts on stderr, one line per pair, as the command line's rows end (an expected
    one marked so), then with expected findings what did not go as listed."""
    failed, pairs = report.failed, {}
    for f in failed:
        pairs.setdefault((f["integrator"], f["problem"]), []).append(
            f["check"] + (" (%s)" % f["evidence"] if f["evidence"] else "") + (" [expected]" if f.get("expected") else ""))
    if failed:
        print("rigidbench.verify: %d failed verdict(s) in %d pair(s):" % (len(failed), len(pairs)), file=_sys.stderr)
    for (scheme, prob), checks in pairs.items():
        print("  %s x %s: %s" % (scheme, prob, ", ".join(checks)), file=_sys.stderr)
    if report.unexpected:
        print("rigidbench.verify: %d outcome(s) of the expected findings not as listed:" % len(report.unexpected),
              file=_sys.stderr)
    for o in report.unexpected:
        print("  %s: %s x %s: %s" % (o["outcome"].replace("_", " "), o["integrator"], o["problem"], o["check"]),
              file=_sys.stderr)


def verify(scheme, problems=None, *, h=None, levels=None, t_end=None, out=None, jobs=None, reference="",
           reference_precision="double", reference_tol=None, cache_dir="", cache=True, measure_cost=True,
           progress=None, settings=(), step_timeout=300.0, tol0=None, tol_levels=None, print_failed=True, expect=None,
           fixed_ladder=False):
    """Verify one or more schemes -- Python classes, registered schemes' names or globs -- on catalogue
    problems (names) or Problem objects (default: the quick suite), exactly as `rigidbench verify`.

    Returns the report as a dict (a Report) whose `failed` lists every failed verdict with its
    numbers, also printed on stderr (print_failed=False: not printed), and whose `ok` says whether
    the run passes; with `out` (a .json file or a folder) also writes the same JSON as
    the command line.

    `expect`: an expected-findings file (as `--expect`, docs/gate.md, "Expected findings"), read
    before the run; the report gains its outcomes and counts, `ok` is true when every failure was
    expected and every expectation held, and `unexpected` lists what was not. A Python scheme's cost includes its call overhead, measured here on an empty
    scheme and reported as cost.call_overhead_ns.

    `jobs`: worker threads (0: all cores). The default is all cores for compiled schemes and one when
    a Python class is verified: its calls hold the GIL, and two threads contending for it took the
    example of examples/python 4.5x longer than one.

    `progress`: one line per finished pair on stderr, as the command line prints (None: on when stderr
    is a terminal, so a run in a notebook or a log stays quiet unless asked).

    `step_timeout`: seconds a Python scheme's call (step, read, reset, the constructor) may take; one
    that runs longer is stopped with a TimeoutError and its level is a breakdown saying so (None: no
    limit). Ctrl-C stops a run at once, hanging calls included, and raises KeyboardInterrupt.

    `tol0`, `tol_levels`: the tolerance ladder of adaptive schemes (a class with `adaptive = True`, or
    a registered one such as odeint_dopri5): tol_k = tol0 10^(-k/2), k < tol_levels (docs/adaptive.md;
    default 1e-5 and 9).

    `levels` or `fixed_ladder=True`: a fixed step ladder, every level run (`--levels`, `--fixed-ladder`);
    by default the ladder is sequential and stops where the pair's claims are settled, so a scheme
    wrong only at finer steps than that passes (docs/metrics.md, "Sequential ladders")."""
    overhead = float("nan")
    if progress is None:
        progress = _stderr_is_terminal()
    items = scheme if isinstance(scheme, (list, tuple)) else [scheme]
    if jobs is None:
        jobs = 1 if any(isinstance(s, type) for s in items) else 0
    if measure_cost and any(isinstance(s, type) for s in items):
        overhead = call_overhead_ns()
    command = [_sys.executable, "rigidbench.verify(%s)" % ", ".join(
        [repr(getattr(s, "name", s)) for s in items] + ["problems=%r" % (problems,)])]
    rep, failed, ok = _rigidbench._verify(scheme, problems, h, levels, t_end, out or "", jobs, reference,
                                          reference_precision, reference_tol, cache_dir, cache, measure_cost, progress,
                                          list(settings), overhead, command, step_timeout, tol0, tol_levels,
                                          _os.fspath(expect) if expect is not None else "", bool(fixed_ladder))
    report = Report(rep, failed, ok)
    if (report.failed or report.unexpected) and print_failed:
        _print_failed(report)
    return report
