"""Work units (docs/scaling.md): the quick suite with a cold reference cache gives the same report on
1 and 2 worker threads, timing aside, and the same exit code (odd numbers of workers on a smaller
suite: test_verification.cpp, 1, 2 and 5 workers). Prints the wall times (informational:
speed targets live in benchmarks, not tests). usage: workers_equal.py RIGIDBENCH TMP_DIR"""
import json
import os
import subprocess
import sys
import time

from timing_aside import first_difference, strip

B, TMP = sys.argv[1], sys.argv[2]
os.makedirs(TMP, exist_ok=True)
reports, codes, walls = {}, {}, {}
for jobs in (1, 2):
    out = os.path.join(TMP, f"quick-jobs{jobs}.json")
    start = time.monotonic()
    p = subprocess.run([B, "verify", "--no-cache", "--quiet", "--jobs", str(jobs), "--out", out],
                       capture_output=True, text=True)
    walls[jobs] = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: --jobs {jobs} exited {p.returncode}\n{p.stderr}")
    codes[jobs] = p.returncode
    reports[jobs] = json.load(open(out))
    assert reports[jobs]["settings"]["jobs"] == jobs, reports[jobs]["settings"]
for jobs in (2,):
    assert codes[jobs] == codes[1], f"exit {codes[jobs]} on {jobs} workers, {codes[1]} on one"
    d = first_difference(strip(reports[1]), strip(reports[jobs]))
    assert d is None, f"the report on {jobs} workers differs from the one on 1 worker at {d}"
n = len(reports[1]["results"])
print(f"ok: {n} pairs, identical reports on 1 and 2 workers (timing aside); wall "
      + ", ".join(f"{walls[j]:.2f} s on {j}" for j in (1, 2)) + f"; speed-up on 2: {walls[1] / walls[2]:.2f}x")
