"""No binary rigidbench builds or installs searches the folder it is run from (docs/security.md, "What
is loaded"). For every ELF file under the folders given (a build tree, an install prefix), reads its
dynamic section with `readelf -d` and fails on a RUNPATH or RPATH element that is empty (the loader
reads it as the current directory) or relative without $ORIGIN (relative to wherever the user
stands). Then runs the command from a folder holding a library of a name it loads (libstdc++.so.6)
with LD_DEBUG=libs and fails if the loader so much as tried a file there.
Usage: runpath.py COMMAND FOLDER..."""
import os
import subprocess
import sys
import tempfile

command, folders = sys.argv[1], sys.argv[2:]
# Not the build's binaries: CMake's probes, and the data of tests and fuzzing (the fuzzers' grown
# corpora hold broken ELF files on purpose).
SKIP = {"CMakeFiles", "_deps", ".git", "fuzz-runs", "tmp"}


def elf_files(top):
    for dirpath, dirnames, files in os.walk(top):
        dirnames[:] = [d for d in dirnames if d not in SKIP]
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as fh:
                head = fh.read(18)
            # An executable or a shared object (e_type 2 or 3, little-endian): what the loader runs.
            if head[:4] == b"\x7fELF" and len(head) == 18 and head[16] in (2, 3) and head[17] == 0:
                yield p


def search_paths(path):
    """(tag, [elements]) of each RUNPATH/RPATH entry of the file's dynamic section."""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        for tag in ("RUNPATH", "RPATH"):
            if f"({tag})" in line and "[" in line:
                yield tag, line[line.index("[") + 1:line.rindex("]")].split(":")


checked, bad = 0, []
for top in folders:
    for f in elf_files(top):
        checked += 1
        for tag, elements in search_paths(f):
            for e in elements:
                if e == "":
                    bad.append(f"{f}: {tag} {':'.join(elements)!r} has an empty element (the current folder)")
                elif not (e.startswith("/") or e.startswith("$ORIGIN") or e.startswith("${ORIGIN}")):
                    bad.append(f"{f}: {tag} element {e!r} is relative to the current folder")
if checked < 2:
    bad.append(f"only {checked} ELF file(s) under {folders}: nothing checked")

# The behaviour itself: a planted library in the working folder is not even looked at.
with tempfile.TemporaryDirectory() as cwd:
    with open(os.path.join(cwd, "libstdc++.so.6"), "wb") as fh:
        fh.write(b"\x7fELF not a library: loading it would fail the command")
    env = dict(os.environ, LD_DEBUG="libs")
    env.pop("LD_LIBRARY_PATH", None)
    r = subprocess.run([os.path.abspath(command), "--version"], cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        bad.append(f"{command} --version from a folder with a planted libstdc++.so.6: exit {r.returncode}: {r.stderr[-300:]}")
    # A relative "trying file=" is the working folder (an empty element); an absolute one inside it too.
    tried = [l.strip() for l in r.stderr.splitlines() if "trying file=" in l and
             (not l.split("trying file=", 1)[1].startswith("/") or f"file={cwd}/" in l)]
    if tried:
        bad.append(f"{command} looked for a library in the folder it was run from: {tried[0]}")

for b in bad:
    print("runpath:", b)
print(f"runpath: {checked} ELF file(s) checked, {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
