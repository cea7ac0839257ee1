"""A good and a broken build of one outside C++ scheme, run into one history under one rigidbench
revision: two identities (each build's hash), and `history --fail-on-worse` fails naming the scheme and
both (docs/history.md, "Outside schemes"). Without identities the two runs were one revision, their
errors median-averaged, and the history said nothing.

    outside_regression.py GOOD_PROGRAM BROKEN_PROGRAM TMP_DIR"""
import json
import os
import shutil
import subprocess
import sys

good, broken, tmp = sys.argv[1:4]
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
db = os.path.join(tmp, "history.sqlite")
fails, identities = [], []
for prog, name in ((good, "good"), (broken, "broken")):
    out = os.path.join(tmp, f"{name}.json")
    p = subprocess.run([prog, "verify", "--integrator", "lie_midpoint_explicit", "--problem", "free_body", "--levels", "4",
                        "--quiet", "--no-cache", "--out", out, "--history", db], capture_output=True, text=True)
    expected_rc = 0 if name == "good" else 1  # the broken build's order 1 fails its claim of 2
    if p.returncode != expected_rc:
        fails.append(f"{name}: verify exited {p.returncode}, expected {expected_rc}: {p.stderr[-400:]}")
        continue
    r = json.load(open(out))["results"][0]
    identities.append(r["scheme"].get("identity", ""))
    slope = r["convergence"]["attitude_error_final"]["slope"]
    if abs(slope - (2 if name == "good" else 1)) > 0.15:
        fails.append(f"{name}: attitude slope {slope:.2f}")
if len(identities) == 2:
    if identities[0] == identities[1]:
        fails.append(f"the two builds have one identity: {identities[0]!r}")
    h = subprocess.run([good, "history", "--history", db, "--no-render", "--out", os.path.join(tmp, "trends"),
                        "--fail-on-worse"], capture_output=True, text=True)
    if h.returncode != 1:
        fails.append(f"history --fail-on-worse exited {h.returncode} on a scheme whose order fell from 2 to 1:\n{h.stdout}")
    for needle in ["lie_midpoint_explicit", *identities]:
        if needle not in h.stdout:
            fails.append(f"history --fail-on-worse does not name {needle!r}:\n{h.stdout}")
print("\n".join(fails) or f"outside_regression: ok ({identities[0]} -> {identities[1]}: --fail-on-worse exit 1, both named)")
sys.exit(1 if fails else 0)
