#!/usr/bin/env bash
# Makes `import rigidbench` work without setting paths by hand (README, Set-up; docs/python.md): writes
# rigidbench.pth (<build>/python/rigidbench.pth: the built package folder, and Debian's numpy for an
# interpreter without its own - python/rigidbench_debian_numpy.py) into the site-packages of Debian's
# python3 and of the python3 first on PATH when that is another interpreter of the same version
# (pyenv, a venv). The package stays in the build tree, so a rebuild updates it. Idempotent.
#   bash scripts/install-python.sh [build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
if ! ls "$BUILD"/python/rigidbench/_rigidbench*.so >/dev/null 2>&1; then
  echo "install-python: $BUILD/python/rigidbench has no built module (build the preset first; pybind11-dev needed)" >&2
  exit 1
fi
PKG="$(cd "$BUILD/python" && pwd)"
SO="$(ls "$PKG"/rigidbench/_rigidbench*.so | head -n1)"
interpreters=(/usr/bin/python3)
onpath="$(command -v python3 || true)"
if [ -n "$onpath" ]; then
  real="$("$onpath" -c 'import sys; print(sys.executable)')"
  [ "$real" != "/usr/bin/python3" ] && [ "$real" != "$(readlink -f /usr/bin/python3)" ] && interpreters+=("$real")
fi
for py in "${interpreters[@]}"; do
  [ -x "$py" ] || continue
  suffix="$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
  case "$SO" in
    *"$suffix") ;;
    *) echo "install-python: $py expects modules named *$suffix; the module is $(basename "$SO") - skipped"; continue ;;
  esac
  site="$("$py" -c 'import site; print(site.getsitepackages()[0])')"
  mkdir -p "$site"
  cp "$PKG/rigidbench.pth" "$site/rigidbench.pth"   # the package folder + Debian's numpy for an interpreter without one
  if (cd / && "$py" -c 'import numpy, rigidbench; rigidbench.problem("free_body")') >/dev/null; then
    echo "install-python: $py imports rigidbench from $PKG ($site/rigidbench.pth)"
  else
    echo "install-python: $py cannot import rigidbench after writing $site/rigidbench.pth" >&2
    exit 1
  fi
done
