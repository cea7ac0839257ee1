#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job: the default head-to-head verification
# (quick suite, every registered scheme on every applicable catalogue problem) and a short
# benchmark pass, with every output under one folder (default: ./rigidbench-out).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-rigidbench-out}"
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
mkdir -p "$OUT"
status=0
./build/release/cli/rigidbench verify --suite quick --out "$OUT/verify-quick.json" || status=$?
./build/release/benchmarks/rigidbench_bench --benchmark_min_time=0.05 \
  --benchmark_out="$OUT/bench.json" --benchmark_out_format=json
echo "main job: report $OUT/verify-quick.json, benchmark $OUT/bench.json (verify exit code $status)"
exit "$status"
