"""Text from inputs in the files people open (docs/decisions.md, "Text from inputs"): the renderer's
LaTeX cells escape every TeX special - '^' too, so TeX's ^^ notation cannot spell \\input - and drop
control characters; its CSV cells cannot be run as spreadsheet formulas.
usage: render_escapes.py RENDER_REPORT.py"""
import importlib.util
import re
import sys

spec = importlib.util.spec_from_file_location("render_report", sys.argv[1])
rr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rr)

problems = []
hostile = ["^^5cinput{/etc/passwd}", "\\input{x}", "a_b & c % d", "$x$ #1 ~ {y}", "bell\x07esc\x1b[2J", "plain_name"]
for s in hostile:
    t = rr.tex(s)
    # Outside the escapes, no TeX special may remain: strip the escapes and look.
    bare = re.sub(r"\\(textbackslash|textasciicircum|textasciitilde)\{\}|\\[{}$&#_%]", "", t)
    if re.search(r"[\\{}$&#^_%~]", bare):
        problems.append(f"tex({s!r}) = {t!r} keeps a TeX special")
    if any(ord(c) < 0x20 for c in t):
        problems.append(f"tex({s!r}) = {t!r} keeps a control character")
if rr.tex("plain_name") != "plain\\_name":
    problems.append("a plain name is changed beyond its underscore: " + rr.tex("plain_name"))

for s in ["=HYPERLINK(\"http://x\",\"y\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx"]:
    c = rr.csv_cell(s)
    if not (isinstance(c, str) and c.startswith("'")):
        problems.append(f"csv_cell({s!r}) = {c!r} can be run as a formula")
for v, want in [(-0.5, -0.5), (2, 2), (None, ""), ("pass", "pass"), ("lie_euler", "lie_euler")]:
    if rr.csv_cell(v) != want:
        problems.append(f"csv_cell({v!r}) = {rr.csv_cell(v)!r}, expected {want!r}")

if problems:
    sys.exit("FAIL:\n  " + "\n  ".join(problems))
print("render escapes: ok")
