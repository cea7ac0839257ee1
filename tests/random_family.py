"""verify --random (docs/metrics.md, "Random families"): the study's distributions count the report's
own results; the seed is printed and redraws the same problems; the worst problem of a scheme,
written as a problem file, reproduces that scheme's verdicts when verified alone.
usage: random_family.py RIGIDBENCH TMP_DIR"""
import json
import os
import subprocess
import sys

from timing_aside import first_difference, strip

B, TMP = sys.argv[1], sys.argv[2]
os.makedirs(TMP, exist_ok=True)
SCHEMES = ["--integrator", "lie_euler", "terze", "rig_pos", "bg_newmark"]


def verify(*args, out):
    p = subprocess.run([B, "verify", "--jobs", "2", *args, "--out", out], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: verify {' '.join(args)} exited {p.returncode}\n{p.stderr}")
    return p, json.load(open(out))


out = os.path.join(TMP, "study", "report.json")
os.makedirs(os.path.dirname(out), exist_ok=True)
p, r = verify("--random", "4", "--seed", "2026", *SCHEMES, out=out)
assert "--random 4 --seed 2026" in p.stderr, p.stderr
rnd = r["random"]
assert rnd["seed"] == 2026 and rnd["count"] == 4 and rnd["family"] == "rigid_body", rnd
problems = sorted({x["problem"] for x in r["results"]})
assert len(problems) == 4 and all(n.startswith("random_rigid_body_2026_") for n in problems), problems

# The distributions count the report's own results.
for s in rnd["schemes"]:
    mine = [x for x in r["results"] if x["integrator"] == s["integrator"]]
    ran = [x for x in mine if x["status"] != "skipped"]
    assert s["problems"] == len(ran) and s["skipped"] == len(mine) - len(ran), s
    for name, c in s["checks"].items():
        assert c["pass"] + c["fail"] + c["undefined"] <= s["problems"], (s["integrator"], name, c)
    if s["problems"]:
        status = s["checks"]["status"]
        assert status["pass"] + status["fail"] == s["problems"], status
        slopes = [x["convergence"]["attitude_error_final"]["slope"] for x in ran]
        finite = [v for v in slopes if v is not None]
        assert abs(min(finite) - s["worst_order"]) == 0, (finite, s["worst_order"])
        assert os.path.isfile(s["worst_problem_file"]), s
files = {s["integrator"]: s.get("worst_problem_file") for s in rnd["schemes"]}
bg = next(s for s in rnd["schemes"] if s["integrator"] == "bg_newmark")
assert bg["problems"] == 0 and bg["skipped"] == 4, bg  # spherical bodies only: none of these

# The same seed redraws the same problems and the same verdicts (timing aside).
out2 = os.path.join(TMP, "again", "report.json")
os.makedirs(os.path.dirname(out2), exist_ok=True)
_, r2 = verify("--random", "4", "--seed", "2026", *SCHEMES, "--quiet", out=out2)
for a in (r, r2):
    for s in a["random"]["schemes"]:
        s.pop("worst_problem_file", None)
d = first_difference(strip(r["results"]), strip(r2["results"])) or first_difference(r["random"], r2["random"])
assert d is None, d

# The worst problem of lie_euler, verified alone from its file, gives the study's verdicts for it.
lie = next(s for s in rnd["schemes"] if s["integrator"] == "lie_euler")
alone_out = os.path.join(TMP, "alone.json")
_, alone = verify("--problem-file", files["lie_euler"], "--integrator", "lie_euler", "--quiet", out=alone_out)
in_study = next(x for x in r["results"] if x["integrator"] == "lie_euler" and x["problem"] == lie["worst_problem"])
d = first_difference(strip(in_study), strip(alone["results"][0]))
assert d is None, f"the worst problem's file does not reproduce the study's pair: {d}"

# Bad requests: exit 2, no report.
for bad in (["--random", "0"], ["--random", "3", "--family", "body_system"], ["--random", "3", "--problem", "heavy_top"],
            ["--seed", "3"], ["--random", "3", "--energy", "-1"]):
    q = subprocess.run([B, "verify", *bad, "--out", os.path.join(TMP, "bad.json")], capture_output=True, text=True)
    assert q.returncode == 2, (bad, q.returncode, q.stderr)
assert not os.path.exists(os.path.join(TMP, "bad.json"))
print(f"ok: {len(r['results'])} pairs over 4 random problems; reproducible from the seed and from the worst problem's file")
