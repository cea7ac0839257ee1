#!/usr/bin/env python3
"""MuJoCo's own regression tests, reproduced through rigidbench on MuJoCo 2.2.2 and MuJoCo 3
(docs/engines.md, "MuJoCo's own regression tests").

MuJoCo states two claims about its integrators as tests of its own (test/engine/engine_forward_test.cc):

1. FreeBodyGyroStable (3.11 and later, "spinning free bodies do not gain energy in vacuum"): a
   0.2 x 0.4 x 0.6 box of mass 1, gravity off, integrator implicitfast at h = 0.005, in a middle-axis
   tumble W = (0.05, 5, 0.05) and a fast spin W = (20, 0.05, 0.05): the kinetic energy stays below
   1.01 E0 at every one of 20 000 steps.
2. EnergyConservation: after 500 steps of a pendulum at the model's step (0.002), the energy error of
   RK4 is smaller than implicit's, and implicit's smaller than Euler's.

Here the first is run as MuJoCo states it (the same body, velocities, step and count), the second on
two pendulums that are rigid bodies on a ball joint (tests/data/mujoco/bar-pendulum.json and the
realisable heavy top; MuJoCo's own model is a chain of four joints, not a rigidbench problem), for every
integrator of both MuJoCo versions that the claim concerns. The energy is the problem's, evaluated by
rigidbench from the states the engine gives back, never MuJoCo's own d->energy. Euler's run of the
first test is checked to fail it, so that the check is seen to discriminate.

    mujoco_regressions.py [--sweep]  (PYTHONPATH holding the rigidbench module; --sweep also prints
                                      implicit and Euler on the bar over four steps and three spans)

Exits 77 (skipped) when neither MuJoCo is registered (no libmujoco-dev, no `npm ci`).
"""
import os
import sys

import numpy as np
import rigidbench

here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "data", "mujoco")
names = {s["name"] for s in rigidbench.schemes()}
versions = [v for v in ("mujoco3_", "mujoco_") if v + "euler" in names]
if not versions:
    print("skipped: neither MuJoCo 3 (npm, docs/engines.md) nor MuJoCo 2.2.2 (Debian) is registered")
    sys.exit(77)
failures = []
print("MuJoCo versions here: " + ", ".join({"mujoco3_": "3 (npm, WebAssembly)", "mujoco_": "2.2.2 (Debian)"}[v] for v in versions)
      + ("" if len(versions) == 2 else " - the other is not registered, its checks are skipped"))


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def energies(problem, scheme, h, steps):
    """The problem's energy at every step of the scheme's run, and the run's breakdown (or "")."""
    run = rigidbench.simulate(scheme, problem, h, t_end=problem.t0 + steps * h)
    s = rigidbench.State()
    e = []
    for R, W in zip(run["R"], run["W"]):
        s.R, s.W = R, W
        e.append(problem.energy(s))
    return np.array(e), run["reason"]


# 1. FreeBodyGyroStable: every implicit integrator of each version (implicitfast is the test's; MuJoCo
#    2.2.2 has only `implicit`, which MuJoCo 3 makes the same local solve on a free body).
print("FreeBodyGyroStable: max over 20 000 steps of E/E0 (must stay below 1.01), and E/E0 at the end")
for case in ("tumble", "spin"):
    p = rigidbench.load_problem(os.path.join(data, f"free-body-gyro-stable-{case}.json"))
    e0 = p.energy(p.initial)
    for scheme in [v + k for v in versions for k in ("implicitfast", "implicit", "discrete", "euler")]:
        if scheme not in names:
            continue
        e, reason = energies(p, scheme, 0.005, 20000)
        above = np.flatnonzero(e >= 1.01 * e0)
        verdict = f"{case:6s} {scheme:22s} max {e.max() / e0:.6g}, end {e[-1] / e0:.6g}"
        if above.size:
            verdict += f", first at or above 1.01 E0 at step {above[0]}"
        if reason:
            verdict += f" ({reason})"
        if scheme.endswith("euler"):   # semi-implicit Euler gains energy on both: the check can fail
            check(above.size > 0, verdict + " - Euler fails the test")
        else:
            check(not reason and above.size == 0, verdict)

# 2. EnergyConservation: |E(500 h) - E0| of RK4 < implicit < Euler, at the test's step. RK4's side holds
#    on both pendulums; implicit against Euler does not on the bar, where implicit's error (a steady
#    loss) and Euler's (oscillating, growing) are of one size and change places with the step and the
#    span (--sweep prints them): a finding stated in docs/engines.md, expected here so that a change of
#    either engine's behaviour shows.
IMPLICIT_BEATS_EULER = {"bar pendulum": False, "realisable heavy top": True}
print("EnergyConservation: |E - E0| after 500 steps at h = 0.002 (RK4 < implicit < Euler)")
pendulums = (("bar pendulum", rigidbench.load_problem(os.path.join(data, "bar-pendulum.json"))),
             ("realisable heavy top", rigidbench.problem("heavy_top_realisable")))
for label, p in pendulums:
    e0 = p.energy(p.initial)
    for v in versions:
        err = {}
        for k in ("rk4", "implicit", "euler"):
            e, reason = energies(p, v + k, 0.002, 500)
            check(not reason, f"{label}: {v + k} runs 500 steps{' (' + reason + ')' if reason else ''}")
            err[k] = abs(e[-1] - e0)
        row = (f"{label:20s} {v:9s} RK4 {err['rk4']:.4e}, implicit {err['implicit']:.4e}, Euler {err['euler']:.4e}"
               f" (implicit/Euler {err['implicit'] / err['euler']:.6f})")
        check(err["rk4"] < min(err["implicit"], err["euler"]), row + ": RK4 below both")
        beats = err["implicit"] < err["euler"]
        check(beats == IMPLICIT_BEATS_EULER[label],
              row + (": implicit below Euler" if beats else ": implicit NOT below Euler") +
              ("" if IMPLICIT_BEATS_EULER[label] else " (expected: docs/engines.md)"))

# implicitfast on a ball joint without damping has nothing to be implicit in: it is Euler.
if "mujoco3_implicitfast" in names:
    p = rigidbench.problem("heavy_top_realisable")
    e0 = p.energy(p.initial)
    err = {k: abs(energies(p, "mujoco3_" + k, 0.002, 500)[0][-1] - e0) for k in ("implicitfast", "euler")}
    check(abs(err["implicitfast"] - err["euler"]) <= 1e-9 * err["euler"],
          f"realisable heavy top: mujoco3_implicitfast's error {err['implicitfast']:.9e} is Euler's {err['euler']:.9e}")

if "--sweep" in sys.argv[1:]:
    p = rigidbench.problem("heavy_top_realisable")
    e0 = p.energy(p.initial)
    print("the realisable heavy top at h = 0.01, 500 steps: |E - E0| / |E0|")
    for k in ("rk4", "implicit", "implicitfast", "discrete", "euler"):
        if versions[0] + k in names:
            e, reason = energies(p, versions[0] + k, 0.01, 500)
            print(f"  {versions[0] + k:22s} {abs(e[-1] - e0) / abs(e0):.3e}{' (' + reason + ')' if reason else ''}")

    print("implicit and Euler on the bar pendulum: |E - E0| at the end (max over the run), steps x spans")
    p = pendulums[0][1]
    e0 = p.energy(p.initial)
    for h in (0.0005, 0.001, 0.002, 0.004):
        for n in (250, 500, 1000):
            cells = []
            for k in ("rk4", "implicit", "euler"):
                d = np.abs(energies(p, versions[0] + k, h, n)[0] - e0)
                cells.append(f"{k} {d[-1]:.3e} ({d.max():.3e})")
            print(f"  h {h:<6} {n:5d} steps: " + ", ".join(cells))

if failures:
    print(f"{len(failures)} check(s) not as expected")
    sys.exit(1)
print(f"MuJoCo's two tests reproduced as expected on {len(versions)} of 2 versions (docs/engines.md)")
