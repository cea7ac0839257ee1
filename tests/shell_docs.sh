#!/usr/bin/env bash
# The man page and the bash completion built from the command (cmake/shell_docs.cmake): completion
# completes a command, an option of that command and a scheme name; the man page has a section for
# every command `rigidbench --help` lists. usage: shell_docs.sh RIGIDBENCH BUILD_DIR
set -euo pipefail
B=$1 BUILD=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
complete_words() {  # words... -> what completion offers for the last one
  bash -c 'source "$0"; COMP_WORDS=("${@}"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _rigidbench; echo "${COMPREPLY[*]}"' \
    "$BUILD/rigidbench.bash" "$@"
}
[ "$(complete_words rigidbench ver)" = "verify" ] || fail "'rigidbench ver' completes to '$(complete_words rigidbench ver)'"
[ "$(complete_words rigidbench verify --integ)" = "--integrator" ] || fail "verify --integ: '$(complete_words rigidbench verify --integ)'"
[ "$(complete_words rigidbench compare --re)" = "--report" ] || fail "compare --re: '$(complete_words rigidbench compare --re)'"
[ "$(complete_words rigidbench verify --integrator terz)" = "terze" ] || fail "--integrator terz"
[ "$(complete_words rigidbench verify --problem heavy)" = "heavy_top heavy_top_realisable" ] || fail "--problem heavy"
echo "ok: bash completion completes commands, options and names"

if [ ! -f "$BUILD/rigidbench.1" ]; then
  echo "skipped: no man page (help2man is not installed)"; exit 0
fi
page=$(MANWIDTH=200 man -l "$BUILD/rigidbench.1" 2>/dev/null)
for c in $("$B" --help | awk '/^Subcommands:/ { f = 1; next } f && NF { print $1 }'); do
  grep -q "Command $c:" <<< "$page" || fail "the man page has no section for '$c'"
done
grep -q -- "--integrator" <<< "$page" || fail "the man page lists no options"
for section in "EXIT STATUS" "ENVIRONMENT" "SEE ALSO"; do
  grep -q "^$section" <<< "$page" || fail "the man page has no $section section"
done
grep -q "RIGIDBENCH_CACHE_DIR" <<< "$page" || fail "ENVIRONMENT does not name RIGIDBENCH_CACHE_DIR"
# The installed page is the same file: no path of this build or source tree in it.
src=$(cd "$(dirname "$0")/.." && pwd)
! grep -q -e "$BUILD" -e "$src" "$BUILD/rigidbench.1" || fail "the man page holds a build-tree path: $(grep -m1 -e "$BUILD" -e "$src" "$BUILD/rigidbench.1")"
# It renders without groff warnings (a line help2man or a help text made that troff misreads).
warnings=$(groff -man -Tutf8 -ww -z "$BUILD/rigidbench.1" 2>&1 || true)
[ -z "$warnings" ] || fail "groff warns on the man page: $(head -3 <<< "$warnings")"
echo "ok: the man page has a section for every command, EXIT STATUS, ENVIRONMENT, no build path, no groff warning"
