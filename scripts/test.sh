#!/usr/bin/env bash
# Installs the dependencies, builds the release preset and runs the tests CI runs (label `fast`).
# Each stage is timed (scripts/stages.sh): the table at the end, build/test-stages.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export RIGIDBENCH_STAGE_JSON="${RIGIDBENCH_STAGE_JSON:-build/test-stages.json}"
source scripts/stages.sh
trap stage_table EXIT
stage "install" bash scripts/install-deps.sh
release_build() {
  cmake --preset release || return
  cmake --build --preset release -j "$(nproc)"
}
stage "release build" release_build
stage "python module" bash scripts/install-python.sh build/release   # `import rigidbench` (docs/python.md)
stage "command on PATH" bash scripts/install-command.sh build/release  # `rigidbench` in a shell (README)
stage "fast label" ctest --preset release -L fast "$@"
