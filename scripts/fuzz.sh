#!/usr/bin/env bash
# Fuzzes rigidbench's readers of outside input for SECONDS each (docs/fuzzing.md):
#   bash scripts/fuzz.sh SECONDS [TARGET...]     targets: problem_file gate_snapshot report trajectory manifest
#                                                         plugin_file history program_declaration
# Builds the sanitize preset's fuzz targets when needed (clang, ASan + UBSan + libFuzzer), starts each
# from its committed corpus (fuzz/corpus/<target>, copied: new inputs land in build/sanitize/fuzz-runs,
# never in the source tree) with its dictionary, and prints the executions per target and in total.
# Exit 0 when no target found anything; otherwise 1, with the crashing inputs in
# build/sanitize/fuzz-runs/artifacts (reproduce: build/sanitize/fuzz/fuzz_<target> <file>).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]] || [ "$1" -eq 0 ]; then
  echo "usage: bash scripts/fuzz.sh SECONDS [TARGET...]   (SECONDS > 0, per target)" >&2
  exit 2
fi
seconds=$1
shift
all=(problem_file gate_snapshot report trajectory manifest plugin_file history program_declaration)
targets=("${@:-${all[@]}}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (targets: ${all[*]})" >&2; exit 2; }
done

if [ ! -f build/sanitize/CMakeCache.txt ]; then cmake --preset sanitize > /dev/null; fi
cmake --build --preset sanitize -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

work=build/sanitize/fuzz-runs
mkdir -p "$work/artifacts"
# One target per core at a time (each libFuzzer run is one process on one core): the same SECONDS and
# the same executions per target as one after another, in 1/nproc of the wall time.
fuzz_one() {
  local t=$1 corpus="$work/corpus/$1" log="$work/$1.log"
  mkdir -p "$corpus" || return
  cp -n fuzz/corpus/"$t"/* "$corpus"/ || return
  # -max_len: room for nesting far past the reader's depth limit; -timeout: a hang is a finding.
  build/sanitize/fuzz/fuzz_"$t" "$corpus" -dict="fuzz/dict/$t.dict" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" > "$log" 2>&1
}
slots=$(nproc)
declare -A pid_of
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do wait -n || true; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
total=0
status=0
for t in "${targets[@]}"; do
  log="$work/$t.log"
  if ! wait "${pid_of[$t]}"; then
    status=1
    echo "fuzz.sh: $t FOUND A DEFECT - see $log and $work/artifacts/" >&2
    tail -n 40 "$log" >&2
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  runs=${runs:-0}
  total=$((total + runs))
  printf 'fuzz.sh: %-14s %12d executions in %s s (corpus %d inputs)\n' "$t" "$runs" "$seconds" "$(ls "$work/corpus/$t" | wc -l)"
done
printf 'fuzz.sh: %-14s %12d executions\n' "total" "$total"
exit $status
