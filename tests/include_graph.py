"""The include graph from the source tree alone (docs/architecture.md, "Layout" and "Layers"):
- every project include of every C++ file in the repository resolves, without a build, relative to
  the including file (as it resolves in the installed tree, <prefix>/include/rigidbench/, too); only a
  template of a unit generated into the build tree (*.cpp.in) includes from the top of the source
  tree, the include root compile_flags.txt gives a tool such as clangd;
- every file of a layer (<layer>/ at the top of the checkout) includes only its own layer and the
  layers before it, in the order of the top CMakeLists.txt's list of layers; a program (a file that defines main())
  sits above the layers and may include any.
Fails, naming each offending file and include; also fails when compile_flags.txt names a root that
does not exist, when the list of layers cannot be read, or when fewer than 100 includes cross from one
layer to another (the check would then check nothing)."""
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
checked, crossing, missing, against = 0, 0, [], []
for dirpath, dirnames, files in os.walk(root):
    dirnames[:] = [d for d in dirnames if d not in SKIP and not d.startswith("build")]
    for f in files:
        if not f.endswith((".cpp", ".hpp", ".h", ".cpp.in")):
            continue
        path = os.path.join(dirpath, f)
        text = open(path, encoding="utf-8", errors="replace").read()
        rel = os.path.relpath(path, root).split(os.sep)
        layer = rel[0] if len(rel) > 1 and rel[0] in layers else None
        program = re.search(r"^int main\(", text, re.M) is not None
        where = [dirpath] + (roots if f.endswith(".cpp.in") else [])
        for inc in INCLUDE.findall(text):
            checked += 1
            found = [os.path.normpath(os.path.join(w, inc)) for w in where if os.path.isfile(os.path.join(w, inc))]
            if not found:
                missing.append(f"{os.path.relpath(path, root)}: #include \"{inc}\"")
                continue
            target = os.path.relpath(found[0], root).split(os.sep)
            to = target[0] if len(target) > 1 and target[0] in layers else None
            crossing += bool(to and layer and to != layer)
            if layer and to and not program and layers.index(to) > layers.index(layer):
                against.append(f"{os.path.relpath(path, root)} (layer {layer}): #include \"{inc}\"")

assert crossing > 100, f"only {crossing} includes cross from one layer to another: the layout this checks is gone"
assert not missing, "includes that do not resolve in the source tree:\n  " + "\n  ".join(missing)
assert not against, ("includes against the layer order " + " -> ".join(layers) + " (CMakeLists.txt):\n  " +
                     "\n  ".join(against))
print(f"include graph: {checked} project includes ({crossing} from one layer to another) resolve in the source "
      f"tree; none against the layer order {' -> '.join(layers)}")
