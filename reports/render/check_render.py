#!/usr/bin/python3
"""Checks a rendered report folder against the JSON it was rendered from (CTest report.render).

Usage: check_render.py OUT_DIR VERIFY.json PAPER.json BENCH.json

Fails (exit 1, every problem listed) unless: index.html and manifest.json exist; every figure of the
manifest exists in each format, PNGs and SVGs well formed; the page links one lazily loaded image per
figure, is under 2 MB, prints no NaN, and opens with "Who wins" listing every pair that failed a claim; each problem that ran has its convergence, Q_II and invariant figures showing
exactly the schemes that ran on it (and its long-time energy figure those with a long-time run); the work-precision figures show every scheme the bench report
swept; the paper figures show the paper report's schemes.
"""
import json
import os
import re
import sys


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    out, verify_p, paper_p, bench_p = argv[1:]
    problems = []

    def check(cond, msg):
        if not cond:
            problems.append(msg)

    index = os.path.join(out, "index.html")
    manifest_p = os.path.join(out, "manifest.json")
    check(os.path.isfile(index), "index.html missing")
    check(os.path.isfile(manifest_p), "manifest.json missing")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    with open(manifest_p) as f:
        manifest = json.load(f)
    with open(index) as f:
        page = f.read()
    figs = {it["name"]: it for it in manifest["figures"]}

    for it in manifest["figures"]:
        for fmt, rel in it["files"].items():
            path = os.path.join(out, rel)
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                problems.append(f"{it['name']}: {fmt} file missing or empty")
                continue
            with open(path, "rb") as f:
                head = f.read(512)
            if fmt == "png":
                check(head.startswith(b"\x89PNG\r\n\x1a\n"), f"{rel}: not a PNG")
            if fmt == "svg":
                check(b"<svg" in head or head.startswith(b"<?xml"), f"{rel}: not an SVG")
    # The figures are linked, fetched as the page is scrolled (docs/reports.md, "The first screen"):
    # one lazily loaded image per figure, each its PNG, and a page a reader opens at once.
    linked = re.findall(r'<img loading="lazy" alt="[^"]*" src="([^"]*)"', page)
    check(sorted(linked) == sorted(it["files"]["png"] for it in manifest["figures"] if "png" in it["files"]),
          f"index.html links {len(linked)} images lazily for {len(manifest['figures'])} figures")
    check(len(page.encode()) < 2_000_000, f"index.html is {len(page.encode())} bytes (at most 2 MB)")
    text = re.sub(r'src="data:[^"]*"', "", page)
    check(not re.search(r"\bnan\b", text, re.IGNORECASE), "index.html prints NaN")

    with open(verify_p) as f:
        verify = json.load(f)
    # The first screen: "Who wins" before the verdicts, and every pair with a failed check in its
    # table of failed claims.
    check(0 <= page.find('id="who-wins"') < page.find('id="summary"'), "no \"Who wins\" section before the verdicts")
    claims = page[page.find('id="who-wins"'):page.find('id="summary"')]
    for r in verify["results"]:
        if r["status"] != "skipped" and r["integrator"] + "</a></td><td>" + r["problem"] + "</td>" in claims:
            continue
        bad = [k for k, v in (r.get("invariants") or {}).items() if v.get("claim", "none") != "none" and v["verdict"] == "fail"]
        bad += [k for k, v in (r.get("convergence") or {}).items() if v.get("gating", True) and v["verdict"] == "fail"]
        check(r["status"] == "skipped" or not bad, f"{r['integrator']} x {r['problem']} failed {bad}, not in the failed claims")
    ran, adaptive = {}, {}
    for r in verify["results"]:
        if r["status"] != "skipped":
            # An adaptive scheme has a tolerance ladder instead of the step ladder: its own figure.
            (adaptive if r.get("tolerance_ladder") else ran).setdefault(r["problem"], set()).add(r["integrator"])
    for prob, names in adaptive.items():
        fig = figs.get(f"tolerance_{prob}")
        check(fig is not None and names <= set(fig["series"]), f"tolerance_{prob}: the adaptive schemes {sorted(names)} missing")
        for n in names:
            check(n in text, f"index.html never names {n}")
    for prob, names in ran.items():
        for kind in ("convergence", "invariants"):
            fig = figs.get(f"{kind}_{prob}")
            check(fig is not None, f"{kind}_{prob}: figure missing")
            if fig:
                check(set(fig["series"]) == names,
                      f"{kind}_{prob}: shows {sorted(fig['series'])}, ran {sorted(names)}")
        with_qii = {r["integrator"] for r in verify["results"] if r["problem"] == prob and r["status"] != "skipped"
                    and (r.get("history") or {}).get("q_ii", {}).get("t")}
        fig = figs.get(f"qii_{prob}")
        check(fig is not None and set(fig["series"]) == with_qii, f"qii_{prob}: schemes with a Q_II history missing")
        with_long = {r["integrator"] for r in verify["results"] if r["problem"] == prob and r["status"] != "skipped"
                     and (r.get("long_time_energy") or {}).get("t")}
        if with_long:
            fig = figs.get(f"long_time_{prob}")
            check(fig is not None and set(fig["series"]) == with_long,
                  f"long_time_{prob}: the schemes with a long-time energy run missing")
        check(f'id="p-{prob}"' in page, f"index.html has no section for {prob}")
        for n in names:
            check(n in text, f"index.html never names {n}")

    with open(bench_p) as f:
        bench = json.load(f)
    swept = {}
    for s in bench.get("work_precision", {}).get("series", []):
        if any(p.get("error") for p in s["points"]):
            swept.setdefault(s["problem"], set()).add(s["integrator"])
    for prob, names in swept.items():
        fig = figs.get(f"work_precision_{prob}")
        check(fig is not None and set(fig["series"]) == names, f"work_precision_{prob}: schemes missing")

    with open(paper_p) as f:
        paper = json.load(f)
    items = paper.get("paper_reproductions", [])
    p001 = {i["integrator"] for i in items if i["paper"] == "001" and "Fig. 1" in i["item"]}
    if p001:
        fig = figs.get("paper001_fig1")
        check(fig is not None and set(fig["series"]) == p001, "paper001_fig1: schemes missing")
    p002 = {i["integrator"] for i in items if i["paper"] == "002" and "runs" in i.get("data", {})}
    if p002:
        fig = figs.get("paper002_hamiltonian_all")
        check(fig is not None and set(fig["series"]) == p002, "paper002_hamiltonian_all: schemes missing")
    check('id="papers"' in page, "index.html has no paper section")

    # The interactive page (with python3-plotly): a convergence figure per problem that ran, showing
    # the same schemes as the static one, and the script it loads beside it.
    ix = manifest.get("interactive")
    try:
        import plotly  # noqa: F401
        have_plotly = True
    except ImportError:
        have_plotly = False
    if have_plotly:
        check(ix and ix.get("page") == "interactive.html", f"no interactive page: {ix}")
        if ix and ix.get("page"):
            check(os.path.getsize(os.path.join(out, ix["script"])) > 1_000_000, "plotly.min.js missing or truncated")
            with open(os.path.join(out, ix["page"])) as f:
                ipage = f.read()
            ixf = {f["name"]: f for f in ix["figures"]}
            for prob, names in ran.items():
                f = ixf.get(f"convergence_{prob}")
                check(f is not None and set(f["series"]) == names, f"interactive convergence_{prob}: schemes differ")
                check(f is None or f'id="{f["div"]}"' in ipage, f"interactive.html has no div for {prob}")
            check(f'href="{ix["page"]}' in page, "index.html does not link the interactive page")
    else:
        check(ix is None or ix.get("page") is None, "an interactive page without plotly")

    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"{out}: {len(manifest['figures'])} figures, index.html consistent with the reports")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
