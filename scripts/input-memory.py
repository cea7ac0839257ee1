#!/usr/bin/python3
"""Peak memory and time of reading untrusted JSON against its size (docs/decisions.md, "Input
limits"): the worst shapes per byte - arrays of empty objects, of one-key objects, one object of
many keys - at growing numbers of values up to the limit, each read by `rigidbench compare --report`
(which parses, then refuses the document by its schema). Prints peak RSS and wall time per point
and the fitted growth exponents b of RSS ~ n^b and time ~ n^b (1 is linear). A measurement, not a
test: run it by hand.
    scripts/input-memory.py build/release/cli/rigidbench [max_values]"""
import math
import os
import subprocess
import sys
import tempfile
import time

B = sys.argv[1]
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else (1 << 23)


def doc(shape, n):
    if shape == "empty_objects":
        return "[" + ",".join(["{}"] * n) + "]"
    if shape == "one_key_objects":  # three values each: object, key, number
        return "[" + ",".join(['{"a":1}'] * (n // 3)) + "]"
    return "{" + ",".join(f'"k{i}":1' for i in range(n // 2)) + "}"  # many_keys: key + number


def measure(path):
    t = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", B, "compare", "--report", path, "--out",
                        os.path.join(os.path.dirname(path), "x.json")], capture_output=True, text=True)
    return int(p.stderr.strip().splitlines()[-1]) * 1024, time.monotonic() - t, p.returncode


def fit(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


with tempfile.TemporaryDirectory() as d:
    for shape in ("empty_objects", "one_key_objects", "many_keys"):
        ns, rss, secs = [], [], []
        for k in range(4, -1, -1):
            n = (LIMIT >> k) - 16
            path = os.path.join(d, "in.json")
            text = doc(shape, n)
            open(path, "w").write(text)
            m, s, rc = measure(path)
            ns.append(n), rss.append(m), secs.append(s)
            print(f"{shape:16s} values {n:9d}  text {len(text) / 2**20:7.1f} MiB  peak {m / 2**20:7.1f} MiB "
                  f"({m / n:5.1f} B/value)  {s:6.2f} s  exit {rc}")
        # The growth above the fixed cost of the program: from the two largest points' increments.
        print(f"{shape:16s} growth: peak RSS ~ n^{fit(ns[1:], rss[1:]):.2f}, time ~ n^{fit(ns[1:], secs[1:]):.2f}\n")
