"""scripts/stages.sh, the stage timer of .ci/run, test.sh and main-job.sh (docs/decisions.md, "Build time").

A script that times a sleeping stage, a CPU-bound stage, a nested script with its own stage and a
failing stage: the JSON table must hold each with its exit code and nesting depth, CPU time where
CPU was spent (and none for the sleep), the total of the outermost stages only, and the script must
keep the failing stage's exit code. Then the stage functions of the project's scripts: bash ignores
`set -e` inside a stage (it runs as `"$@" || rc=$?`), so every command of a stage function but its
last must end its own run on failure (`|| return`, `&&`); a function that does not is reported here.
Usage: stage_timer.py STAGES_SH WORK_DIR
"""
import json
import re
import os
import shutil
import subprocess
import sys

stages_sh, work = os.path.abspath(sys.argv[1]), sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = f"""set -euo pipefail
source {stages_sh}
trap stage_table EXIT
stage "sleep" sleep 0.3
stage "burn" python3 -c "x = 0
for i in range(3_000_000): x += i"
stage "nested" bash -c 'source {stages_sh}; stage inner sleep 0.2; stage_table'
stage "fails" bash -c 'exit 7'
stage "never" true
"""
env = {k: v for k, v in os.environ.items() if not k.startswith("RIGIDBENCH_STAGE")}
p = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True, text=True)
assert p.returncode == 7, (p.returncode, p.stderr)
assert "stage (slowest first" in p.stdout, p.stdout
t = json.load(open(os.path.join(work, "build", "ci-stages.json")))
by = {s["name"]: s for s in t["stages"]}
assert set(by) == {"sleep", "burn", "inner", "nested", "fails"}, by.keys()   # "never" did not run
# The sleep's CPU is the stage wrapper's own (forks, the clock reads), 0.1 s once rounded on a loaded
# 2-core VM: at most that, and a fifth of the burn's at most, never the sleep's 0.3 s of wall.
assert by["sleep"]["wall_s"] >= 0.25 and by["sleep"]["cpu_s"] <= 0.1, by["sleep"]
assert by["sleep"]["cpu_s"] * 5 <= by["burn"]["cpu_s"], (by["sleep"], by["burn"])
assert by["burn"]["cpu_s"] >= 0.1 and by["burn"]["cpu_s"] <= by["burn"]["wall_s"] * 2.5 + 0.1, by["burn"]
assert by["inner"]["depth"] == 1 and by["nested"]["depth"] == 0, by
assert by["fails"]["exit"] == 7 and all(s["exit"] == 0 for n, s in by.items() if n != "fails"), by
outer = [s for s in t["stages"] if s["depth"] == 0]
assert abs(t["total_wall_s"] - sum(s["wall_s"] for s in outer)) < 0.2, t   # the nested stage counted once
assert not [f for f in os.listdir(os.path.join(work, "build")) if f.startswith(".stages")], "log left behind"
print("stage timer: ok", {n: (s["wall_s"], s["cpu_s"]) for n, s in by.items()})

# A stage function with a command whose failure the next command would mask.
root = os.path.dirname(os.path.dirname(stages_sh))
masked, a_masked = [], ("f() {\n  false\n  true\n}\n", "stage \"f\" f\n")


def unguarded(text):
    """(function, line) of every command but the last of each function that `stage` runs, that neither
    stops the function on failure nor handles the exit code itself."""
    staged = set(re.findall(r'^\s*stage\s+"[^"]*"\s+([A-Za-z_][A-Za-z0-9_]*)\b', text, re.M))
    found = []
    for name, body in re.findall(r'^([A-Za-z_][A-Za-z0-9_]*)\(\)\s*\{[^\n]*\n(.*?)^\}', text, re.M | re.S):
        if name not in staged:
            continue
        lines = [ln.strip() for ln in body.splitlines()]
        cmds = [ln for ln in lines if ln and not ln.startswith("#")]
        for ln in cmds[:-1]:
            control = re.match(r"(local|if|then|else|elif|fi|exit|return|echo|for|while|do|done)\b", ln)
            if not control and "||" not in ln and not ln.endswith(("&&", "\\", "|")):
                found.append((name, ln))
    return found


assert unguarded("".join(a_masked)) == [("f", "false")], unguarded("".join(a_masked))   # the check can fail
for script in (".ci/run", "scripts/test.sh", "scripts/main-job.sh"):
    masked += [(script, *u) for u in unguarded(open(os.path.join(root, script)).read())]
assert not masked, f"stage functions whose failing command the next one masks (add '|| return'): {masked}"
print("stage functions: every command but the last stops its stage on failure")
