#!/usr/bin/env bash
# Looks at the HTML report the way a reader does: Debian's headless Chromium renders
# OUT/report/index.html to a PNG (default rigidbench-out/report/screenshot.png), by default its first
# screen (1400 x 1400 px: the ranking and the failed claims; HEIGHT=6000 for more of the page).
# Fails when Chromium wrote nothing. Installs the chromium package when missing
# (scripts/install-deps.sh installs it for the report.figures test).
set -euo pipefail
cd "$(dirname "$0")/.."
PAGE="${1:-rigidbench-out/report/index.html}"
SHOT="${2:-$(dirname "$PAGE")/screenshot.png}"
[ -f "$PAGE" ] || { echo "screenshot: '$PAGE' does not exist (run scripts/main-job.sh first)" >&2; exit 2; }
if ! command -v chromium >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
rm -f "$SHOT"   # a screenshot of an earlier run is not this one
PROFILE="$(mktemp -d)"
trap 'rm -rf "$PROFILE"' EXIT
# The flags keep Chromium off the network (this machine's network is closed) and out of the sandbox
# it cannot create as root.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$PROFILE" --hide-scrollbars \
  --window-size=1400,"${HEIGHT:-1400}" --screenshot="$SHOT" "file://$(realpath "$PAGE")" 2>/dev/null || true
[ -s "$SHOT" ] || { echo "screenshot: chromium wrote nothing to '$SHOT'" >&2; exit 1; }
echo "screenshot: $SHOT"
