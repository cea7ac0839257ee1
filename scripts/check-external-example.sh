#!/usr/bin/env bash
# The acceptance path of a user's own project (docs/extending.md), as CI runs it: install rigidbench
# from a build folder into a temporary prefix, copy examples/external_scheme into an unrelated folder,
# configure and build it against the prefix with find_package only, and check that its program is a
# complete rigidbench with the outside scheme and problem beside the built-in ones: list, verify on
# two problems (the report lists the outside scheme with its verdicts), bench (instruction counts of
# the outside scheme under callgrind), compare and report (the renderer found in the prefix).
# Usage: scripts/check-external-example.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
PREFIX="$TMP/prefix"
cmake --install "$BUILD" --prefix "$PREFIX" > "$TMP/install.log"
for f in bin/rigidbench include/rigidbench/rigidbench.hpp lib/cmake/rigidbench/rigidbenchConfig.cmake \
         lib/cmake/rigidbench/rigidbenchConfigVersion.cmake share/rigidbench/render/render_report.py \
         share/rigidbench/schema/report-1.0.schema.json; do
  [ -e "$PREFIX/$f" ] || { echo "external example: the installation lacks $f" >&2; exit 1; }
done
# The installed headers need only the public dependencies (Eigen, nlohmann/json) besides the standard
# library and each other: no Boost, CLI11, Google Benchmark, SQLite, MPI or valgrind header.
private=$(grep -rhoE '^#include <[^>]+>' "$PREFIX/include/rigidbench" | sort -u |
          grep -vE '^#include <(Eigen/[A-Za-z]+|nlohmann/json(_fwd)?\.hpp|[a-z_]+|c[a-z]+)>$' || true)
[ -z "$private" ] || { echo "external example: installed headers include private dependencies:" >&2; echo "$private" >&2; exit 1; }
while IFS= read -r inc; do  # and every project include resolves inside the installed tree
  [ -e "$PREFIX/include/$inc" ] || { echo "external example: installed headers include $inc, which is not installed" >&2; exit 1; }
done < <(grep -rhoE '^#include "rigidbench/[^"]+"' "$PREFIX/include/rigidbench" | sed -E 's/^#include "(.*)"$/\1/' | sort -u)

# No installed binary or module searches the folder it is run from (docs/security.md).
python3 tests/runpath.py "$PREFIX/bin/rigidbench" "$PREFIX"
# The installed command finds its data in the prefix, not in the source tree.
"$PREFIX/bin/rigidbench" --version | tee "$TMP/version.txt"
grep -qx "data: $PREFIX/share/rigidbench" "$TMP/version.txt" || {
  echo "external example: the installed rigidbench does not use $PREFIX/share/rigidbench" >&2; exit 1; }

cp -r examples/external_scheme "$TMP/project"
start=$(date +%s%N)
cmake -S "$TMP/project" -B "$TMP/project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" > "$TMP/configure.log"
cmake --build "$TMP/project/build" > "$TMP/build.log"
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
printf 'external example: configure + build of the find_package project took %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
B="$TMP/project/build/mybench"

"$B" list | grep -A1 "^  lie_midpoint_explicit " | grep -q "registered by this program" || {
  echo "external example: 'mybench list' does not show the outside scheme" >&2; exit 1; }
"$B" list | grep -q "^  spinning_top" || { echo "external example: 'mybench list' does not show the outside problem" >&2; exit 1; }

rc=0
"$B" verify --integrator lie_midpoint_explicit terze --problem free_body spinning_top --quiet --out "$TMP/out" || rc=$?
[ "$rc" -le 1 ] || { echo "external example: verify failed with exit code $rc" >&2; exit 1; }
"$B" bench --integrator lie_midpoint_explicit --problem free_body spinning_top --quiet --min-time 0.001 \
  --repetitions 1 --icount-steps 200 --no-work-precision --out "$TMP/out"
"$B" compare --in "$TMP/out/report.json" --bench "$TMP/out/bench.json" --out "$TMP/out" > /dev/null
"$B" report --in "$TMP/out/report.json" --in "$TMP/out/bench.json" --in "$TMP/out/compare.json" --out "$TMP/out/html"

/usr/bin/python3 - "$TMP/out" <<'PY'
import json, sys, os
out = sys.argv[1]
rep = json.load(open(os.path.join(out, "report.json")))
mine = [r for r in rep["results"] if r["integrator"] == "lie_midpoint_explicit"]
problems = sorted(r["problem"] for r in mine)
assert problems == ["free_body", "spinning_top"], f"outside scheme ran on {problems}"
for r in mine:
    assert r["status"] == "ok", (r["problem"], r["status"], r["reason"])
    assert r["scheme"]["builtin"] is False
    att = r["convergence"]["attitude_error_final"]
    assert att["verdict"] in ("pass", "fail", "undefined") and len(att["error"]) == len(att["h"]) > 0
    assert r["q_ii"]["verdict"] in ("pass", "fail", "undefined")
    inv = r["invariants"]["orthogonality"]
    assert inv["claim"] == "exact" and inv["verdict"] in ("pass", "fail"), inv
    print(f"external example: lie_midpoint_explicit on {r['problem']}: order {att['slope']:.3f} ({att['verdict']}), "
          f"Q_II {r['q_ii']['median']} ({r['q_ii']['verdict']}), orthogonality {inv['verdict']}")
bench = json.load(open(os.path.join(out, "bench.json")))
b = [e for e in bench["results"] if e["integrator"] == "lie_midpoint_explicit"]
assert len(b) == 2 and all(e["ns_per_step"] and e["ratio_to_baseline"] for e in b), b
for e in b:
    print(f"external example: lie_midpoint_explicit on {e['problem']}: {e['ratio_to_baseline']:.2f}x the baseline, "
          f"{e['instructions_per_step']} instructions per step")
cmp = json.load(open(os.path.join(out, "compare.json")))
assert "lie_midpoint_explicit" in json.dumps(cmp), "compare does not list the outside scheme"
html = open(os.path.join(out, "html", "index.html")).read()
assert "lie_midpoint_explicit" in html, "the HTML page does not show the outside scheme"
print("external example: ok")
PY
