"""The include graph from the source tree alone (docs/architecture.md, "Layout" and "Layers"):
- every project include of every C++ file in the repository resolves, without a build, either beside
  the including file or under one of the include roots that compile_flags.txt gives a tool such as
  clangd;
- every file of a layer (rigidbench/<layer>/) includes only its own layer and the layers before it,
  in the order of the top CMakeLists.txt's list of layers; a program (a file that defines main())
  sits above the layers and may include any.
Fails, naming each offending file and include; also fails when compile_flags.txt names a root that
does not exist, when the list of layers cannot be read, or when no file includes through the
"rigidbench/" prefix (the check would then check nothing)."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
flags = open(os.path.join(root, "compile_flags.txt")).read().split()
roots = [os.path.join(root, f[2:]) for f in flags if f.startswith("-I") and not f[2:].startswith("/")]
for r in roots:
    assert os.path.isdir(r), f"compile_flags.txt: include root {r} does not exist"

m = re.search(r"foreach\(_layer ([a-z_ ]+)\)", open(os.path.join(root, "CMakeLists.txt")).read())
assert m, "CMakeLists.txt: the list of layers (foreach(_layer ...)) was not found"
layers = m.group(1).split()
assert len(layers) >= 5, layers

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SKIP = {"build", ".git", "rigidbench-out"}
checked, prefixed, missing, against = 0, 0, [], []
for dirpath, dirnames, files in os.walk(root):
    dirnames[:] = [d for d in dirnames if d not in SKIP and not d.startswith("build")]
    for f in files:
        if not f.endswith((".cpp", ".hpp", ".h", ".cpp.in")):
            continue
        path = os.path.join(dirpath, f)
        text = open(path, encoding="utf-8", errors="replace").read()
        rel = os.path.relpath(path, root).split(os.sep)
        layer = rel[1] if len(rel) > 2 and rel[0] == "rigidbench" and rel[1] in layers else None
        program = re.search(r"^int main\(", text, re.M) is not None
        for inc in INCLUDE.findall(text):
            checked += 1
            prefixed += inc.startswith("rigidbench/")
            where = [dirpath] + roots
            if not any(os.path.isfile(os.path.join(w, inc)) for w in where):
                missing.append(f"{os.path.relpath(path, root)}: #include \"{inc}\"")
            parts = inc.split("/")
            if layer and not program and len(parts) > 2 and parts[0] == "rigidbench" and parts[1] in layers \
                    and layers.index(parts[1]) > layers.index(layer):
                against.append(f"{os.path.relpath(path, root)} (layer {layer}): #include \"{inc}\"")

assert prefixed > 100, f"only {prefixed} includes spelled rigidbench/...: the layout this checks is gone"
assert not missing, "includes that do not resolve in the source tree:\n  " + "\n  ".join(missing)
assert not against, ("includes against the layer order " + " -> ".join(layers) + " (CMakeLists.txt):\n  " +
                     "\n  ".join(against))
print(f"include graph: {checked} project includes ({prefixed} through rigidbench/) resolve in the source tree; "
      f"none against the layer order {' -> '.join(layers)}")
