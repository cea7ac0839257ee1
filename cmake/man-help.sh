#!/bin/sh
# The help text help2man turns into the man page (cmake/shell_docs.cmake): the program's own --help, then
# each command's, under a heading "Command NAME:" (a line help2man makes a section of its own).
# The program is $RIGIDBENCH_MAN_EXE; help2man calls this script with --help or --version.
set -eu
B="$RIGIDBENCH_MAN_EXE"
# The version line only: the next ("data: FOLDER") is where this build reads its data, a build-tree path
# that the installed page must not carry.
if [ "${1:-}" = "--version" ]; then "$B" --version | head -n 1; exit 0; fi
"$B" --help | sed "s|^Usage: .*/rigidbench|Usage: rigidbench|"
for c in $("$B" --help | awk '/^Subcommands:/ { f = 1; next } f && NF { print $1 }'); do
  echo
  echo "Command $c:"
  "$B" "$c" --help | sed "s|^Usage: .*/rigidbench|\nUsage: rigidbench|; s|^|  |"
done
