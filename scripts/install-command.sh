#!/usr/bin/env bash
# Puts the built command on PATH (README, Set-up): a symbolic link named rigidbench to
# <build>/cli/rigidbench in /usr/local/bin (root, or with sudo), else in ~/.local/bin. The command
# stays in the build tree, so a rebuild updates it. Replaces only a link to this checkout's command or
# a link that leads nowhere (a deleted checkout): a file (the Debian package's, `cmake --install`'s)
# or a link to another checkout is left alone, and the script says so. Idempotent.
#   bash scripts/install-command.sh [build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
if [ ! -x "$BUILD/cli/rigidbench" ]; then
  echo "install-command: $BUILD/cli/rigidbench is not built (build the preset first)" >&2
  exit 1
fi
EXE="$(cd "$BUILD/cli" && pwd)/rigidbench"
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
if [ -L "$LINK" ] && [ -e "$LINK" ] && [ "$(readlink "$LINK")" != "$EXE" ]; then
  echo "install-command: $LINK leads to $(readlink "$LINK") (another checkout): left as it is; this build's command is $EXE" \
       "(ln -sfn '$EXE' '$LINK' to change it)"
  exit 0
fi
$SUDO mkdir -p "$DIR"
$SUDO ln -sfn "$EXE" "$LINK"
case ":$PATH:" in
  *":$DIR:"*) echo "install-command: rigidbench -> $EXE ($LINK, on PATH)" ;;
  *) echo "install-command: rigidbench -> $EXE ($LINK; add $DIR to PATH to call it as rigidbench)" ;;
esac
