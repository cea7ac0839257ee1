#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job: the default head-to-head verification
# (quick suite, every registered scheme on every applicable catalogue problem), the paper
# reproductions, a short benchmark pass (ratios to the in-run baseline, instruction counts,
# work-precision), the head-to-head comparison, and the HTML report rendered from those JSON files,
# every output under one folder (default: ./rigidbench-out).
# Each stage is timed (scripts/stages.sh): the table at the end, build/main-job-stages.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export RIGIDBENCH_STAGE_JSON="${RIGIDBENCH_STAGE_JSON:-build/main-job-stages.json}"
source scripts/stages.sh
trap stage_table EXIT
OUT="${1:-rigidbench-out}"
stage "install" bash scripts/install-deps.sh
release_build() {  # only what the job runs: the command and the Python module (the tests: scripts/test.sh)
  cmake --preset release || return
  cmake --build --preset release -j "$(nproc)" --target rigidbench_cli rigidbench_python
}
stage "release build" release_build
stage "python module" bash scripts/install-python.sh build/release   # `import rigidbench` (docs/python.md)
stage "command on PATH" bash scripts/install-command.sh build/release  # `rigidbench` in a shell (README)
B=./build/release/cli/rigidbench
mkdir -p "$OUT"
verdicts=0
run_verify() {  # exit 1 = a failed verdict not among the known findings (a result, in the report); >1 = the job failed
  local rc=0
  "$B" "$@" || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "main job: '$*' failed with exit code $rc (bad input or internal error)" >&2
    exit "$rc"
  fi
  if [ "$rc" -eq 1 ]; then verdicts=1; fi
}
# The project's known findings (baselines/expected-findings.json, docs/findings.md): the report marks
# each failed claim known or new on its first screen.
stage "quick suite" run_verify verify --suite quick --expect baselines/expected-findings.json --out "$OUT/verify-quick.json"
stage "paper suite" run_verify verify --suite paper --quiet --out "$OUT/verify-paper.json"
# Short benchmark pass: CPU time per step with ratios to the in-run RK4 baseline, instruction counts
# (callgrind), work-precision. Writes $OUT/bench.json (rigidbench) and $OUT/benchmark.json (Google
# Benchmark's own format).
stage "bench" "$B" bench --min-time 0.02 --repetitions 3 --out "$OUT"
# The conformance cards of the default selection (docs/card.md): cards.json, cards.md, index.html.
stage "cards" "$B" card --integrator all --expect baselines/expected-findings.json --quiet --out "$OUT/cards"
stage "compare" "$B" compare --in "$OUT/verify-quick.json" --bench "$OUT/bench.json" --out "$OUT"
stage "report" "$B" report --in "$OUT/verify-quick.json" --in "$OUT/verify-paper.json" --in "$OUT/bench.json" \
  --in "$OUT/compare.json" --in "$OUT/cards/cards.json" --out "$OUT/report"
echo
echo "main job done:"
echo "  HTML report:     $OUT/report/index.html (figures in $OUT/report/figures/)"
echo "  head-to-head:    $OUT/compare.md ($OUT/compare.json)"
echo "  cards:           $OUT/cards/index.html ($OUT/cards/cards.json, cards.md)"
echo "  verification:    $OUT/verify-quick.json, $OUT/verify-paper.json"
echo "  cost:            $OUT/bench.json, $OUT/benchmark.json (Google Benchmark format)"
if [ "$verdicts" -eq 1 ]; then
  # A failed verdict is a result, not a failure of the job: the report says which claim, with the
  # evidence. `rigidbench verify` itself exits 1.
  echo "verify: a verdict failed that is not a known finding, or a known one passed (the report's first screen marks it new)"
else
  echo "verify: every failed verdict is a known finding (docs/findings.md; the report's first screen lists them)"
fi
