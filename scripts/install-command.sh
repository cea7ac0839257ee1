#!/usr/bin/env bash
# Puts the built command on PATH (README, Set-up): a symbolic link named rigidbench to
# <build>/cli/rigidbench in /usr/local/bin (root, or with sudo), else in ~/.local/bin. The command
# stays in the build tree, so a rebuild updates it. Never replaces a file that is not such a link
# (a rigidbench installed by the Debian package or `cmake --install` is left alone). Idempotent.
#   bash scripts/install-command.sh [build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
EXE="$(cd "$BUILD/cli" 2>/dev/null && pwd)/rigidbench"
[ -x "$EXE" ] || { echo "install-command: $BUILD/cli/rigidbench is not built (build the preset first)" >&2; exit 1; }
if [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then
  DIR=/usr/local/bin SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
else
  DIR="$HOME/.local/bin" SUDO=""
fi
LINK="$DIR/rigidbench"
if [ -e "$LINK" ] && [ ! -L "$LINK" ]; then
  echo "install-command: $LINK exists and is not a link (an installed rigidbench?): left as it is; this build's command is $EXE"
  exit 0
fi
$SUDO mkdir -p "$DIR"
$SUDO ln -sfn "$EXE" "$LINK"
case ":$PATH:" in
  *":$DIR:"*) echo "install-command: rigidbench -> $EXE ($LINK, on PATH)" ;;
  *) echo "install-command: rigidbench -> $EXE ($LINK; add $DIR to PATH to call it as rigidbench)" ;;
esac
