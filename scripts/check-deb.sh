#!/usr/bin/env bash
# The Debian package as a user gets it (cmake/package.cmake; docs/decisions.md, "Debian package"), as
# CI runs it: build it with CPack from a build folder, check its control fields and contents, unpack
# it into a clean folder (dpkg-deb -x: what `apt install ./rigidbench_*.deb` puts under /, without
# touching this machine's /usr), and use what it holds from there - the command (its version, its data
# found in the package, a verify run and its report), the Python module, the man page and the bash
# completion. Then, as a new user would (issue 44's acceptance; docs/reports.md, "Overlaying runs"): a
# Python scheme and a C++ outside scheme built against the unpacked package, overlaid with a built-in
# run in one report whose convergence figure of the shared problem shows all three; bench output in a
# file without escape bytes; the interactive page in headless Chromium, neither blank nor colourless,
# with a hover read back through the browser. CTest runs it as `package.new_user` (label ci).
# Usage: scripts/check-deb.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build/release}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "deb: $*" >&2; exit 1; }

cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/package" > "$TMP/cpack.log" 2>&1 || { cat "$TMP/cpack.log" >&2; fail "cpack failed"; }
DEB=$(ls "$TMP"/package/rigidbench_*.deb)
version=$("$BUILD/cli/rigidbench" --version | awk 'NR == 1 { print $2 }')
[ "$(dpkg-deb -f "$DEB" Package)" = rigidbench ] || fail "the package is not named rigidbench"
[ "$(dpkg-deb -f "$DEB" Version)" = "$version" ] || fail "package version $(dpkg-deb -f "$DEB" Version), command $version"
for d in libeigen3-dev nlohmann-json3-dev python3-numpy libstdc++6; do
  dpkg-deb -f "$DEB" Depends | grep -q "$d" || fail "Depends lacks $d: $(dpkg-deb -f "$DEB" Depends)"
done

ROOT="$TMP/root"
dpkg-deb -x "$DEB" "$ROOT"
for f in usr/bin/rigidbench usr/include/rigidbench/rigidbench.hpp usr/lib/cmake/rigidbench/rigidbenchConfig.cmake \
         usr/share/rigidbench/render/render_report.py usr/share/rigidbench/schema/report-1.0.schema.json \
         usr/lib/python3/dist-packages/rigidbench/__init__.py usr/share/man/man1/rigidbench.1 \
         usr/share/bash-completion/completions/rigidbench usr/share/doc/rigidbench/LICENSE \
         usr/share/doc/rigidbench/CITATION.cff usr/share/doc/rigidbench/CHANGELOG.md; do
  [ -e "$ROOT/$f" ] || fail "the package lacks /$f"
done
ls "$ROOT"/usr/lib/librigidbench.so.* > /dev/null 2>&1 || fail "the package lacks the library"

# The command runs from the unpacked tree and finds its data there (not in this checkout).
B="$ROOT/usr/bin/rigidbench"
"$B" --version | grep -qx "data: $ROOT/usr/share/rigidbench" || fail "the packaged command does not use its own data"
"$B" verify --integrator terze --problem free_body --quiet --no-cache --out "$TMP/out/report.json" > /dev/null ||
  fail "verify from the package failed"
"$B" report --in "$TMP/out/report.json" --out "$TMP/out/html" --quiet
[ -s "$TMP/out/html/index.html" ] || fail "report wrote no page"
# The Python module, from the package's dist-packages, is the same version.
PYTHONPATH="$ROOT/usr/lib/python3/dist-packages" python3 -c \
  "import rigidbench, sys; sys.exit(0 if rigidbench.__version__ == '$version' and rigidbench.__file__.startswith('$ROOT') else 1)" ||
  fail "the packaged Python module is not importable from the package or not version $version"
# The man page lists the commands; completion completes one.
page=$(MANWIDTH=200 man -l "$ROOT/usr/share/man/man1/rigidbench.1" 2>/dev/null)
commands=$("$B" --help | awk '/^Subcommands:/ { f = 1; next } f && NF { print $1 }')
[ "$(wc -w <<< "$commands")" -ge 10 ] || fail "'rigidbench --help' lists only: $commands"
for c in $commands; do
  grep -q "Command $c:" <<< "$page" || fail "the packaged man page has no section for '$c'"
done
got=$(bash -c 'source "$0"; COMP_WORDS=(rigidbench ver); COMP_CWORD=1; _rigidbench; echo "${COMPREPLY[*]}"' \
      "$ROOT/usr/share/bash-completion/completions/rigidbench")
[ "$got" = verify ] || fail "bash completion completes 'rigidbench ver' to '$got'"

# --- A new user's first hour, from the unpacked package only -----------------------------------
U="$TMP/user"
mkdir -p "$U"
export PYTHONPATH="$ROOT/usr/lib/python3/dist-packages"
# 1. Their Python scheme (the numpy example) on two problems.
python3 examples/python/lie_midpoint.py --out "$U/python.json" free_body heavy_top > "$U/python.log" 2>&1 ||
  { cat "$U/python.log" >&2; fail "the Python scheme did not verify"; }
# 2. Their C++ scheme in their own project, found through the package's CMake files.
cp -r examples/external_scheme "$U/project"
cmake -S "$U/project" -B "$U/project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$ROOT/usr"   > "$U/configure.log" 2>&1 || { cat "$U/configure.log" >&2; fail "the C++ project does not configure against the package"; }
cmake --build "$U/project/build" > "$U/build.log" 2>&1 || { cat "$U/build.log" >&2; fail "the C++ project does not build"; }
rc=0
"$U/project/build/mybench" verify --integrator lie_midpoint_explicit --problem free_body --quiet --out "$U/cxx.json" || rc=$?
[ "$rc" -le 1 ] || fail "the C++ outside scheme's verify exited $rc"
# 3. A built-in scheme, run separately, and everything in one report.
rc=0
"$B" verify --integrator terze --problem free_body heavy_top --quiet --out "$U/builtin.json" || rc=$?
[ "$rc" -le 1 ] || fail "the built-in verify exited $rc"
"$B" report --in "$U/builtin.json" --in "$U/python.json" --in "$U/cxx.json" --out "$U/html" --quiet ||
  fail "report could not overlay the three runs"
# 4. bench into a file: plain text.
"$B" bench --integrator terze --problem free_body --min-time 0.001 --repetitions 1 --icount-steps 100   --no-work-precision --out "$U/bench" > "$U/bench.txt" 2>&1 || fail "bench failed"
if grep -q $'\x1b' "$U/bench.txt"; then fail "bench output redirected to a file has escape bytes"; fi
# 5. What the report shows, from its manifest; the interactive page in a browser.
/usr/bin/python3 - "$U" "$(command -v chromium || true)" <<'PY'
import json, os, subprocess, sys, tempfile
u, chromium = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(u, "html", "manifest.json")))
figs = {f["name"]: f for f in m["figures"]}
want = {"terze", "lie_midpoint_python", "lie_midpoint_explicit"}
conv = figs.get("convergence_free_body")
assert conv and want <= set(conv["series"]), f"convergence_free_body shows {conv and conv['series']}, not {sorted(want)}"
assert set(conv["inputs"]) == {"builtin", "python", "cxx"}, conv["inputs"]
ix_series = {s for f in m["interactive"]["figures"] if f["problem"] == "free_body" for s in f["series"]}
assert want <= ix_series, f"the interactive free_body figures show {sorted(ix_series)}"
builtin_colours = {st["color"] for n, st in m["styles"].items() if st["linestyle"] != ":"}
for n in ("lie_midpoint_python", "lie_midpoint_explicit"):
    assert m["styles"][n]["color"] not in builtin_colours, f"{n} has a built-in scheme's colour"
if not chromium:
    print("new user: no chromium - the browser checks are skipped"); sys.exit(0)
flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--virtual-time-budget=10000"]
page = os.path.join(u, "html", "interactive.html")
shot = os.path.join(u, "interactive.png")
with tempfile.TemporaryDirectory() as profile:
    subprocess.run([chromium, *flags, f"--user-data-dir={profile}", "--window-size=1400,1400", f"--screenshot={shot}",
                    "file://" + page], capture_output=True, timeout=180)
import matplotlib
matplotlib.use("Agg")
import matplotlib.image as mpimg
px = mpimg.imread(shot)
px = px.reshape(-1, px.shape[-1])[:, :3]
assert px.std() > 0.05, "the interactive page's screenshot is blank"
coloured = ((px.max(axis=1) - px.min(axis=1)) > 0.3).mean()
assert coloured > 1e-3, f"the interactive page's screenshot shows no colour ({coloured:.1e})"
# The hover: the browser moves the hover to the first point of the first figure (plotly's Fx.hover,
# as a pointer would) and the probe reads back the label the page shows.
probe = os.path.join(u, "html", "hover-probe.html")
html = open(page).read().replace("</body>", """<pre id="hover-probe">pending</pre><script>
window.addEventListener("load", function () { setTimeout(function () {
  var gd = document.querySelector("div.ix"), out = document.getElementById("hover-probe");
  try { Plotly.Fx.hover(gd, [{curveNumber: 0, pointNumber: 0}], "xy"); } catch (e) { out.textContent = "error: " + e; return; }
  setTimeout(function () { out.textContent = JSON.stringify(Array.from(document.querySelectorAll(".hovertext"))
    .map(function (n) { return n.textContent; })); }, 500);
}, 500); });</script></body>""")
open(probe, "w").write(html)
with tempfile.TemporaryDirectory() as profile:
    dom = subprocess.run([chromium, *flags, f"--user-data-dir={profile}", "--dump-dom", "file://" + probe],
                         capture_output=True, text=True, timeout=180).stdout
import re
got = re.search(r'<pre id="hover-probe">([^<]*)</pre>', dom)
label = json.loads(got.group(1).replace("&quot;", '"')) if got and got.group(1).startswith("[") else got and got.group(1)
assert isinstance(label, list) and label, f"no hover label: {label}"
first = next(f for f in m["interactive"]["figures"])
assert any(s in label[0] for s in first["series"]) and "h = " in label[0] and "error = " in label[0] and "cost" in label[0], label
print(f"new user: the overlay shows {sorted(want)} on free_body; interactive page rendered; hover shows '{label[0]}'")
PY
echo "deb: $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KiB): control fields, contents, the command, the Python module, man page and completion from the unpacked package, and a new user's overlay and interactive report: ok"
