#!/bin/sh
# Scores the Fortran program on two torque-free problems (docs/trajectory-files.md):
#   score.sh RIGIDBENCH LIE_MIDPOINT OUT_DIR
# For each problem: `rigidbench ladder` says what to write, the program writes one CSV per level,
# `rigidbench score` judges them against the declared order and claims (exit 1 = a failed verdict,
# which is a result: the report says which).
set -eu
RB="$1"; PROG="$2"; OUT="$3"
for P in free_body dzhanibekov; do
  rm -rf "$OUT/$P"
  mkdir -p "$OUT/$P"
  "$RB" ladder --problem "$P" --order 2 --out "$OUT/$P/ladder.txt"
  "$PROG" "$OUT/$P/ladder.txt" "$OUT/$P"
  rc=0
  "$RB" score --problem "$P" --trajectories "$OUT/$P" --name lie_midpoint_fortran --order 2 --claims constraint=exact \
    --title "Explicit Lie midpoint (RKMK2), in Fortran" --source "examples/fortran/lie_midpoint.f90" \
    --quiet --out "$OUT/$P/report.json" || rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
done
