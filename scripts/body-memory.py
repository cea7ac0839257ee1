#!/usr/bin/python3
"""Peak memory of `verify` of one scheme against the number of bodies (docs/decisions.md, "Memory of
a run"): `rigidbench verify --integrator bg_body --problem particle_gas_N` at growing N, each with
its own reference (--no-cache). Prints per point the peak RSS, the run's own estimate (its progress
line, "memory at most ~..."), their ratio and the bytes per body; then the fitted growth RSS ~ N^b
(1 is linear) and the straight line RSS = a + c N with c the cost per body. A measurement, not a
test: run it by hand (a point of 10^4 bodies over the default span takes tens of minutes).
    scripts/body-memory.py build/release/cli/rigidbench [--t-end T] [N ...]
--t-end shortens the convergence span (default 0.2: 50 coarsest steps of 4e-3, a grid of 51 points)
so that large N stay affordable; give --t-end 1 for the catalogue's own span."""
import math
import os
import re
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
B = args.pop(0)
t_end = "0.2"
if args[:1] == ["--t-end"]:
    t_end = args[1]
    args = args[2:]
NS = [int(a) for a in args] or [250, 500, 1000, 2000, 4000]
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def measure(n, d):
    out = os.path.join(d, f"r{n}.json")
    t = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", B, "verify", "--integrator", "bg_body", "--problem",
                        f"particle_gas_{n}", "--t-end", t_end, "--no-cache", "--out", out],
                       capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    rss = int(lines[-1]) * 1024
    est = math.nan
    for line in lines:
        m = re.search(r"memory at most ~([0-9.e+]+) (\w+)", line)
        if m:
            est = float(m.group(1)) * UNITS[m.group(2)]
    return rss, est, time.monotonic() - t, p.returncode


def fit_power(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def fit_line(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    c = sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)
    return my - c * mx, c


with tempfile.TemporaryDirectory() as d:
    ns, rss = [], []
    for n in NS:
        m, est, s, rc = measure(n, d)
        ns.append(n), rss.append(m)
        print(f"bodies {n:6d}  peak {m / 2**20:8.1f} MiB  estimate {est / 2**20:8.1f} MiB  "
              f"(estimate/peak {est / m:4.2f})  {m / n / 1024:6.1f} KiB/body  {s:7.1f} s  exit {rc}", flush=True)
    if len(ns) >= 2:
        a, c = fit_line(ns, rss)
        print(f"growth: peak RSS ~ N^{fit_power(ns, rss):.2f}; RSS = {a / 2**20:.1f} MiB + {c / 1024:.1f} KiB x N "
              f"(--t-end {t_end})")
