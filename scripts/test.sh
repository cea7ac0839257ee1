#!/usr/bin/env bash
# Installs the dependencies, builds the release preset and runs the tests CI runs (label `fast`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
bash scripts/install-python.sh build/release   # `import rigidbench` (docs/python.md)
ctest --preset release -L fast "$@"
