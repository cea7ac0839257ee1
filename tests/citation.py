"""What a citable release ships agrees with itself (docs/bibliography.md, "Citing rigidbench"): the version of CMake's
project() is the one CITATION.cff gives, the one `rigidbench --version` prints and the newest one
CHANGELOG.md has released (an "Unreleased" section may stand above it); LICENSE is the Apache License
2.0 that CITATION.cff names. usage: citation.py VERSION RIGIDBENCH SOURCE_DIR"""
import os
import re
import subprocess
import sys

version, exe, src = sys.argv[1:4]
problems = []

cff = open(os.path.join(src, "CITATION.cff")).read()
m = re.search(r"^version:\s*\"?([^\s\"]+)\"?\s*$", cff, re.M)
if not m or m.group(1) != version:
    problems.append(f"CITATION.cff version {m.group(1) if m else None!r}, CMake {version!r}")
if not re.search(r"^license:\s*Apache-2\.0\s*$", cff, re.M):
    problems.append("CITATION.cff does not name the licence Apache-2.0")
if not re.search(r"^cff-version:\s*1\.2\.0\s*$", cff, re.M):
    problems.append("CITATION.cff is not cff-version 1.2.0")

out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
if not out.startswith(f"rigidbench {version} "):
    problems.append(f"rigidbench --version prints {out.splitlines()[0] if out else out!r}, CMake {version!r}")

headings = re.findall(r"^## (\S+)", open(os.path.join(src, "CHANGELOG.md")).read(), re.M)
released = [h for h in headings if h != "Unreleased"]
if not released or released[0] != version:
    problems.append(f"CHANGELOG.md's newest release is {released[:1]}, CMake {version!r}")

lic = open(os.path.join(src, "LICENSE")).read()
if "Apache License" not in lic or "Version 2.0, January 2004" not in lic:
    problems.append("LICENSE is not the Apache License 2.0")

if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print(f"ok: version {version} in CMake, CITATION.cff, --version and CHANGELOG.md; LICENSE Apache-2.0")
