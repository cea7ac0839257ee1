"""gate --against --current-bench (docs/gate.md, "Speed on any runner"): this build's bench report,
made before, stands for its instruction-count pass. It is used (a doubled count in it fails the
gate), and refused with exit 2 when another build made it or it holds other pairs.
usage: gate_current_bench.py RIGIDBENCH TMP_DIR"""
import json
import os
import shutil
import subprocess
import sys

B, TMP = sys.argv[1], sys.argv[2]
shutil.rmtree(TMP, ignore_errors=True)
os.makedirs(TMP)
SEL = ["--integrator", "lie_euler", "--problem", "free_body"]


def run(*args):
    return subprocess.run([B, *args], capture_output=True, text=True)


p = run("bench", "--quiet", "--no-work-precision", "--min-time", "0.01", "--repetitions", "3", *SEL, "--out",
        os.path.join(TMP, "own"))
assert p.returncode == 0, p.stderr
own = os.path.join(TMP, "own", "bench.json")
report = json.load(open(own))


def variant(name, change):
    r = json.loads(json.dumps(report))
    change(r)
    path = os.path.join(TMP, name + ".json")
    json.dump(r, open(path, "w"))
    return path


def against(path, *extra):
    return run("gate", "--against-binary", B, "--current-bench", path, *SEL, *extra)


# The report is what is compared, and its pass is not run again: doubled counts for lie_euler fail
# the gate on that row.
def double(r):
    for e in r["results"]:
        if e["integrator"] == "lie_euler":
            e["instructions_per_step"] *= 2


doubled = variant("doubled", double)
p = against(doubled)
assert p.returncode == 1, p.stdout + p.stderr
assert "instruction counts: " + doubled in p.stderr, p.stderr
failed = [line for line in p.stdout.splitlines() if line.startswith("fail")]
assert failed and all("lie_euler" in line for line in failed), p.stdout
assert "gate: 0 passed, 1 failed" in p.stdout, p.stdout

# Another build's report, a report of other pairs, not a bench report: exit 2 with the reason.
p = against(variant("other-build", lambda r: r["tool"].update(compiler="Clang 14.0.6")), "--quiet")
assert p.returncode == 2 and "another build" in p.stderr, p.stderr
p = run("gate", "--against-binary", B, "--current-bench", own, "--integrator", "lie_euler", "--problem", "free_body",
        "heavy_top", "--quiet")
assert p.returncode == 2 and "other pairs" in p.stderr, p.stderr
p = against(variant("not-bench", lambda r: r.update(kind="verify")), "--quiet")
assert p.returncode == 2 and "not a rigidbench bench report" in p.stderr, p.stderr
# --current-bench belongs to --against, --bench-out to --run.
p = run("gate", "--in", own, "--baseline", own, "--current-bench", own)
assert p.returncode == 2 and "--current-bench goes with --against" in p.stderr, p.stderr
p = run("gate", "--against-binary", B, "--bench-out", os.path.join(TMP, "x.json"), *SEL)
assert p.returncode == 2 and "--bench-out" in p.stderr, p.stderr
assert not os.path.exists(os.path.join(TMP, "x.json"))
print("ok: --current-bench is used, and refused for another build, other pairs or another kind")
