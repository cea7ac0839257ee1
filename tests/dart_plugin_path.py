"""The DART plugin's path is outside input ($RIGIDBENCH_DART_PLUGIN, engines/dart.cpp), read as data
before dlopen runs any of it (docs/security.md, "Plugins"): a missing file, a FIFO (dlopen would
block on it forever), a file that is not a shared object, a plugin file writable by others, and a
shared object that is not the plugin - whose constructor must not run - are each the run's breakdown
(exit 1; in verify the pair's, the others going on) with the path and the reason, and no output
file; the given path is never replaced by another; the real plugin runs. usage: dart_plugin_path.py RIGIDBENCH PLUGIN FOREIGN_SO_WITH_CONSTRUCTOR TMP_DIR"""
import os
import shutil
import subprocess
import sys

B, PLUGIN, FOREIGN, TMP = sys.argv[1:5]
shutil.rmtree(TMP, ignore_errors=True)
os.makedirs(TMP)
text = os.path.join(TMP, "not-elf.so")
with open(text, "w") as f:
    f.write("not a shared object\n")
fifo = os.path.join(TMP, "fifo.so")
os.mkfifo(fifo)
writable = os.path.join(TMP, "writable.so")
shutil.copy(PLUGIN, writable)
os.chmod(writable, 0o666)
mark = os.path.join(TMP, "constructor-ran")


def simulate(path):
    out = os.path.join(TMP, "out.csv")
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, RIGIDBENCH_DART_PLUGIN=path, HOSTILE_CTOR_MARK=mark)
    p = subprocess.run([B, "simulate", "--integrator", "dart_step", "--problem", "free_body", "--h", "0.01",
                        "--t-end", "0.05", "--out", out], capture_output=True, text=True, env=env, timeout=60)
    return p, os.path.exists(out)


for path, why in ((os.path.join(TMP, "no-such.so"), "no such file"), (fifo, "is a FIFO"),
                  (text, "is not an ELF file"), (writable, "writable by other users"),
                  (FOREIGN, "carries no rigidbench note")):
    p, wrote = simulate(path)
    if p.returncode != 1 or "breakdown" not in p.stderr or wrote or path not in p.stderr or why not in p.stderr:
        sys.exit(f"FAIL: RIGIDBENCH_DART_PLUGIN={path}: exit {p.returncode}, output written: {wrote}\n{p.stderr}")
    if "Tried:" not in p.stderr or p.stderr.count("\n  ") != 1:  # the given path only, no fallback
        sys.exit(f"FAIL: another path was tried besides {path}:\n{p.stderr}")
if os.path.exists(mark):
    sys.exit("FAIL: the foreign library's constructor ran: it was loaded before it was refused")
p, wrote = simulate(PLUGIN)
if p.returncode != 0 or not wrote:
    sys.exit(f"FAIL: the real plugin: exit {p.returncode}\n{p.stderr}")
print("dart_plugin_path: ok")
