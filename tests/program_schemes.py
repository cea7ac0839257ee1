#!/usr/bin/env python3
"""Schemes that are programs (docs/programs.md), end to end through the command line.

1. Built-in schemes served as programs (`rigidbench program-serve`, the protocol's reference
   implementation) and declared as such get the built-ins' results bit for bit: every level's errors,
   every invariant's drift, every verdict, on step ladders and tolerance ladders, one problem with a
   potential - the protocol carries states without loss and the driver's hook observes the same runs.
2. Each way a program can fail (cannot start, hangs, dies, crashes, writes garbage, counts steps it did
   not take, answers other times, fewer states, a non-rotation, a NaN, a declared breakdown, a refusal)
   is that pair's breakdown with its reason; the command ends, the other pair of the run is judged.
3. A program declared in single precision is judged with float32's round-off budgets.
4. The Python example (examples/program/) reaches its order through the protocol.

    program_schemes.py RIGIDBENCH WORKDIR [--quick]

--quick (the fast label): lie_euler and odeint_dopri5 on free_body, four of the faults; the whole test
runs in the ci label.
"""
import json
import os
import shutil
import subprocess
import sys
import time

rigidbench, work = os.path.abspath(sys.argv[1]), sys.argv[2]
quick = "--quick" in sys.argv[3:]
here = os.path.dirname(os.path.abspath(__file__))
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, timeout=300):
    p = subprocess.run([rigidbench] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def results(path):
    with open(path) as f:
        return {(r["integrator"], r["problem"]): r for r in json.load(f)["results"]}


def declare(name, programs):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump({"programs": programs}, f)
    return path


# ---- 1. bit-identical verdicts ----
listed = json.loads(run(["list", "--json"])[1])
schemes = {s["name"]: s for s in listed["integrators"]}
wrapped = []
for name in ["lie_euler", "rkmk4", "lgvi", "odeint_dopri5"]:
    s = schemes[name]
    claims = dict(c.replace("energy with a potential", "energy_with_potential").split(": ")
                  for c in s["claims"].split(", ")) if s["claims"] != "none" else {}
    d = {"name": "served_" + name, "command": [rigidbench, "program-serve", "--integrator", name],
         "order": s["order"], "kind": s["kind"], "claims": claims, "version": "test",
         "families": s["applies"].split(" (")[0].split(" "), "adaptive": s["adaptive"],
         "settings": [{k: v for k, v in x.items() if k in ("name", "description", "default", "min", "max", "integer")}
                      for x in s["settings"] if x["name"] not in ("abs_tolerance", "rel_tolerance")]}
    if s["adaptive"]:
        d["dense_output"] = s["dense_output"]
        d["error_estimate_order"] = s["error_estimate_order"]
        d["error_estimate"] = True
    wrapped.append(d)
served = declare("served", wrapped)
names = ["lie_euler", "odeint_dopri5"] if quick else ["lie_euler", "rkmk4", "lgvi", "odeint_dopri5"]
problems = ["free_body"] if quick else ["free_body", "heavy_top"]
rc, out, err = run(["--program", served, "verify", "--integrator"] + names + ["served_" + n for n in names] +
                   ["--problem"] + problems + ["--quiet", "--out", os.path.join(work, "served")])
check(rc == 0, f"verify of built-in and served schemes exits 0 (got {rc}: {err[-500:]})")
r = results(os.path.join(work, "served", "report.json"))
VOLATILE = {"integrator", "scheme", "cost", "seconds", "seconds_max", "history", "wall_seconds", "cpu_seconds"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


for n in names:
    for p in problems:
        a, b = r.get((n, p)), r.get(("served_" + n, p))
        check(a is not None and b is not None, f"{n}/{p}: both pairs reported")
        if a and b:
            same = strip(a) == strip(b)
            if not same:
                diff = [k for k in strip(a) if strip(a)[k] != strip(b).get(k)]
                print(f"{n}/{p} differs in {diff}")
            check(same, f"{n}/{p}: the served scheme's results are the built-in's bit for bit")
            check(b["scheme"]["origin"] == "program", f"{n}/{p}: origin program")
            # Cost: the program's clock of its loop, and rigidbench's of the whole exchange beside it,
            # never less (each run's exchange contains its loop); a built-in has no exchange. (An
            # adaptive scheme's cost is per tolerance, in its ladder.)
            ca, cb = a["cost"], b["cost"]
            check("exchange_ns_per_step" not in ca, f"{n}/{p}: a built-in's cost has no exchange time")
            check(cb["ns_per_step"] is None or cb.get("exchange_ns_per_step", 0) >= cb["ns_per_step"] > 0,
                  f"{n}/{p}: exchange_ns_per_step {cb.get('exchange_ns_per_step')} >= ns_per_step {cb['ns_per_step']}")

# ---- 2. faults ----
faulty = os.path.join(here, "programs", "faulty.py")
expect = {
    "no_such_program": "'/nonexistent/program' does not exist",
    "hang": "gave no answer within 0.5 s",
    "die": "faulty: giving up on purpose",
    "crash": "killed by signal 11",
    "garbage": "not valid JSON",
    "memory": "MemoryError",
    "lie_steps": "\"steps\" says",
    "two_lines": "wrote more after its",
    "close_output": "closed its output and was stopped",
    "lie_time": "\"ns_per_step\" says 1e+300 ns",
    "wrong_times": "asked for after step",
    "missing_rows": "were asked for",
    "not_rotation": "not a rotation",
    "nan_state": "non-finite state",
    "breakdown": "faulty: the solver failed on purpose",
    "refuse": "the program refused the run: faulty: this problem",
}
decl = declare("faulty", [{"name": "faulty_" + m, "command": [sys.executable, faulty, m, rigidbench], "order": 1,
                           "timeout_s": 0.5 if m == "hang" else 60, "claims": {"constraint": "exact"},
                           **({"memory_mb": 256} if m == "memory" else {})} for m in expect])
with open(decl) as f:  # a command that cannot be executed: the child's exec fails (127)
    d = json.load(f)
d["programs"][0]["command"] = ["/nonexistent/program"]
with open(decl, "w") as f:
    json.dump(d, f)
for mode, text in expect.items():
    if quick and mode not in ("no_such_program", "hang", "lie_steps", "breakdown"):
        continue
    t0 = time.time()
    out_dir = os.path.join(work, "faulty_" + mode)
    rc, out, err = run(["--program", decl, "verify", "--integrator", "faulty_" + mode, "lie_euler", "--problem",
                        "free_body", "--quiet", "--out", out_dir], timeout=120)
    check(rc in (0, 1), f"{mode}: verify ends with a verdict, not an error (got {rc}: {err[-300:]})")
    if rc not in (0, 1):
        continue
    res = results(os.path.join(out_dir, "report.json"))
    f, ok = res[("faulty_" + mode, "free_body")], res[("lie_euler", "free_body")]
    reason = f.get("reason") or ""
    levels = " ".join(str(l.get("breakdown", "")) for l in f.get("levels", []))
    check(f["status"] == "breakdown", f"{mode}: the pair is a breakdown (got {f['status']})")
    check(text in reason + levels, f"{mode}: the reason says '{text}' (got '{reason[:300]}')")
    check(ok["status"] == "ok", f"{mode}: the other pair is judged")
    print(f"fault {mode}: breakdown in {time.time() - t0:.1f} s: {reason[:160]}")

# ---- 3. single precision: round-off budgets in float32's eps ----
# The same float32 program declared in single precision and (wrongly) in double: the first's
# rounding budget per level is 2^29 times the second's (eps32 / eps64), the levels whose error is
# not above it are its floor, left out of the fit, and the report says so.
f32 = os.path.join(here, "programs", "float32_euler.py")
decl = declare("float32", [{"name": n, "command": [sys.executable, f32], "order": 1, "kind": "explicit",
                            "attitude": "quaternion_wxyz", "angular_velocity": "body", "claims": {"energy": "none"},
                            **({"precision": "float32"} if n == "f32_euler" else {})} for n in ("f32_euler", "f64_euler")])
rc, out, err = run(["--program", decl, "verify", "--integrator", "f32_euler", "f64_euler", "--problem", "free_body",
                    "--fixed-ladder", "--quiet", "--out", os.path.join(work, "float32")])
check(rc == 0, f"the float32 program verifies (got {rc}: {err[-300:]})")
if rc == 0:
    r = results(os.path.join(work, "float32", "report.json"))
    a, b = r[("f32_euler", "free_body")], r[("f64_euler", "free_body")]
    check(a["scheme"].get("precision") == "float32" and "precision" not in b["scheme"],
          "the report's scheme says float32 where declared, nothing otherwise")
    for m in ("attitude_error_final", "omega_error_max", "h1_distance"):
        ca, cb = a["convergence"][m], b["convergence"][m]
        ratios = [x / y for x, y in zip(ca["rounding"], cb["rounding"])]
        check(all(abs(q / 2.0 ** 29 - 1) < 1e-12 for q in ratios), f"{m}: rounding budget eps32 / eps64 = 2^29 ({ratios[:2]})")
    c = a["convergence"]["attitude_error_final"]
    at_floor = [e <= f for e, f in zip(c["error"], c["floor"])]
    check(any(at_floor), f"the float32 program's finest level is at float32's floor ({c['error']} vs {c['floor']})")
    check(all(not (f and x) for f, x in zip(at_floor, c["asymptotic"])), "levels at the floor are left out of the fit")
    check(c["verdict"] == "pass" and "single precision" in c["note"],
          f"order read above the floor, and said ({c['verdict']}, {c['note'][:120]})")

# ---- 4. the example ----
if quick:
    print("program schemes:", "FAILED " + "; ".join(failures) if failures else "all checks passed (quick)")
    sys.exit(1 if failures else 0)
example = os.path.join(os.path.dirname(here), "examples", "program", "rk4_quaternion.json")
rc, out, err = run(["--program", example, "verify", "--integrator", "py_rk4_quaternion", "--problem", "free_body",
                    "heavy_top", "--quiet", "--out", os.path.join(work, "example")])
check(rc == 0, f"the example verifies (got {rc}: {err[-300:]})")
if rc == 0:
    for (s, p), x in results(os.path.join(work, "example", "report.json")).items():
        print(f"example {p}: status {x['status']}")
        check(x["status"] == "ok", f"example on {p}: ok")

print("program schemes:", "FAILED " + "; ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
