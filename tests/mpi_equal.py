"""MPI ranks (docs/scaling.md, "MPI"): `mpirun -np 3` (oversubscribed on localhost) writes the same
verify report as `-np 1` and as a run without MPI, timing aside; gate --run under 3 ranks gives the
same snapshot and passes against it; bench under 3 ranks has every entry once; an error on the ranks
is exit 2 on all of them, before the work or in it (a reference that fails on its one rank); commands
that do not share work refuse to run on several ranks.
usage: mpi_equal.py MPIEXEC RIGIDBENCH TMP_DIR"""
import json
import os
import subprocess
import sys

from timing_aside import first_difference, strip

MPIEXEC, B, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(TMP, exist_ok=True)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
SEL = ["--integrator", "terze", "lie_euler", "rig_imp", "akw_midpoint", "--problem", "heavy_top", "free_body",
       "pendulum3d", "non_twisting_case1", "--levels", "4", "--jobs", "1", "--quiet"]


def run(args, np=None, expect=(0, 1)):
    cmd = ([MPIEXEC, "--oversubscribe", "-np", str(np)] if np else []) + [B, *args]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if p.returncode not in expect:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


reports = {}
for np in (None, 1, 3):
    out = os.path.join(TMP, f"verify-{np or 'plain'}.json")
    p = run(["verify", *SEL, "--out", out], np)
    reports[np] = (p.returncode, json.load(open(out)))
    if np == 3:
        assert "3 MPI ranks" in p.stdout, p.stdout
code, plain = reports[None]
assert len(plain["results"]) == 16, len(plain["results"])
for np in (1, 3):
    assert reports[np][0] == code, f"exit {reports[np][0]} on {np} ranks, {code} without MPI"
    d = first_difference(strip(plain["results"]), strip(reports[np][1]["results"]))
    assert d is None, f"-np {np}: the report differs from the one without MPI at results{d[1:]}"
    assert plain["summary"] == reports[np][1]["summary"], (plain["summary"], reports[np][1]["summary"])

# gate --run (accuracy) on 3 ranks: the snapshot of one process, and no regression against it.
GSEL = ["--integrator", "terze", "rig_imp", "--problem", "heavy_top", "free_body", "--accuracy-only", "--quiet"]
base = os.path.join(TMP, "gate-base.json")
v = os.path.join(TMP, "gate-verify.json")
run(["verify", "--integrator", "terze", "rig_imp", "--problem", "heavy_top", "free_body", "--quiet", "--out", v])
run(["gate", "--current", v, "--bless", "--baseline", base], expect=(0,))
run(["gate", "--run", *GSEL, "--baseline", base, "--snapshot-out", os.path.join(TMP, "s1.json")], expect=(0,))
run(["gate", "--run", *GSEL, "--baseline", base, "--snapshot-out", os.path.join(TMP, "s3.json")], 3, expect=(0,))
s1, s3 = json.load(open(os.path.join(TMP, "s1.json"))), json.load(open(os.path.join(TMP, "s3.json")))
d = first_difference(strip(s1), strip(s3))
assert d is None, f"gate --run on 3 ranks: the snapshot differs at {d}"

# bench on 3 ranks: every (integrator, problem) entry once, as in one process.
bdir1, bdir3 = os.path.join(TMP, "bench1"), os.path.join(TMP, "bench3")
BSEL = ["--integrator", "terze", "lie_euler", "--problem", "heavy_top", "free_body", "--no-icount",
        "--no-work-precision", "--min-time", "0.01", "--repetitions", "1", "--quiet"]
run(["bench", *BSEL, "--out", bdir1], expect=(0,))
run(["bench", *BSEL, "--out", bdir3], 3, expect=(0,))
keys = lambda f: sorted((e["integrator"], e["problem"]) for e in json.load(open(os.path.join(f, "bench.json")))["results"])
assert keys(bdir1) == keys(bdir3), (keys(bdir1), keys(bdir3))

# card on 3 ranks (docs/card.md, "Determinism"): rank 0 writes the cards, every rank ran the
# determinism probe, and the fingerprints agree across the ranks.
cdir = os.path.join(TMP, "cards3")
run(["card", "--integrator", "rk4_quat", "bullet_gyro_explicit", "bg_body", "--quiet", "--out", cdir], 3, expect=(0,))
cards = {c["scheme"]: c for c in json.load(open(os.path.join(cdir, "cards.json")))["cards"]}
assert cards["rk4_quat"]["determinism"]["across_ranks"] == "identical", cards["rk4_quat"]["determinism"]
assert cards["bullet_gyro_explicit"]["determinism"]["across_ranks"] == "identical", cards["bullet_gyro_explicit"]["determinism"]
assert cards["bg_body"]["determinism"]["across_ranks"] == "not_measured"  # its probes do not apply to free_body

# Errors: the same exit code on every rank, no report; commands that do not share work refuse.
bad = os.path.join(TMP, "bad.json")
p = run(["verify", "--problem", "no_such_problem", "--out", bad], 3, expect=(2,))
assert "no_such_problem" in p.stderr, p.stderr
assert not os.path.exists(bad)
p = run(["simulate", "--integrator", "terze", "--problem", "heavy_top", "--h", "0.01", "--out", bad], 3, expect=(2,))
assert "runs in one process" in p.stderr, p.stderr
p = run(["card", "--integrator", "no_such_scheme", "--out", os.path.join(TMP, "cards-bad")], 3, expect=(2,))
assert "no_such_scheme" in p.stderr, p.stderr
p = run(["verify", *SEL, "--shard", "1/2", "--out", bad], 3, expect=(2,))
assert not os.path.exists(bad)
# An error in the middle of the work on the one rank that computes a reference (its step limit): the
# ranks waiting for that reference stop with it, exit 2 everywhere, no report (no rank hangs).
short = dict(ENV, RIGIDBENCH_REFERENCE_MAX_STEPS="5")
cmd = [MPIEXEC, "--oversubscribe", "-np", "3", B, "verify", *SEL, "--no-cache", "--out", bad]
p = subprocess.run(cmd, capture_output=True, text=True, env=short, timeout=300)
assert p.returncode == 2, (p.returncode, p.stderr)
assert "RIGIDBENCH_REFERENCE_MAX_STEPS" in p.stderr and "limit" in p.stderr, p.stderr  # a solve's or the closed form's
assert not os.path.exists(bad)
print(f"ok: verify on 1 and 3 MPI ranks = without MPI ({len(plain['results'])} pairs, timing aside); "
      "gate --run, bench and card on 3 ranks; errors agree on every rank")
