"""An outside program's scheme carries the identity of the code it ran (docs/history.md, "Outside
schemes"): the hash of the program's build, or $RIGIDBENCH_SCHEME_REVISION when set; rigidbench's
own schemes carry none (they are its revision's).

    outside_identity.py PROGRAM REPORT.json TMP_DIR"""
import json
import os
import re
import subprocess
import sys

prog, report, tmp = sys.argv[1:4]
fails = []
by = {r["integrator"]: r for r in json.load(open(report))["results"] if r["status"] != "skipped"}
ident = by["lie_midpoint_explicit"]["scheme"].get("identity", "")
if not re.fullmatch(r"build [0-9a-f]{16}", ident):
    fails.append(f"the outside scheme's identity is its build's hash, got {ident!r}")
if "identity" in by["terze"]["scheme"]:
    fails.append(f"a built-in scheme has no identity of its own, got {by['terze']['scheme']['identity']!r}")
os.makedirs(tmp, exist_ok=True)
out = os.path.join(tmp, "given.json")
env = dict(os.environ, RIGIDBENCH_SCHEME_REVISION="v1.2-test")
p = subprocess.run([prog, "verify", "--integrator", "lie_midpoint_explicit", "--problem", "free_body", "--levels", "3",
                    "--quiet", "--no-cache", "--out", out], env=env, capture_output=True, text=True)
if p.returncode > 1:
    fails.append(f"verify exited {p.returncode}: {p.stderr}")
else:
    given = json.load(open(out))["results"][0]["scheme"].get("identity")
    if given != "v1.2-test":
        fails.append(f"RIGIDBENCH_SCHEME_REVISION is the identity when set, got {given!r}")
print("\n".join(fails) or f"outside_identity: ok ({ident})")
sys.exit(1 if fails else 0)
