"""A scheme in plain numpy, verified by rigidbench like a compiled one (docs/python.md).

The explicit Lie midpoint rule in the Munthe-Kaas form on SO(3) x R^3 (RKMK of order 2: Munthe-Kaas,
BIT 38 (1998); Iserles, Munthe-Kaas, Norsett, Zanna, Acta Numerica 9 (2000) sec. 4), with
a(t, R, W) = J^{-1}((J W) x W + T(t, R)) the body angular acceleration:
    W_m = W_n + h/2 a(t_n, R_n, W_n),          R_m = R_n exp(h/2 W_n),
    W_{n+1} = W_n + h a(t_n + h/2, R_m, W_m),  R_{n+1} = R_n exp(h W_m).
The same method as examples/external_scheme (C++), so that their verdicts can be compared.

    python3 examples/python/lie_midpoint.py [--out report.json] [problem ...]
"""
import argparse
import math
import sys

import rigidbench
import numpy as np


def hat(u):
    return np.array([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])


def cross(a, b):
    """a x b of two 3-vectors (numpy.cross costs ~10 us per call on arrays this small)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def expm_so3(u):
    """exp(hat(u)) by Rodrigues' formula, with the series near 0 (both within round-off there)."""
    th2 = float(u @ u)
    K = hat(u)
    if th2 < 1e-8:
        a, b = 1.0 - th2 / 6.0, 0.5 - th2 / 24.0
    else:
        th = math.sqrt(th2)
        a, b = math.sin(th) / th, (1.0 - math.cos(th)) / th2
    return np.eye(3) + a * K + b * (K @ K)


class LieMidpointExplicit:
    name = "lie_midpoint_python"
    title = "Explicit Lie midpoint (RKMK2) on SO(3) x R^3, in numpy"
    source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000), sec. 4 (order 2)"
    representation = "rotation matrix R and body angular velocity W (numpy)"
    order = 2
    kind = "explicit"
    families = ["rigid_body"]
    claims = {"constraint": "exact"}
    notes = "examples/python: the method of examples/external_scheme, written in Python"

    def __init__(self, problem):
        self.p = problem
        self.J = problem.inertia()
        self.Jinv = problem.inertia_inverse()
        self.torque_free = problem.torque_free
        self.loads = 0

    def acceleration(self, t, R, W):
        rhs = cross(self.J @ W, W)
        if not self.torque_free:
            rhs = rhs + self.p.body_moment(t, R)
            self.loads += 1
        return self.Jinv @ rhs

    def reset(self, state):
        self.R = np.array(state.R)
        self.W = np.array(state.W)
        self.loads = 0

    def step(self, t, h):
        Wm = self.W + 0.5 * h * self.acceleration(t, self.R, self.W)
        Rm = self.R @ expm_so3(0.5 * h * self.W)
        self.W = self.W + h * self.acceleration(t + 0.5 * h, Rm, Wm)
        self.R = self.R @ expm_so3(h * Wm)

    def read(self):
        return self.R, self.W

    def counters(self):
        return {"load_evaluations": self.loads}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problems", nargs="*", default=["free_body", "heavy_top"])
    ap.add_argument("--out", default="", help="report file (.json) or folder")
    a = ap.parse_args(argv)
    rep = rigidbench.verify(LieMidpointExplicit, a.problems, out=a.out or None)
    for r in rep["results"]:
        if r["status"] == "skipped":
            continue
        conv = r["convergence"]["attitude_error_final"]
        q = r["q_ii"]
        print(f'{r["integrator"]:22s} {r["problem"]:14s} {r["status"]:9s} order {conv["slope"]:.3f} ({conv["verdict"]}), '
              f'Q_II median {q["median"]} ({q["verdict"]}), cost {r["cost"]["ns_per_step"]:.0f} ns/step '
              f'(empty step {r["cost"].get("call_overhead_ns", float("nan")):.0f} ns)')
        for name, inv in r["invariants"].items():
            if inv["claim"] != "none":
                print(f'    {name}: claim {inv["claim"]}, drift {inv["drift"]}, {inv["verdict"]}')
    return 1 if any(r["status"] in ("breakdown", "failed") for r in rep["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
