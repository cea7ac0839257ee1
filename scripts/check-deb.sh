#!/usr/bin/env bash
# The Debian package as a user gets it (cmake/package.cmake; docs/decisions.md, "Debian package"), as
# CI runs it: build it with CPack from a build folder, check its control fields and contents, unpack
# it into a clean folder (dpkg-deb -x: what `apt install ./rigidbench_*.deb` puts under /, without
# touching this machine's /usr), and use what it holds from there - the command (its version, its data
# found in the package, a verify run and its report), the Python module, the man page and the bash
# completion. Usage: scripts/check-deb.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "deb: $*" >&2; exit 1; }

cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/package" > "$TMP/cpack.log" 2>&1 || { cat "$TMP/cpack.log" >&2; fail "cpack failed"; }
DEB=$(ls "$TMP"/package/rigidbench_*.deb)
version=$("$BUILD/cli/rigidbench" --version | awk 'NR == 1 { print $2 }')
[ "$(dpkg-deb -f "$DEB" Package)" = rigidbench ] || fail "the package is not named rigidbench"
[ "$(dpkg-deb -f "$DEB" Version)" = "$version" ] || fail "package version $(dpkg-deb -f "$DEB" Version), command $version"
for d in libeigen3-dev nlohmann-json3-dev python3-numpy libstdc++6; do
  dpkg-deb -f "$DEB" Depends | grep -q "$d" || fail "Depends lacks $d: $(dpkg-deb -f "$DEB" Depends)"
done

ROOT="$TMP/root"
dpkg-deb -x "$DEB" "$ROOT"
for f in usr/bin/rigidbench usr/include/rigidbench/rigidbench.hpp usr/lib/cmake/rigidbench/rigidbenchConfig.cmake \
         usr/share/rigidbench/render/render_report.py usr/share/rigidbench/schema/report-1.0.schema.json \
         usr/lib/python3/dist-packages/rigidbench/__init__.py usr/share/man/man1/rigidbench.1 \
         usr/share/bash-completion/completions/rigidbench usr/share/doc/rigidbench/LICENSE \
         usr/share/doc/rigidbench/CITATION.cff usr/share/doc/rigidbench/CHANGELOG.md; do
  [ -e "$ROOT/$f" ] || fail "the package lacks /$f"
done
ls "$ROOT"/usr/lib/librigidbench.so.* > /dev/null 2>&1 || fail "the package lacks the library"

# The command runs from the unpacked tree and finds its data there (not in this checkout).
B="$ROOT/usr/bin/rigidbench"
"$B" --version | grep -qx "data: $ROOT/usr/share/rigidbench" || fail "the packaged command does not use its own data"
"$B" verify --integrator terze --problem free_body --quiet --no-cache --out "$TMP/out/report.json" > /dev/null ||
  fail "verify from the package failed"
"$B" report --in "$TMP/out/report.json" --out "$TMP/out/html" --quiet
[ -s "$TMP/out/html/index.html" ] || fail "report wrote no page"
# The Python module, from the package's dist-packages, is the same version.
PYTHONPATH="$ROOT/usr/lib/python3/dist-packages" python3 -c \
  "import rigidbench, sys; sys.exit(0 if rigidbench.__version__ == '$version' and rigidbench.__file__.startswith('$ROOT') else 1)" ||
  fail "the packaged Python module is not importable from the package or not version $version"
# The man page lists the commands; completion completes one.
MANWIDTH=200 man -l "$ROOT/usr/share/man/man1/rigidbench.1" 2>/dev/null | grep -q "Command verify:" || fail "man page"
got=$(bash -c 'source "$0"; COMP_WORDS=(rigidbench ver); COMP_CWORD=1; _rigidbench; echo "${COMPREPLY[*]}"' \
      "$ROOT/usr/share/bash-completion/completions/rigidbench")
[ "$got" = verify ] || fail "bash completion completes 'rigidbench ver' to '$got'"
echo "deb: $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KiB): control fields, contents, the command, the Python module, man page and completion from the unpacked package: ok"
