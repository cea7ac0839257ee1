"""The include graph from the source tree alone (docs/architecture.md, "Layout"): every project include
of every C++ file in the repository resolves, without a build, either beside the including file or
under one of the include roots that compile_flags.txt gives a tool such as clangd. Fails, naming
the file and the include, on the first that does not; also fails when compile_flags.txt names a root
that does not exist or when no file includes through the "rigidbench/" prefix (the check would then
check nothing)."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
flags = open(os.path.join(root, "compile_flags.txt")).read().split()
roots = [os.path.join(root, f[2:]) for f in flags if f.startswith("-I") and not f[2:].startswith("/")]
for r in roots:
    assert os.path.isdir(r), f"compile_flags.txt: include root {r} does not exist"

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SKIP = {"build", ".git", "rigidbench-out"}
checked, prefixed, missing = 0, 0, []
for dirpath, dirnames, files in os.walk(root):
    dirnames[:] = [d for d in dirnames if d not in SKIP and not d.startswith("build")]
    for f in files:
        if not f.endswith((".cpp", ".hpp", ".h", ".cpp.in")):
            continue
        path = os.path.join(dirpath, f)
        for inc in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
            checked += 1
            prefixed += inc.startswith("rigidbench/")
            where = [dirpath] + roots
            if not any(os.path.isfile(os.path.join(w, inc)) for w in where):
                missing.append(f"{os.path.relpath(path, root)}: #include \"{inc}\"")

assert prefixed > 100, f"only {prefixed} includes spelled rigidbench/...: the layout this checks is gone"
assert not missing, "includes that do not resolve in the source tree:\n  " + "\n  ".join(missing)
print(f"include graph: {checked} project includes ({prefixed} through rigidbench/) resolve in the source tree")
