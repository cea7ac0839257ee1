"""The renderer against schema-valid but hostile reports (docs/security.md, "Report inputs"):
- a file name "<!--<script>..." put interactive.html's inline JSON into the script's double-escaped
  state and the page drew nothing: Debian's headless Chromium must draw every figure of the page;
- a plotly.min.js already in the output folder, of the right size but other content, was reused and
  run by the page: it must be replaced by Debian's plotly.js;
- a style with an unknown marker and arrays of unequal lengths crashed the renderer (exit 3, a
  traceback): the page is written, what could not be drawn is said on it;
- a write the system refuses (a file-size limit here, as a full disk) is exit 5 with the reason,
  no traceback.
usage: render_hostile.py RIGIDBENCH TMP_DIR"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

B, TMP = (os.path.abspath(a) for a in sys.argv[1:3])
shutil.rmtree(TMP, ignore_errors=True)
os.makedirs(TMP)
failures = []
REPORT = os.path.join(TMP, "r.json")
subprocess.run([B, "verify", "--integrator", "rkmk4", "--problem", "free_body", "--levels", "3", "--quiet", "--out", REPORT],
               env=dict(os.environ, RIGIDBENCH_CACHE_DIR=os.path.join(TMP, "cache")), capture_output=True, timeout=120)


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, flush=True)


def render(inputs, out, prefix=()):
    args = [*prefix, B, "report", "--quiet", "--out", out]
    for i in inputs:
        args += ["--in", i]
    return subprocess.run(args, capture_output=True, text=True, cwd=TMP, timeout=300)


def no_crash(r, what):
    check(r.returncode in (0, 2, 5) and "Traceback" not in r.stderr, f"{what}: exit {r.returncode}: {r.stderr[-500:]}")


with open(REPORT) as f:
    base = json.load(f)

# ---- names that try to leave the script element ---------------------------------------------------
weird = os.path.join(TMP, "<!--<script>&\u2028 <SCRIPT>.json")
shutil.copy(REPORT, weird)
out = os.path.join(TMP, "weird")
os.makedirs(out)
with open(os.path.join(out, "plotly.min.js"), "wb") as f:  # planted: the size of the real one, other bytes
    from plotly.offline import get_plotlyjs
    real = get_plotlyjs().encode()
    f.write(b"/*planted*/" + b" " * (len(real) - 11))
r = render([REPORT, weird], out)
no_crash(r, "a report named <!--<script>")
check(r.returncode == 0, f"a report named <!--<script>: exit {r.returncode}")
with open(os.path.join(out, "plotly.min.js"), "rb") as f:
    check(hashlib.sha256(f.read()).digest() == hashlib.sha256(real).digest(), "a planted plotly.min.js was kept")
with open(os.path.join(out, "interactive.html"), encoding="utf-8") as f:
    page = f.read()
scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
check(scripts, "interactive.html has no inline script")
for body in scripts:
    low = body.lower()
    check("<!--" not in low and "<script" not in low and "</script" not in low and "\u2028" not in body,
          "an inline script holds text the HTML parser reads as markup")
with open(os.path.join(out, "manifest.json")) as f:
    figures = len(json.load(f)["interactive"]["figures"])
chromium = shutil.which("chromium")
if chromium:
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync",
                          f"--user-data-dir={os.path.join(TMP, 'chromium')}", "--virtual-time-budget=10000", "--dump-dom",
                          "file://" + os.path.join(out, "interactive.html")], capture_output=True, text=True, timeout=120)
    drawn = dom.stdout.count('class="main-svg"')
    # plotly draws two <svg class="main-svg"> per figure (the plot and its hover layer).
    check(drawn >= figures > 0, f"Chromium drew {drawn} plotly layers for {figures} interactive figures")
else:
    print("render_hostile: chromium not installed; the page was not opened in a browser")

# ---- schema-valid values a figure cannot take ------------------------------------------------------
bad = json.loads(json.dumps(base))
for name in bad.get("styles", {}):
    bad["styles"][name]["marker"] = "Z"
first = next(x for x in bad["results"] if x.get("status") != "skipped" and "history" in x)
first["history"]["t"] = first["history"]["t"][:-3]
for c in first.get("convergence", {}).values():
    c["floor"] = c["floor"][:1]
with open(os.path.join(TMP, "bad.json"), "w") as f:
    json.dump(bad, f)
r = render([os.path.join(TMP, "bad.json")], os.path.join(TMP, "bad"))
no_crash(r, "unknown marker and unequal arrays")
check(r.returncode == 0, f"unknown marker and unequal arrays: exit {r.returncode}")
check("cannot be drawn" in r.stderr and "could not be drawn" in r.stderr, f"nothing said on stderr: {r.stderr[-300:]}")
if os.path.isfile(os.path.join(TMP, "bad", "index.html")):
    with open(os.path.join(TMP, "bad", "index.html")) as f:
        check("Not drawn" in f.read(), "the page does not say what was not drawn")

# ---- a write the system refuses --------------------------------------------------------------------
limited = ["sh", "-c", 'trap "" XFSZ; ulimit -f 64; exec "$0" "$@"']
r = render([REPORT], os.path.join(TMP, "full"), prefix=limited)
check(r.returncode == 5 and "Traceback" not in r.stderr and "cannot write" in r.stderr,
      f"a refused write: exit {r.returncode}: {r.stderr[-400:]}")

print(f"render_hostile: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
