#!/bin/bash
# Lines of library C++ (every layer, the public header and the Python module; not tests, fuzz
# targets or data) at a revision, or in the working tree without one: the measure issue 68 states its
# reduction in. Usage: scripts/library-lines.sh [REVISION]
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(core problems integrators reference verification benchmarks reports tracking cli engines python rigidbench.hpp)
if [ $# -ge 1 ]; then
  git ls-tree -r --name-only "$1" -- "${dirs[@]}" | grep -E '\.(cpp|hpp|h|in)$' | while read -r f; do git show "$1:$f"; done | wc -l
else
  git ls-files -co --exclude-standard -- "${dirs[@]}" | grep -E '\.(cpp|hpp|h|in)$' | xargs cat | wc -l
fi
