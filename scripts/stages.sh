# Stage timing for the project's scripts (sourced, not run): .ci/run, scripts/test.sh and
# scripts/main-job.sh time each of their stages with it (docs/decisions.md, "Build time").
#
#   source scripts/stages.sh
#   stage "release build" cmake --build --preset release -j2    # runs the command, records its times
#   stage_table                                                  # prints the table, writes the JSON
#
# A stage's wall time is the elapsed time of its command; its CPU time is the user + system time of
# the processes the shell waited for during it (bash's `times`: compilers, ctest and its tests,
# valgrind...), so CPU/wall near 2 means both cores were busy. Every stage appends one line to
# $RIGIDBENCH_STAGE_LOG (tab-separated: name, wall s, CPU s, exit code, nesting depth); a script that calls another
# one that also times its stages (.ci/run -> scripts/test.sh) shares the log through the environment,
# so one table holds both. stage_table writes the log as JSON to $RIGIDBENCH_STAGE_JSON (default
# build/ci-stages.json) and prints it, slowest first, with the total.
#
# A stage that is a shell function must stop at its first failing command by itself: `stage` runs
# the command as `"$@" || rc=$?`, and bash ignores `set -e` inside anything run in such a list, so
# in `f() { a; b; }` a failing a is masked by b's exit 0. Write `a || return` (or `a && b`); the
# test ci.stage_timer checks the stage functions of .ci/run, test.sh and main-job.sh for it.

if [ -z "${RIGIDBENCH_STAGE_LOG:-}" ]; then
  mkdir -p build
  RIGIDBENCH_STAGE_LOG="$PWD/build/.stages.$$.tsv"
  : > "$RIGIDBENCH_STAGE_LOG"
  export RIGIDBENCH_STAGE_LOG
  RIGIDBENCH_STAGE_OWNER=$$     # the script that created the log prints the table
fi

# Children's user + system seconds so far, into _stage_cpu_s (the second line of `times`, e.g.
# "1m2.345s 0m0.678s"). `times` must run in this shell - in a $(...) subshell the children's times
# start at zero - so the function sets a variable and is never called inside $(...).
_stage_cpu() {
  times > "$RIGIDBENCH_STAGE_LOG.times.$$"
  _stage_cpu_s=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
                               printf "%.2f", s }' "$RIGIDBENCH_STAGE_LOG.times.$$")
  rm -f "$RIGIDBENCH_STAGE_LOG.times.$$"
}

stage() {  # stage NAME COMMAND [ARGS...]: runs the command; its exit code is the stage's
  local name=$1 rc=0 t0 c0 t1 c1 depth=${RIGIDBENCH_STAGE_DEPTH:-0}
  shift
  echo "== stage: $name" >&2
  t0=$(date +%s.%N)
  _stage_cpu
  c0=$_stage_cpu_s
  RIGIDBENCH_STAGE_DEPTH=$((depth + 1)) "$@" || rc=$?
  t1=$(date +%s.%N)
  _stage_cpu
  c1=$_stage_cpu_s
  printf '%s\t%s\t%s\t%d\t%d\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
    "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }')" "$rc" "$depth" >> "$RIGIDBENCH_STAGE_LOG"
  echo "== stage: $name: exit $rc, $(tail -n 1 "$RIGIDBENCH_STAGE_LOG" | cut -f2) s wall" >&2
  return "$rc"
}

stage_table() {  # prints the stages (slowest first) and writes them as JSON; a no-op in a nested script
  [ "${RIGIDBENCH_STAGE_OWNER:-}" = "$$" ] || return 0
  local json="${RIGIDBENCH_STAGE_JSON:-build/ci-stages.json}"
  mkdir -p "$(dirname "$json")"
  awk -F '\t' -v rev="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" '
    { name[NR] = $1; wall[NR] = $2; cpu[NR] = $3; rc[NR] = $4; depth[NR] = $5; if ($5 == 0) { tw += $2; tc += $3 } }
    END {
      printf "{\n  \"revision\": \"%s\",\n  \"total_wall_s\": %.1f,\n  \"total_cpu_s\": %.1f,\n  \"stages\": [\n", rev, tw, tc
      for (i = 1; i <= NR; i++)
        printf "    {\"name\": \"%s\", \"wall_s\": %s, \"cpu_s\": %s, \"exit\": %d, \"depth\": %d}%s\n", name[i], wall[i], cpu[i], rc[i], depth[i], i < NR ? "," : ""
      printf "  ]\n}\n"
    }' "$RIGIDBENCH_STAGE_LOG" > "$json.tmp" && mv "$json.tmp" "$json"
  echo
  printf '%-40s %9s %9s %5s\n' "stage (slowest first; nested: indented)" "wall s" "CPU s" "exit"
  sort -t $'\t' -k2,2 -rn "$RIGIDBENCH_STAGE_LOG" |
    awk -F '\t' '{ printf "%-40s %9.1f %9.1f %5d\n", sprintf("%*s%s", 2 * $5, "", $1), $2, $3, $4
                   if ($5 == 0) { tw += $2; tc += $3 } }
                 END { printf "%-40s %9.1f %9.1f\n", "total (outermost stages)", tw, tc }'
  echo "(written to $json)"
  rm -f "$RIGIDBENCH_STAGE_LOG"
}
