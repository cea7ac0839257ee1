#!/usr/bin/python3
"""What an author submits (docs/reports.md, "Figures and tables"), checked on real reports (CTest
report.figures): renders them twice - whole, on screen, and a selection in a journal style - and fails
(exit 1, every problem listed) unless
- every scheme has one colour, marker and line style, the same in both renders, no two built-in schemes
  share a colour and no two shown schemes share a (colour, marker) pair;
- the selection shows only the selected schemes and problems;
- every PDF embeds its fonts as TrueType (pdffonts, Debian poppler-utils: no Type 3), every SVG keeps
  its text as <text>, the journal figures are at most the column width (pdfinfo);
- the CSV and LaTeX (booktabs) tables hold one row per pair that ran;
- headless Chromium renders the page: its screenshot is not blank and shows the figures' colours.

Usage: report_figures.py RIGIDBENCH CHROMIUM OUT_DIR VERIFY.json PAPER.json COMPARE.json
"""
import csv
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

problems = []


def check(cond, msg):
    if not cond:
        problems.append(msg)


def render(exe, out, inputs, *opts):
    shutil.rmtree(out, ignore_errors=True)
    args = [exe, "report", "--out", out, "--format", "png,svg,pdf", "--quiet", *opts]
    for i in inputs:
        args += ["--in", i]
    r = subprocess.run(args, capture_output=True, text=True)
    check(r.returncode == 0, f"report {' '.join(opts)}: exit {r.returncode}: {r.stderr.strip()}")
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def main(argv):
    if len(argv) != 7:
        print(__doc__, file=sys.stderr)
        return 2
    exe, chromium, out, verify_p, paper_p, compare_p = argv[1:]
    inputs = [verify_p, paper_p, compare_p]
    whole = render(exe, os.path.join(out, "whole"), inputs)
    sel_int, sel_prob = ["rig_*", "lgvi"], ["heavy_top"]
    part_dir = os.path.join(out, "journal")
    part = render(exe, part_dir, inputs, "--style", "journal-double", "--integrator", sel_int[0], "--integrator",
                  sel_int[1], "--problem", sel_prob[0], "--inline")
    # --inline: one self-contained page, every PNG in it (the default links them: check_render.py).
    with open(os.path.join(part_dir, "index.html")) as f:
        inlined = f.read().count('src="data:image/png;base64,')
    check(inlined == len(part["figures"]), f"--inline: {inlined} images inlined for {len(part['figures'])} figures")

    # One style per scheme, everywhere.
    sw, sp = whole["styles"], part["styles"]
    for n, st in sp.items():
        check(sw.get(n) == st, f"{n}: style {st} in the selection, {sw.get(n)} in the whole report")
    pairs = [(st["color"], st["marker"]) for st in sw.values()]
    check(len(set(pairs)) == len(pairs), "two schemes share a (colour, marker) pair")
    builtin_colours = [st["color"] for n, st in sw.items() if st["linestyle"] != ":"]
    check(len(set(builtin_colours)) == len(builtin_colours), "two built-in schemes share a colour")
    check(len(sw) > 10, f"only {len(sw)} schemes shown: the fixed styles are not exercised beyond 10")

    # The selection.
    for it in part["figures"]:
        for n in it["series"]:
            check(any(fnmatch.fnmatchcase(n, p) for p in sel_int), f"journal/{it['name']} shows {n}, not selected")
        check(it["problem"] in (None, *sel_prob), f"journal/{it['name']} is about {it['problem']}, not selected")
    check(any(it["name"] == "error_time_heavy_top" for it in part["figures"]), "no error-vs-time figure")

    # Fonts and sizes.
    for m, d in ((whole, os.path.join(out, "whole")), (part, part_dir)):
        for it in m["figures"]:
            pdf = os.path.join(d, it["files"]["pdf"])
            fonts = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout.splitlines()[2:]
            check(fonts, f"{pdf}: no fonts")
            for line in fonts:
                check("Type 3" not in line and "TrueType" in line, f"{pdf}: font not TrueType: {line}")
                check(re.search(r"\byes\s+yes\b", line) is not None, f"{pdf}: font not embedded: {line}")
            with open(os.path.join(d, it["files"]["svg"])) as f:
                check("<text" in f.read(), f"{it['files']['svg']}: text drawn as paths")
    for it in part["figures"]:
        info = subprocess.run(["pdfinfo", os.path.join(part_dir, it["files"]["pdf"])], capture_output=True, text=True).stdout
        w = float(re.search(r"Page size:\s+([\d.]+)", info).group(1))
        check(w <= 7.16 * 72 * 1.02, f"journal/{it['name']}: {w / 72:.2f} in wide, beyond the 7.16 in column")

    # Tables.
    with open(verify_p) as f:
        ran = [r for r in json.load(f)["results"] if r["status"] != "skipped"]
    with open(os.path.join(out, "whole", "tables", "verdicts.csv")) as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == len(ran), f"verdicts.csv: {len(rows)} rows for {len(ran)} pairs")
    check({(r["scheme"], r["problem"]) for r in rows} == {(r["integrator"], r["problem"]) for r in ran},
          "verdicts.csv: the pairs differ from the report's")
    with open(os.path.join(out, "whole", "tables", "verdicts.tex")) as f:
        tex = f.read()
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        check(rule in tex, f"verdicts.tex: no {rule}")
    body = tex.split("\\midrule")[1].split("\\bottomrule")[0]
    check(body.count("\\\\") == len(ran), f"verdicts.tex: {body.count(chr(92) * 2)} rows for {len(ran)} pairs")
    check("rig\\_pos" in body and "rig_pos" not in body, "verdicts.tex: underscores not escaped")

    # The page in a browser.
    shot = os.path.join(out, "screenshot.png")
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={profile}", "--hide-scrollbars", "--window-size=1400,3000",
                            f"--screenshot={shot}", "file://" + os.path.abspath(os.path.join(out, "whole", "index.html"))],
                           capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and os.path.isfile(shot), f"chromium: exit {r.returncode}, no screenshot")
    if os.path.isfile(shot):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.image as mpimg
        img = mpimg.imread(shot)
        px = img.reshape(-1, img.shape[-1])[:, :3]
        coloured = ((px.max(axis=1) - px.min(axis=1)) > 0.3).mean()  # saturated pixels: lines, verdicts
        check(px.std() > 0.05, "the screenshot is blank")
        check(coloured > 1e-3, f"the screenshot shows no colour ({coloured:.1e} of its pixels)")

    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"{out}: styles fixed for {len(sw)} schemes, selection, TrueType fonts, SVG text, tables, browser ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
