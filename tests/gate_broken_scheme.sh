#!/usr/bin/env bash
# The gate against the committed baseline (blessed with the GCC release build), on one pair:
# the scheme as it is passes; the same scheme deliberately broken - RIG_IMP with its Newton
# tolerance loosened from 1e-14 to 1e-2, so its momentum is no longer exact, its map no longer
# symmetric and its errors rise -
# fails, with the verdicts that turned named. Both JUnit files validate against the Ant schema
# the project carries (xmllint, Debian libxml2-utils). docs/gate.md, "Tolerances".
# usage: gate_broken_scheme.sh RIGIDBENCH SOURCE_DIR TMP_DIR
set -euo pipefail
B=$1 SRC=$2 TMP=$3
mkdir -p "$TMP"
base=$SRC/baselines/quick-gate.json
xsd=$SRC/reports/schema/junit-ant.xsd
sel=(--integrator rig_imp --problem free_body)

"$B" verify "${sel[@]}" --quiet --out "$TMP/intact.json" > /dev/null
"$B" gate --current "$TMP/intact.json" --baseline "$base" "${sel[@]}" --accuracy-only --junit "$TMP/intact.xml" > "$TMP/intact.txt"
grep -q " 0 failed" "$TMP/intact.txt" || { cat "$TMP/intact.txt"; echo "FAIL: the intact scheme did not pass"; exit 1; }

"$B" verify "${sel[@]}" --quiet --set rig_imp.newton_tolerance=1e-2 --out "$TMP/broken.json" > /dev/null || true
rc=0
"$B" gate --current "$TMP/broken.json" --baseline "$base" "${sel[@]}" --accuracy-only --junit "$TMP/broken.xml" > "$TMP/broken.txt" || rc=$?
cat "$TMP/broken.txt"
[ "$rc" -eq 1 ] || { echo "FAIL: the broken scheme's gate exited $rc, expected 1"; exit 1; }
grep -q "invariant:momentum_x .*verdict turned from pass to fail" "$TMP/broken.txt" || { echo "FAIL: no verdict flip named"; exit 1; }
# A Newton solve stopped at 1e-2 no longer gives the implicit midpoint map, whose adjoint is itself.
grep -q "structure:symmetric .*verdict turned from pass to fail" "$TMP/broken.txt" || { echo "FAIL: the symmetry check did not turn"; exit 1; }
grep -q '<failure type="regression"' "$TMP/broken.xml" || { echo "FAIL: no JUnit failure"; exit 1; }

xmllint --noout --schema "$xsd" "$TMP/intact.xml" "$TMP/broken.xml"
echo "ok: intact passes, broken fails, JUnit valid"
