"""The DART plugin's path is outside input ($RIGIDBENCH_DART_PLUGIN, engines/dart.cpp): a missing
file, a file that is not a shared object, and a shared object that is not the plugin are each exit 2
with the path and the reason, and no output file; the given path is never replaced by another; the
real plugin runs. usage: dart_plugin_path.py RIGIDBENCH PLUGIN NOT_A_PLUGIN_SO TMP_DIR"""
import os
import subprocess
import sys

B, PLUGIN, OTHER_SO, TMP = sys.argv[1:5]
os.makedirs(TMP, exist_ok=True)
text = os.path.join(TMP, "not-elf.so")
with open(text, "w") as f:
    f.write("not a shared object\n")


def simulate(path):
    out = os.path.join(TMP, "out.csv")
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, RIGIDBENCH_DART_PLUGIN=path)
    p = subprocess.run([B, "simulate", "--integrator", "dart_step", "--problem", "free_body", "--h", "0.01",
                        "--t-end", "0.05", "--out", out], capture_output=True, text=True, env=env)
    return p, os.path.exists(out)


for path, why in ((os.path.join(TMP, "no-such.so"), "no such file"), (text, "not-elf.so: "),
                  (OTHER_SO, "not a DART plugin of this rigidbench")):
    p, wrote = simulate(path)
    if p.returncode != 2 or wrote or path not in p.stderr or why not in p.stderr:
        sys.exit(f"FAIL: RIGIDBENCH_DART_PLUGIN={path}: exit {p.returncode}, output written: {wrote}\n{p.stderr}")
    if "Tried:" not in p.stderr or p.stderr.count("\n  ") != 1:  # the given path only, no fallback
        sys.exit(f"FAIL: another path was tried besides {path}:\n{p.stderr}")
p, wrote = simulate(PLUGIN)
if p.returncode != 0 or not wrote:
    sys.exit(f"FAIL: the real plugin: exit {p.returncode}\n{p.stderr}")
print("dart_plugin_path: ok")
