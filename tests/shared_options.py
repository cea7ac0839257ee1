"""The option groups the commands share are declared once (cli/options.hpp; docs/architecture.md,
"Shared options"), and mean the same thing in every command that takes them:
- no command file declares a shared option itself (the source: one declaration, in options.cpp);
- every command's --help shows a shared option with the same type and range;
- the tolerance ladder's range is one range: the command line and the library refuse the same values,
  and a tolerance given without --adaptive is refused, not ignored.
usage: shared_options.py RIGIDBENCH SOURCE_DIR"""
import glob
import os
import re
import subprocess
import sys
import tempfile

B, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
OUT = tempfile.mkdtemp(prefix="shared-options-")  # what the runs write: never the source tree
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, flush=True)


SHARED = ["--integrator", "--set", "--problem", "--problem-file", "--t-end", "--levels", "--tol0", "--tol-levels",
          "--reference", "--reference-precision", "--reference-tol", "--cache-dir", "--no-cache"]
# The hidden internal driver `bench-driver` (bench.cpp) takes its pairs from `bench` itself, not a user.
ALLOWED = {("bench.cpp", "--integrator"), ("bench.cpp", "--problem")}

# 1. One declaration: a shared option's name as a declared option only in options.cpp.
declared = re.compile(r'add_(?:option|flag|optional|option_function)\w*\s*\(\s*(?:sc\s*,\s*)?"([^"]+)"')
for path in sorted(glob.glob(os.path.join(SRC, "cli", "*.cpp"))):
    name = os.path.basename(path)
    if name == "options.cpp":
        continue
    text = open(path, encoding="utf-8").read()
    for m in declared.finditer(text):
        for flag in m.group(1).split(","):
            if flag in SHARED:
                check((name, flag) in ALLOWED, f"{name} declares the shared option {flag} itself (use cli/options.hpp)")

# 2. The same type and range wherever --help shows it.
commands = ["verify", "bench", "compare", "gate", "history", "report", "simulate", "reference", "score", "ladder"]
seen = {}
for c in commands:
    out = subprocess.run([B, c, "--help"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"{c} --help: exit {out.returncode}")
    for m in re.finditer(r"^\s+(--[a-z0-9-]+)(?:,--[a-z0-9-]+)*[ ]+((?:TEXT|FLOAT|INT|UINT)[^ \n]*(?: in \[[^\]]*\])?)", out.stdout, re.M):
        flag, kind = m.group(1), m.group(2)
        if flag in SHARED:
            seen.setdefault(flag, {})[c] = kind
for flag, kinds in sorted(seen.items()):
    check(len(set(kinds.values())) == 1, f"{flag} has different types across commands: {kinds}")
check(len(seen.get("--tol0", {})) == 3, f"--tol0 in verify, score and ladder (got {sorted(seen.get('--tol0', {}))})")
check(len(seen.get("--reference-tol", {})) == 3,
      f"--reference-tol in verify, score and reference (got {sorted(seen.get('--reference-tol', {}))})")


def run(*args):
    return subprocess.run([B, *args], capture_output=True, text=True, timeout=120)


# 3. One range for the tolerance ladder, and no tolerance silently ignored.
for cmd in (["ladder", "--problem", "free_body", "--adaptive"],
            ["verify", "--integrator", "rkmk_dopri5", "--problem", "free_body", "--no-cache", "--quiet"]):
    for bad in (["--tol0", "1e-20"], ["--tol0", "0.5"], ["--tol-levels", "2"], ["--tol-levels", "25"]):
        r = run(*cmd, *bad)
        check(r.returncode == 2, f"{' '.join(cmd + bad)}: exit {r.returncode}, not 2")
r = run("ladder", "--problem", "free_body", "--adaptive", "--tol0", "1e-16", "--tol-levels", "24", "--json")
check(r.returncode == 0, f"ladder --adaptive at the range's ends: exit {r.returncode}: {r.stderr}")
r = run("ladder", "--problem", "free_body", "--order", "2", "--tol0", "1e-3")
check(r.returncode == 2 and "give --adaptive" in r.stderr, f"ladder --tol0 without --adaptive: exit {r.returncode}: {r.stderr}")
r = run("score", "--problem", "free_body", "--trajectories", SRC, "--name", "x", "--order", "2", "--tol-levels", "5")
check(r.returncode == 2 and "give --adaptive" in r.stderr, f"score --tol-levels without --adaptive: exit {r.returncode}: {r.stderr}")
r = run("verify", "--integrator", "lie_euler", "--problem", "free_body", "--tol-levels", "5", "--no-cache", "--quiet")
check(r.returncode == 2 and "none of the selected schemes is adaptive" in r.stderr,
      f"verify --tol-levels with no adaptive scheme: exit {r.returncode}: {r.stderr}")
# A selection in which nothing applies verified nothing: exit 2, no report (it was exit 0).
r = run("verify", "--integrator", "gr_nonholonomic", "--problem", "free_body", "--quiet", "--no-cache",
        "--out", os.path.join(OUT, "nothing"))
check(r.returncode == 2 and "nothing verified" in r.stderr and not os.path.exists(os.path.join(OUT, "nothing", "report.json")),
      f"verify with no applicable pair: exit {r.returncode}: {r.stderr}")
# ... and a sharded sweep of it: each shard may be empty, the merge of the sweep is refused.
shards = []
for k in (1, 2):
    shards.append(os.path.join(OUT, f"nothing-{k}.json"))
    r = run("verify", "--integrator", "gr_nonholonomic", "--problem", "free_body", "--quiet", "--no-cache",
            "--shard", f"{k}/2", "--out", shards[-1])
    check(r.returncode == 0, f"verify --shard {k}/2 with no applicable pair: exit {r.returncode}: {r.stderr}")
r = run("merge", "--in", *shards, "--out", os.path.join(OUT, "nothing-merged.json"))
check(r.returncode == 2 and "nothing verified" in r.stderr, f"merge of a sweep with no applicable pair: exit {r.returncode}: {r.stderr}")
# Two outputs naming one file: refused before any work (the second replaced the first).
same = os.path.join(OUT, "same.out")
r = run("gate", "--in", os.path.join(OUT, "nothing-1.json"), "--baseline", os.path.join(OUT, "nothing-1.json"),
        "--markdown", same, "--junit", same)
check(r.returncode == 2 and "each output needs a file of its own" in r.stderr and not os.path.exists(same),
      f"gate --markdown F --junit F: exit {r.returncode}: {r.stderr}")
# One problem, one scheme where a command runs one.
r = run("simulate", "--integrator", "rk4_quat", "--integrator", "lie_euler", "--problem", "free_body", "--h", "0.1",
        "--out", os.path.join(OUT, "never-written.csv"))
check(r.returncode == 2 and not os.path.exists(os.path.join(OUT, "never-written.csv")),
      f"simulate with two --integrator: exit {r.returncode}")

import shutil  # noqa: E402
shutil.rmtree(OUT, ignore_errors=True)
print(f"shared_options: {len(seen)} shared options seen across {len(commands)} commands;",
      "OK" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
