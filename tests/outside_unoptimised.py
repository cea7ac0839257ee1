"""An outside program whose step was compiled without optimisation (-O0) gets its cost flagged as
not comparable - in the verify report, on the console and in compare - and a built-in scheme of the
same run is not (docs/extending.md, "Build type").

    outside_unoptimised.py PROGRAM TMP_DIR"""
import json
import os
import subprocess
import sys

prog, tmp = sys.argv[1:3]
os.makedirs(tmp, exist_ok=True)
fails = []
p = subprocess.run([prog, "verify", "--integrator", "lie_midpoint_explicit", "terze", "--problem", "free_body",
                    "--levels", "3", "--no-cache", "--quiet", "--out", tmp], capture_output=True, text=True)
if p.returncode > 1:
    sys.exit(f"verify exited {p.returncode}: {p.stderr}")
by = {r["integrator"]: r for r in json.load(open(os.path.join(tmp, "report.json")))["results"]}
flag = by["lie_midpoint_explicit"]["cost"].get("not_comparable", "")
if "without optimisation" not in flag:
    fails.append(f"the -O0 scheme's cost is flagged, got {flag!r}")
if "not_comparable" in by["terze"]["cost"]:
    fails.append("a built-in scheme's cost is not flagged")
if "cost of lie_midpoint_explicit not comparable" not in p.stdout:
    fails.append(f"the console says so:\n{p.stdout}")
c = subprocess.run([prog, "compare", "--in", os.path.join(tmp, "report.json"), "--out", tmp], capture_output=True, text=True)
if c.returncode != 0:
    fails.append(f"compare exited {c.returncode}: {c.stderr}")
else:
    rows = {r["integrator"]: r for P in json.load(open(os.path.join(tmp, "compare.json")))["problems"] for r in P["rows"]}
    if "not_comparable" not in rows["lie_midpoint_explicit"]["cost_per_step"] or "not_comparable" in rows["terze"]["cost_per_step"]:
        fails.append("compare flags the -O0 scheme's cost per step, and only it")
    md = open(os.path.join(tmp, "compare.md")).read()
    if "unoptimised build: not comparable" not in md:
        fails.append("compare.md says so")
    # ... and beside its cost to the target, the column the ranking is by.
    if not any(line.startswith("|") and "lie_midpoint_explicit" in line and line.rstrip().endswith("(unoptimised build) |")
               for line in md.splitlines()):
        fails.append("compare.md flags the -O0 scheme's cost to the target")
print("\n".join(fails) or "outside_unoptimised: ok")
sys.exit(1 if fails else 0)
