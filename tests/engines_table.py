"""The engines' tables of docs/engines.md are generated (scripts/engines_table.py), end to end:
a verify and a compare report of two MuJoCo variants go into a copy of the document; every number of
a row is the report's, the refused problem is one sentence, the document outside the marked block is
unchanged; a document without the block, or a report with no engine, is exit 2 and nothing written;
and the committed docs/engines.md has exactly one block.
usage: engines_table.py RIGIDBENCH SOURCE_DIR TMP_DIR"""
import json
import os
import shutil
import subprocess
import sys

B, SRC, TMP = sys.argv[1:4]
os.makedirs(TMP, exist_ok=True)
SCRIPT = os.path.join(SRC, "scripts", "engines_table.py")
DOC = os.path.join(SRC, "docs", "engines.md")
BEGIN, END = "<!-- engines-table:begin -->", "<!-- engines-table:end -->"


def run(cmd, expect=(0,)):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in expect:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


with open(DOC) as f:
    doc = f.read()
if doc.count(BEGIN) != 1 or doc.count(END) != 1 or doc.index(BEGIN) > doc.index(END):
    sys.exit(f"FAIL: {DOC} must hold exactly one {BEGIN} ... {END} block")

v, c, d = (os.path.join(TMP, n) for n in ("verify.json", "compare.json", "engines.md"))
run([B, "verify", "--integrator", "mujoco_euler", "mujoco_rk4", "rk4_quat", "--problem", "free_body", "pendulum3d",
     "--levels", "3", "--quiet", "--out", v], expect=(0, 1))
run([B, "compare", "--in", v, "--out", c, "--quiet"])
shutil.copy(DOC, d)
run([sys.executable, SCRIPT, "--verify", v, "--compare", c, "--doc", d])
with open(d) as f:
    new = f.read()
if new[: new.index(BEGIN)] != doc[: doc.index(BEGIN)] or new[new.index(END):] != doc[doc.index(END):]:
    sys.exit("FAIL: the document changed outside its marked block")
block = new[new.index(BEGIN): new.index(END)]
with open(v) as f:
    rep = json.load(f)
# Each engine variant's report carries its library's version (what the gate pins); built-ins have none.
for r in rep["results"]:
    ver = (r.get("scheme") or {}).get("version")
    if r["status"] != "skipped" and (r["integrator"].startswith("mujoco_") != (ver or "").startswith("MuJoCo 2.")):
        sys.exit(f"FAIL: {r['integrator']}: scheme version {ver!r}")
for r in rep["results"]:
    if r["problem"] != "free_body" or not r["integrator"].startswith("mujoco"):
        continue
    row = next((l for l in block.splitlines() if l.startswith(f"| `{r['integrator']}` | free_body |")), None)
    if row is None:
        sys.exit(f"FAIL: no row for {r['integrator']} on free_body:\n{block}")
    cells = [x.strip() for x in row.strip("|").split("|")]
    conv = r["convergence"]
    want = f"{conv['attitude_error_final']['slope']:.2f} / {conv['omega_error_final']['slope']:.2f}"
    if cells[3] != want or cells[2] != str(r["scheme"]["order"]) or cells[8] != f"{r['cost']['ns_per_step']:.0f}":
        sys.exit(f"FAIL: the row is not the report's ({want}, order {r['scheme']['order']}):\n{row}")
if "| `rk4_quat` |" in block:
    sys.exit("FAIL: a built-in scheme in the engines' table")
if "`pendulum3d`: no engine builds it" not in block or "| pendulum3d |" in block:
    sys.exit(f"FAIL: the refused problem is not one sentence:\n{block}")

# Refusals: nothing written.
bare = os.path.join(TMP, "bare.md")
with open(bare, "w") as f:
    f.write("# no block\n")
p = run([sys.executable, SCRIPT, "--verify", v, "--doc", bare], expect=(2,))
with open(bare) as f:
    if f.read() != "# no block\n" or "no <!-- engines-table:begin -->" not in p.stderr:
        sys.exit("FAIL: a document without the block was changed, or the message does not say why")
only_builtin = os.path.join(TMP, "builtin.json")
rep["results"] = [r for r in rep["results"] if r["integrator"] == "rk4_quat"]
with open(only_builtin, "w") as f:
    json.dump(rep, f)
p = run([sys.executable, SCRIPT, "--verify", only_builtin, "--doc", d], expect=(2,))
if "no engine variant" not in p.stderr:
    sys.exit(f"FAIL: {p.stderr}")

# The chains' table: one row per scheme, built-in or engine; its slopes and the joints' separation are
# the report's; a scheme that keeps the joints reads round-off, one that lets them drift its separation
# and slope; a scheme that does not integrate chains has no row; the document has exactly one block.
CB, CE = "<!-- engines-chains:begin -->", "<!-- engines-chains:end -->"
if doc.count(CB) != 1 or doc.count(CE) != 1 or doc.index(CB) > doc.index(CE):
    sys.exit(f"FAIL: {DOC} must hold exactly one {CB} ... {CE} block")
cv = os.path.join(TMP, "chains.json")
listed = run([B, "list"]).stdout
schemes = ["lie_euler", "mujoco_euler"] + [n for n in ("ode_step", "bullet_multibody") if f"  {n} " in listed] + ["rk4_quat"]
# Two reports (rk4_quat in a run of its own, as a slow engine is run): one table of both.
cv2 = os.path.join(TMP, "chains2.json")
run([B, "verify", "--integrator", *schemes[:-1], "--problem", "chain_double", "free_body", "--levels",
     "3", "--fixed-ladder", "--quiet", "--out", cv], expect=(0, 1, 2))
run([B, "verify", "--integrator", schemes[-1], "--problem", "chain_double", "--levels",
     "3", "--fixed-ladder", "--quiet", "--out", cv2], expect=(0, 1, 2))
crep = {"results": []}
for path in (cv, cv2):
    with open(path) as f:
        crep["results"] += json.load(f)["results"]
shutil.copy(DOC, d)
run([sys.executable, SCRIPT, "--chains", cv, cv2, "--doc", d])
with open(d) as f:
    new = f.read()
if new[: new.index(CB)] != doc[: doc.index(CB)] or new[new.index(CE):] != doc[doc.index(CE):]:
    sys.exit("FAIL: the document changed outside its chains block")
cblock = new[new.index(CB): new.index(CE)]
for r in crep["results"]:
    if r["problem"] != "chain_double" or r["status"] != "ok":
        continue
    row = next((l for l in cblock.splitlines() if l.startswith(f"| `{r['integrator']}` |")), None)
    if row is None:
        sys.exit(f"FAIL: no chains row for {r['integrator']}:\n{cblock}")
    cells = [x.strip() for x in row.strip("|").split("|")]
    want = f"{r['convergence']['attitude_error_final']['slope']:.2f}"
    sep = r["invariants"]["joint_separation"]["drift_by_level"][-1]
    if cells[2].strip("*") != want or (sep < 1e-12) != ("round-off" in cells[3]):
        sys.exit(f"FAIL: the chains row is not the report's (slope {want}, separation {sep}):\n{row}")
if "| `rk4_quat` |" not in cblock or any("free_body" in l for l in cblock.splitlines() if l.startswith("|")):
    sys.exit(f"FAIL: the chains' table lost a built-in scheme or took a one-body problem:\n{cblock}")
print("engines_table: ok")
