#!/bin/sh
# The help text help2man turns into the man page (cmake/shell_docs.cmake): the program's own --help, then
# each command's, under a heading "Command NAME:" (a line help2man makes a section of its own).
# The program is $RIGIDBENCH_MAN_EXE; help2man calls this script with --help or --version.
set -eu
B="$RIGIDBENCH_MAN_EXE"
if [ "${1:-}" = "--version" ]; then exec "$B" --version; fi
"$B" --help | sed "s|^Usage: .*/rigidbench|Usage: rigidbench|"
for c in $("$B" --help | awk '/^Subcommands:/ { f = 1; next } f && NF { print $1 }'); do
  echo
  echo "Command $c:"
  "$B" "$c" --help | sed "s|^Usage: .*/rigidbench|\nUsage: rigidbench|; s|^|  |"
done
