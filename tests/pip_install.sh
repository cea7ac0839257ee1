#!/usr/bin/env bash
# `pip install` of the Python module from the source tree (setup.py; docs/python.md, "pip install"),
# as the docs say, with no network: a venv with Debian's site packages (PEP 668 keeps pip out of
# Debian's python3), pip install --no-build-isolation --no-index, then the module used from outside
# the tree: its version is the command's, it is the venv's copy, librigidbench is the one beside it,
# it verifies a scheme, and it names an engine as absent (the wheel has none).
# usage: pip_install.sh SOURCE_DIR RIGIDBENCH_EXE
set -euo pipefail
SRC=$1 EXE=$2
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
/usr/bin/python3 -m venv --system-site-packages "$TMP/venv"
export CMAKE_BUILD_PARALLEL_LEVEL=2 RIGIDBENCH_CMAKE_ARGS="-DRIGIDBENCH_WERROR=ON"
start=$(date +%s)
"$TMP/venv/bin/pip" install --no-build-isolation --no-index --quiet "$SRC" > "$TMP/pip.log" 2>&1 ||
  { tail -40 "$TMP/pip.log" >&2; fail "pip install failed"; }
echo "ok: pip install took $(( $(date +%s) - start )) s"
version=$("$EXE" --version | awk 'NR == 1 { print $2 }')
cd "$TMP"
env -u PYTHONPATH -u LD_PRELOAD "$TMP/venv/bin/python" - "$version" "$TMP/venv" <<'PY' || fail "the installed module"
import os, subprocess, sys
version, venv = sys.argv[1], os.path.realpath(sys.argv[2])
import rigidbench
from rigidbench import _rigidbench
assert rigidbench.__version__ == version, (rigidbench.__version__, version)
pkg = os.path.dirname(os.path.realpath(rigidbench.__file__))
assert pkg.startswith(venv), f"imported {pkg}, not the venv's copy"
ldd = subprocess.run(["ldd", _rigidbench.__file__], capture_output=True, text=True).stdout
lib = [l for l in ldd.splitlines() if "librigidbench" in l]
assert lib and pkg in lib[0], f"librigidbench resolved to {lib}"
out = os.path.join(os.getcwd(), "report.json")
rigidbench.verify("terze", ["free_body"], out=out, progress=False)
import json
r = json.load(open(out))
assert r["results"][0]["status"] == "ok" and r["results"][0]["convergence"]["attitude_error_final"]["verdict"] == "pass", r["results"][0]["status"]
# The wheel has no engines (docs/python.md): a variant is named as absent, not unknown.
assert not [s for s in rigidbench.schemes() if s["name"].startswith("mujoco_")]
try:
    rigidbench.verify("mujoco_euler", ["free_body"], progress=False)
    raise AssertionError("an engine's variant ran in the wheel")
except rigidbench.InputError as e:
    assert "was not found when this build was configured" in str(e), e
print(f"ok: rigidbench {rigidbench.__version__} from {pkg}, librigidbench beside it, terze verified on free_body")
PY
