"""Shards and merge (docs/gate.md, "Shards"): a sweep run as N shards and merged equals the unsharded
run, timing aside; the gate on one shard compares only that shard's pairs; merge refuses an
incomplete or inconsistent set. usage: shard_merge.py RIGIDBENCH TMP_DIR"""
import json
import os
import subprocess
import sys

from timing_aside import strip

B, TMP = sys.argv[1], sys.argv[2]
os.makedirs(TMP, exist_ok=True)
# Four schemes of order >= 2 on three problems: ok pairs, a known failing verdict (rk4_quat on pendulum3d:
# Q_II) and skipped pairs (bg_body on bodies that are not spherical) - every kind of result a merge
# joins, without the first-order ladders that made this test 150 s under the sanitizers.
SEL = ["--integrator", "rk4_quat", "terze", "rig_neg", "bg_body", "--problem", "heavy_top", "free_body", "pendulum3d",
       "--levels", "4", "--quiet", "--jobs", "1"]


def run(*args, expect=0):
    p = subprocess.run([B, *args], capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"FAIL: {' '.join(args)} exited {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


whole = os.path.join(TMP, "whole.json")
run("verify", *SEL, "--out", whole, expect=1)  # rk4_quat's Q_II on pendulum3d fails
N = 3
parts = []
for k in range(1, N + 1):
    parts.append(os.path.join(TMP, f"shard{k}.json"))
    p = subprocess.run([B, "verify", *SEL, "--shard", f"{k}/{N}", "--out", parts[-1]], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: shard {k}: exit {p.returncode}\n{p.stderr}")
sizes = [len(json.load(open(f))["results"]) for f in parts]
merged = os.path.join(TMP, "merged.json")
run("merge", "--in", *parts, "--out", merged)
a, b = json.load(open(whole)), json.load(open(merged))
assert sum(sizes) == len(a["results"]) and min(sizes) > 0, (sizes, len(a["results"]))
assert strip(a["results"]) == strip(b["results"]), "merged results differ from the unsharded run"
assert a["summary"] == b["summary"], (a["summary"], b["summary"])
assert a["summary"]["skipped"] > 0 and a["summary"]["failed_verdicts"] > 0, a["summary"]
print(f"ok: {N} shards of {sizes} pairs merge into the unsharded report ({len(a['results'])} pairs)")

# With expected findings: outcomes and counts as one run has them - an entry naming an unknown scheme
# or problem once (each shard reports it), a pair's outcome from the shard that ran it.
findings = os.path.join(TMP, "expect.json")
with open(findings, "w") as f:
    entry = lambda i, p, c, why: {"integrator": i, "problem": p, "checks": [c], "reason": why}
    json.dump({"kind": "rigidbench-expectations", "schema_version": "1.0", "expected_failures": [
        entry("rk4_quat", "pendulum3d", "q_ii", "the known failure of this selection"),
        entry("terzee", "free_body", "q_ii", "a misspelt scheme"), entry("terze", "free_bodyy", "q_ii", "a misspelt problem"),
        entry("lgvi", "free_body", "q_ii", "a registered pair this selection leaves out")]}, f)
ESEL = ["--integrator", "rk4_quat", "terze", "--problem", "pendulum3d", "free_body", "--levels", "4", "--quiet", "--jobs", "1",
        "--expect", findings]
ewhole = os.path.join(TMP, "expect-whole.json")
run("verify", *ESEL, "--out", ewhole, expect=1)  # the unknown names fail it
eparts = [os.path.join(TMP, f"expect-shard{k}.json") for k in (1, 2)]
for k, out in zip((1, 2), eparts):
    run("verify", *ESEL, "--shard", f"{k}/2", "--out", out, expect=1)
emerged = os.path.join(TMP, "expect-merged.json")
run("merge", "--in", *eparts, "--out", emerged)
a, b = json.load(open(ewhole)), json.load(open(emerged))
assert a["summary"] == b["summary"], (a["summary"], b["summary"])
key = lambda o: (o["integrator"], o["problem"], o["check"], o["outcome"])
assert sorted(map(key, a["expectations"]["outcomes"])) == sorted(map(key, b["expectations"]["outcomes"])), (
    a["expectations"]["outcomes"], b["expectations"]["outcomes"])
assert a["summary"]["unknown_checks"] == 2 and a["summary"]["expected_failures"] == 1, a["summary"]
print("ok: expected findings merge into the unsharded run's outcomes and counts")

# Incomplete, duplicated or foreign sets are refused.
p = run("merge", "--in", parts[0], parts[1], "--out", os.path.join(TMP, "bad.json"), expect=2)
assert "every shard is needed exactly once" in p.stderr, p.stderr
p = run("merge", "--in", parts[0], parts[0], parts[1], "--out", os.path.join(TMP, "bad.json"), expect=2)
assert "given twice" in p.stderr, p.stderr
p = run("merge", "--in", whole, "--out", os.path.join(TMP, "bad.json"), expect=2)
assert "not a shard report" in p.stderr, p.stderr
assert not os.path.exists(os.path.join(TMP, "bad.json"))
run("verify", "--shard", "4/3", expect=2)
run("verify", "--shard", "x", expect=2)

# The gate on one shard: the snapshot of the whole run as baseline, one shard's report as current.
base = os.path.join(TMP, "whole-snapshot.json")
run("gate", "--current", whole, "--bless", "--baseline", base)
p = run("gate", "--current", parts[1], "--baseline", base, "--accuracy-only", "--shard", f"2/{N}")
assert " 0 failed" in p.stdout, p.stdout
run("gate", "--current", parts[1], "--baseline", base, "--accuracy-only", expect=1)  # the other shards' pairs are missing
print("ok: the gate compares one shard against the whole baseline; merge refuses bad sets")

# bench: the baseline scheme runs in every shard; merge keeps it once, from its owning shard.
BSEL = ["--problem", "pendulum3d", "--integrator", "rk4_quat", "terze", "lie_euler", "--no-work-precision", "--icount-steps", "200", "--min-time", "0.001",
        "--repetitions", "1", "--quiet"]
run("bench", *BSEL, "--out", os.path.join(TMP, "bench-whole"))
bparts = []
for k in (1, 2):
    run("bench", *BSEL, "--shard", f"{k}/2", "--out", os.path.join(TMP, f"bench{k}"))
    bparts.append(os.path.join(TMP, f"bench{k}", "bench.json"))
run("merge", "--in", *bparts, "--out", os.path.join(TMP, "bench-merged.json"))
bw = json.load(open(os.path.join(TMP, "bench-whole", "bench.json")))
bm = json.load(open(os.path.join(TMP, "bench-merged.json")))
key = lambda r: (r["integrator"], r["problem"])
assert sorted(map(key, bw["results"])) == sorted(map(key, bm["results"])), "bench shards do not cover the sweep once"
if bw["instruction_counts"]["tool"] and not os.environ.get("RIGIDBENCH_TEST_NO_ICOUNT"):  # a sanitized build: none
    icw = {key(r): r["instructions_per_step"] for r in bw["results"]}
    for r in bm["results"]:
        assert abs(r["instructions_per_step"] / icw[key(r)] - 1) < 1e-3, (key(r), r["instructions_per_step"], icw[key(r)])
print(f"ok: bench shards merge into the {len(bw['results'])} pairs of the unsharded bench")
