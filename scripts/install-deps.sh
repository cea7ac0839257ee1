#!/usr/bin/env bash
# Installs every build and run dependency of rigidbench from Debian packages (README, "Set-up";
# nothing is vendored or downloaded at build time). Idempotent; needs root or sudo.
set -euo pipefail
PKGS=(build-essential cmake ninja-build git
      ccache                 # compiler cache, used by the build when present (cmake/build_speed.cmake)
      help2man man-db        # the man page, generated from the command's --help and read back (cmake/shell_docs.cmake)
      libeigen3-dev libboost-dev libbenchmark-dev nlohmann-json3-dev catch2 libcli11-dev
      libvalijson-dev python3 python3-matplotlib python3-jsonschema valgrind
      pybind11-dev python3-dev python3-numpy gfortran
      libxml2-utils clang    # xmllint checks the gate's JUnit; clang builds the portability check (docs/gate.md)
      libclang-rt-dev        # clang's ASan, UBSan and libFuzzer runtimes: the sanitize preset (docs/fuzzing.md)
      libsqlite3-dev         # the run history (docs/history.md)
      openmpi-bin libopenmpi-dev   # MPI ranks for verify/bench/gate --run (docs/scaling.md)
      poppler-utils chromium       # the report's fonts (pdffonts), the page in a browser (docs/reports.md), PhysX's runtime (docs/engines.md)
      python3-plotly               # the report's interactive figures (docs/reports.md, "Interactive figures")
      pkgconf libmujoco-dev libode-dev libbullet-dev libsimbody-dev libdart-dev   # physics engines judged as schemes (docs/engines.md)
      libomp-14-dev          # OpenMP for clang builds (gcc has libgomp): threads inside a unit (docs/decisions.md, "Parallel loads")
      libsundials-dev        # CVODE and ARKODE judged as adaptive schemes (docs/adaptive.md)
      nodejs)                # runs the engines that exist as npm packages, their WebAssembly builds (docs/engines.md)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian ships npm apart from nodejs; NodeSource's nodejs carries its own (and conflicts with Debian's).
command -v npm > /dev/null || dpkg-query -W -f='${Status}' npm 2>/dev/null | grep -q "install ok installed" || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} Debian packages present"
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The npm engines (engines/npm: the WebAssembly builds of MuJoCo 3, Jolt, Rapier, Bullet by ammo.js, Havok
# and PhysX - the last run in headless Chromium through playwright-core, which downloads no browser -
# and cannon-es and Oimo.js), at the versions of the committed lockfile;
# nothing is downloaded at run time. Without them everything else works: they are named absent.
npm_engines() {
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/engines/npm"
  if [ -f "$dir/node_modules/.package-lock.json" ] && cmp -s "$dir/package-lock.json" "$dir/.installed-lock" 2>/dev/null; then
    echo "install-deps: npm engines present (engines/npm)"
    return
  fi
  if npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error; then
    cp "$dir/package-lock.json" "$dir/.installed-lock"
    echo "install-deps: npm engines installed (engines/npm, npm ci)"
  else
    echo "install-deps: warning: npm ci failed in engines/npm; the npm engines (mujoco3_*, cannon_es, rapier*, jolt*, oimo, ammo*, havok, physx) will be absent" >&2
  fi
}
npm_engines
