#!/usr/bin/python3
"""Renders rigidbench report JSON into figures and one self-contained HTML page.

Usage: render_report.py --out DIR [--format png,svg,pdf] [--style screen|journal-single|journal-double]
                        [--integrator GLOB ...] [--problem GLOB ...] [--] REPORT.json [REPORT.json ...]

Plots and HTML come from the JSON files alone, never from in-memory state.
Every input is validated against its schema (reports/schema/) first; an input that is not valid
JSON, not a rigidbench report or not valid against its schema is bad input: exit 2, nothing written.
Accepted reports: `verify` (quick or any problem selection), `verify --suite paper`, `bench`,
`compare`, and the trends of `rigidbench history` (docs/history.md). Output: DIR/index.html (PNG figures inlined), DIR/figures/*.{png,svg,pdf} and
DIR/tables/verdicts.{csv,tex}, DIR/manifest.json (every figure with the schemes it shows and every
scheme's fixed style, for tests and tooling; docs/reports.md). Files are
written to a temporary name and renamed into place.
Needs python3-matplotlib (and python3-jsonschema for validation), both Debian packages.
"""
import argparse
import base64
import html
import json
import math
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(os.path.dirname(HERE), "schema")
BAD_INPUT = 2
IO_ERROR = 5


class BadInput(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------------------------

def report_kind(j):
    if not isinstance(j, dict) or "schema_version" not in j:
        return None
    if j.get("kind") == "bench":
        return "bench"
    if j.get("kind") == "compare":
        return "compare"
    if j.get("kind") == "rigidbench-history":
        return "history"
    if j.get("kind") == "card":
        return "card"
    if j.get("suite") == "paper" or j.get("paper_reproductions"):
        return "paper"
    if "results" in j:
        return "verify"
    return None


SCHEMAS = {"verify": "report-1.0.schema.json", "paper": "report-1.0.schema.json",
           "bench": "bench-1.0.schema.json", "compare": "compare-1.0.schema.json",
           "history": "history-1.0.schema.json", "card": "card-1.0.schema.json"}


def load_inputs(paths):
    try:
        import jsonschema
    except ImportError:  # validation is the test suite's job too; rendering can go on without it
        jsonschema = None
    out = {"verify": [], "paper": [], "bench": [], "compare": [], "history": [], "card": []}
    for p in paths:
        try:
            with open(p) as f:
                j = json.load(f)
        except OSError as e:
            raise BadInput(f"cannot open '{p}': {e.strerror}")
        except json.JSONDecodeError as e:
            raise BadInput(f"'{p}' is not valid JSON: {e}")
        kind = report_kind(j)
        if kind is None:
            raise BadInput(f"'{p}' is not a rigidbench report (verify, paper, bench, compare, history or card)")
        if jsonschema is not None:
            with open(os.path.join(SCHEMA_DIR, SCHEMAS[kind])) as f:
                schema = json.load(f)
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(j))
            if errors:
                e = errors[0]
                raise BadInput(f"'{p}' is not valid against {SCHEMAS[kind]}: "
                               f"/{'/'.join(str(x) for x in e.path)}: {e.message}")
        out[kind].append((p, j))
    if len(out["history"]) > 1:
        raise BadInput("one history document at a time (its figures are named by scheme and problem)")
    return out


def select(inputs, integrators, problems):
    """Keeps the pairs whose scheme and problem match one of the patterns (fnmatch globs; none: all),
    in every input; BadInput when nothing is left."""
    import fnmatch

    def ok(name, pats):
        return not pats or any(fnmatch.fnmatchcase(name or "", q) for q in pats)

    def pair(d):
        return ok(d.get("integrator"), integrators) and ok(d.get("problem"), problems)
    if not integrators and not problems:
        return inputs
    kept = 0
    for _, j in inputs["verify"] + inputs["bench"]:
        j["results"] = [r for r in j.get("results", []) if pair(r)]
        kept += len(j["results"])
        wp = j.get("work_precision")
        if isinstance(wp, dict) and "series" in wp:
            wp["series"] = [x for x in wp["series"] if pair(x)]
    for _, j in inputs["paper"]:
        j["paper_reproductions"] = [i for i in j.get("paper_reproductions", []) if pair(i)]
        kept += len(j["paper_reproductions"])
    for _, j in inputs["compare"]:
        j["problems"] = [P for P in j["problems"] if ok(P["problem"], problems)]
        for P in j["problems"]:
            P["rows"] = [r for r in P["rows"] if ok(r["integrator"], integrators)]
            kept += len(P["rows"])
    if kept == 0 and not inputs["history"]:
        raise BadInput("--integrator/--problem select nothing in the inputs")
    return inputs


# ---------------------------------------------------------------------------------------------
# Overlay: the reports of one kind drawn in the same figures (docs/reports.md, "Overlaying runs")
# ---------------------------------------------------------------------------------------------

SERIES = {}  # legend key of a series -> (scheme, input label); filled by overlay()
DUPLICATE_LINES = ["-.", ":", "--", "-"]  # the 2nd, 3rd, ... input's copy of a scheme shown twice


def input_labels(paths):
    """Short distinct names of the inputs, for the legends: the file name without .json, with as many
    parent folders as it takes to tell them apart (python/report, cxx/report)."""
    parts = [os.path.normpath(os.path.abspath(p))[:-5 if p.endswith(".json") else None].split(os.sep) for p in paths]
    for depth in range(1, max((len(x) for x in parts), default=1) + 1):
        labels = ["/".join(x[-depth:]) for x in parts]
        if len(set(labels)) == len(labels):
            return labels
    # The same file given twice: its name, numbered.
    return [f"{x[-1]} #{i + 1}" for i, x in enumerate(parts)]


def overlay(entries, rows_of):
    """One report-like dict for the figures from several inputs of one kind: every row (rows_of(report)
    gives the list) copied, its "integrator" replaced by its legend key, the scheme's name with the
    input's label in brackets when there is more than one input, so that a scheme run twice is two
    series; "scheme" keeps the name. The metric tables are joined by name."""
    labels = input_labels([p for p, _ in entries])
    merged = {"metrics": [], "rows": []}
    seen_metrics = set()
    for (p, rep), label in zip(entries, labels):
        for m in rep.get("metrics") or []:
            if m["name"] not in seen_metrics:
                seen_metrics.add(m["name"])
                merged["metrics"].append(m)
        for r in rows_of(rep):
            r2 = dict(r)
            r2["scheme"] = r["integrator"]
            r2["input"] = label
            r2["integrator"] = r["integrator"] if len(entries) == 1 else f"{r['integrator']} [{label}]"
            SERIES[r2["integrator"]] = (r["integrator"], label)
            merged["rows"].append(r2)
    return merged


def series_styles():
    """The style of every legend key: its scheme's, and for a scheme shown from several inputs a
    different line style per input after the first (same colour and marker)."""
    inputs_of = {}
    for key, (scheme, label) in SERIES.items():
        inputs_of.setdefault(scheme, [])
        if label not in inputs_of[scheme]:
            inputs_of[scheme].append(label)
    out = {}
    for key, (scheme, label) in SERIES.items():
        col, mk, ls = scheme_style(scheme)
        k = inputs_of[scheme].index(label)
        out[key] = (col, mk, ls if k == 0 else DUPLICATE_LINES[(k - 1) % len(DUPLICATE_LINES)])
    return out


def scheme_of(key):
    """The scheme a legend key shows."""
    return SERIES.get(key, (key, None))[0]


# Text from the inputs in the tables people open (docs/decisions.md, "Text from inputs"). Names are
# one alphabet (a-z, 0-9, _), but metric keys, invariant names and enum-free strings can hold anything.
TEX_SPECIAL = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#",
               "_": "\\_", "%": "\\%", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"}


def tex(x):
    """Every TeX special escaped - '^' too, so that TeX's ^^ notation cannot spell a command - and
    control characters dropped."""
    return "".join(TEX_SPECIAL.get(c, c) for c in str(x) if c >= " " and c != "\x7f")


def csv_cell(v):
    """A cell a spreadsheet shows as text: a string beginning with =, +, -, @, tab or CR would be run as
    a formula (=HYPERLINK(...)), so it gets a leading apostrophe (OWASP's advice); numbers are numbers."""
    if v is None:
        return ""
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + v
    return v


def write_csv(path, rows):
    """rows (dicts with the same keys) as CSV, every cell through csv_cell."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for row in rows:
        w.writerow({k: csv_cell(v) for k, v in row.items()})
    write_atomic(path, buf.getvalue())


def failed_checks(rep, r):
    """The pair's failed checks by the gate's names (the checks of a pair, docs/gate.md): status,
    each gating error metric, q_ii (and q_ii_full where gating), invariant:NAME of a claimed invariant,
    a gating measure, structure:PROPERTY of a claimed property, an adaptive pair's gating tolerance rules."""
    gating = {m["name"] for m in rep.get("metrics") or [] if m.get("gating")} or {"q_ii"}
    failed = ["status"] if r.get("status") in ("breakdown", "failed") else []
    failed += [k for k, v in (r.get("convergence") or {}).items() if v.get("gating", True) and v.get("verdict") == "fail"]
    failed += [k for k in ("q_ii", "q_ii_full") if k in gating and (r.get(k) or {}).get("verdict") == "fail"]
    failed += [f"invariant:{k}" for k, v in (r.get("invariants") or {}).items()
               if v.get("claim", "none") != "none" and v.get("verdict") == "fail"]
    failed += [k for k, v in (r.get("measures") or {}).items() if k in gating and v.get("verdict") == "fail"]
    st = r.get("structure") or {}
    failed += [f"structure:{k}" for k in ("symmetric", "symplectic")
               if (st.get(k) or {}).get("claimed") and (st.get(k) or {}).get("verdict") == "fail"]
    tl = r.get("tolerance_ladder") or {}
    failed += [k for k, sec in (("tolerance_proportionality", "proportionality"), ("rejected_steps", "rejected_fraction"))
               if (tl.get(sec) or {}).get("verdict") == "fail"]
    return failed


def write_tables(out_dir, inputs):
    """DIR/tables/: verdicts.{csv,tex} (order, Q_II and verdicts of every pair that ran, in every verify
    input, with the input's label), levels.csv (every level's step, cost and errors) and, with bench
    inputs, work_precision.csv (every point of the sweeps). The files written, relative to DIR."""
    files = []
    d = os.path.join(out_dir, "tables")
    labels = input_labels([p for p, _ in inputs["verify"]])
    rows, levels = [], []
    for (_, rep), label in zip(inputs["verify"], labels):
        for r in rep["results"]:
            if r["status"] == "skipped":
                continue
            c = r.get("convergence", {}).get("attitude_error_final", {})
            q = r.get("q_ii", {})
            st = r.get("structure") or {}
            failed = failed_checks(rep, r)
            rows.append({"scheme": r["integrator"], "problem": r["problem"], "input": label, "status": r["status"],
                         "order_observed": c.get("slope"), "order_expected": c.get("expected"),
                         "order_verdict": c.get("verdict", ""), "q_ii": q.get("median"), "q_ii_expected": q.get("expected"),
                         "q_ii_verdict": q.get("verdict", ""),
                         "symmetric": (st.get("symmetric") or {}).get("observed", ""),
                         "symplectic": (st.get("symplectic") or {}).get("observed", ""),
                         "failed_checks": " ".join(failed)})
            # One row per level and metric: the data behind every convergence figure.
            by_h = {lv.get("h"): lv for lv in r.get("levels") or []}
            for section in ("convergence", "paper_measures"):
                for metric, conv in (r.get(section) or {}).items():
                    asym = conv.get("asymptotic") or [None] * len(conv.get("h", []))
                    for h, e, a in zip(conv.get("h", []), conv.get("error", []), asym):
                        lv = by_h.get(h, {})
                        levels.append({"scheme": r["integrator"], "problem": r["problem"], "input": label,
                                       "metric": metric, "h": h, "steps": lv.get("steps"), "seconds": lv.get("seconds"),
                                       "level_status": lv.get("status", ""), "error": e if finite(e) else None,
                                       "asymptotic": "" if a is None else int(bool(a)),
                                       "breakdown_t": (lv.get("breakdown") or {}).get("t"),
                                       "breakdown_reason": (lv.get("breakdown") or {}).get("reason", "")})
    if rows:
        os.makedirs(d, exist_ok=True)
        write_csv(os.path.join(d, "verdicts.csv"), rows)

        def n3(x):
            return f"{x:.3g}" if finite(x) else "--"
        several = len(inputs["verify"]) > 1
        lines = ["% rigidbench: order, Q_II and verdicts per pair (needs \\usepackage{booktabs})",
                 "\\begin{tabular}{llrrlrrlll}", "\\toprule",
                 "scheme & problem & order & $p$ & & $Q_{II}$ & $2^p$ & & symmetric / symplectic & failed checks \\\\",
                 "\\midrule"]
        for row in rows:
            name = f"{row['scheme']} [{row['input']}]" if several else row["scheme"]
            lines.append(" & ".join([tex(name), tex(row["problem"]), n3(row["order_observed"]),
                                     n3(row["order_expected"]), tex(row["order_verdict"]), n3(row["q_ii"]),
                                     n3(row["q_ii_expected"]), tex(row["q_ii_verdict"]),
                                     tex(f"{row['symmetric'] or '--'} / {row['symplectic'] or '--'}"),
                                     tex(row["failed_checks"] or "--")]) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}", ""]
        write_atomic(os.path.join(d, "verdicts.tex"), "\n".join(lines))
        files += [os.path.join("tables", "verdicts.csv"), os.path.join("tables", "verdicts.tex")]
    if levels:
        write_csv(os.path.join(d, "levels.csv"), levels)
        files.append(os.path.join("tables", "levels.csv"))
    points = []
    for (_, rep), label in zip(inputs["bench"], input_labels([p for p, _ in inputs["bench"]])):
        wp = rep.get("work_precision") or {}
        for sr in wp.get("series") or []:
            for pt in sr["points"]:
                points.append({"scheme": sr["integrator"], "problem": sr["problem"], "input": label,
                               "error_metric": wp.get("error_metric", ""), "h": pt.get("h"), "tol": pt.get("tol"),
                               "error": pt.get("error"),
                               "cpu_seconds": pt.get("cpu_seconds"), "instructions": pt.get("instructions"),
                               "pareto_cpu": int(bool(pt.get("pareto_cpu"))),
                               "pareto_instructions": int(bool(pt.get("pareto_instructions")))})
    if points:
        os.makedirs(d, exist_ok=True)
        write_csv(os.path.join(d, "work_precision.csv"), points)
        files.append(os.path.join("tables", "work_precision.csv"))
    return files


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------

def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


# One colour, marker and line style per scheme, the same in every figure of every report. The reports
# carry them (`styles`, written by reports/styles.cpp from the scheme registry), so a new built-in
# scheme needs no change here. A name no input styles (a report written before styles existed) is
# drawn from the name as the writer does for outside schemes (zlib.crc32 into the same palette), dotted.
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#008080", "#000080", "#800000", "#006400", "#c49a00",
           "#000000", "#17becf", "#ff00ff", "#00c000", "#bcbd22", "#7f7f7f", "#4b0082",
           "#ff4500"]
MARKERS = ["o", "s", "^", "v", "D", "<", ">", "p", "P", "h", "X", "*", "d", "H", "8", "1", "2", "3", "4", "+"]
REPORT_STYLES = {}  # name -> {"color", "marker", "line"}, from the inputs' `styles`


def usable_style(name, st):
    """A report's style entry if matplotlib can draw it (a colour it knows, one of MARKERS, a line style
    of PLOTLY_DASH), else None: a schema-valid report with marker "Z" crashed every figure of the page.
    The scheme then keeps the style its name gives it (scheme_style), and a warning says so."""
    from matplotlib.colors import is_color_like
    ok = (isinstance(st, dict) and is_color_like(st.get("color")) and st.get("marker") in MARKERS
          and st.get("line") in PLOTLY_DASH)
    if not ok:
        print(f"report: the style given for '{name}' cannot be drawn ({json.dumps(st)[:120]}); its default is used",
              file=sys.stderr)
    return st if ok else None


def scheme_style(name):
    """(colour, marker, line style) of a scheme: docs/reports.md, "Figures"."""
    s = REPORT_STYLES.get(name)
    if s is not None:
        return s["color"], s["marker"], s["line"]
    import zlib
    h = zlib.crc32(name.encode())
    return PALETTE[h % len(PALETTE)], MARKERS[(h // len(PALETTE)) % len(MARKERS)], ":"


# Figure styles: `screen` keeps the sizes the code gives; a journal style scales every figure to the
# column width (IEEE/Elsevier: 3.5 in single, 7.16 in double column) with 8 pt text.
STYLES = {"screen": None, "journal-single": 3.5, "journal-double": 7.16}


class Figures:
    """Saves figures in the requested formats and remembers what each shows (manifest)."""

    def __init__(self, out_dir, formats, progress=False, style="screen"):
        self.progress = progress
        self.t0 = time.monotonic()
        import matplotlib
        matplotlib.use("Agg")
        # Fonts a publisher's checker accepts: TrueType (Type 42) embedded in PDF and PostScript, never
        # Type 3; text in SVG kept as text (editable, searchable), not paths.
        matplotlib.rcParams.update({"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none"})
        self.width = STYLES[style]
        if self.width:
            matplotlib.rcParams.update({"font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8,
                                        "xtick.labelsize": 7, "ytick.labelsize": 7, "legend.fontsize": 6.5,
                                        "lines.linewidth": 0.9, "lines.markersize": 3.5})
        import matplotlib.pyplot as plt
        self.plt = plt
        self.dir = os.path.join(out_dir, "figures")
        os.makedirs(self.dir, exist_ok=True)
        self.formats = formats
        self.items = []
        self.not_drawn = []  # [{"what", "why"}]: figures an input's values could not make (guarded)

    def size(self, w, h):
        """The figure size: (w, h) in inches on screen; in a journal style the column width with the
        same aspect, at least 2.2 in high."""
        if not self.width:
            return (w, h)
        return (self.width, max(2.2, h * self.width / w))

    def subplots(self, n, w_each, h, entries=0):
        """A figure of n panels (side by side; stacked in a single journal column) and, in a journal
        style, a legend row under them sized for `entries` labels: (fig, axes list, legend axes or
        None). On screen the panels keep their own legends."""
        plt = self.plt
        nr, nc, size = self.panels(n, w_each, h)
        if not self.width or entries == 0:
            fig, axes = plt.subplots(nr, nc, figsize=size, layout="constrained", squeeze=False)
            return fig, list(axes.ravel()), None
        ncol = 2 if self.width < 5 else 4
        rows = (entries + ncol - 1) // ncol
        leg_h = 0.16 * rows + 0.15  # inches: one 6.5 pt line per row
        fig = plt.figure(figsize=(size[0], size[1] + leg_h), layout="constrained")
        gs = fig.add_gridspec(nr + 1, nc, height_ratios=[size[1] / nr] * nr + [leg_h])
        axes = [fig.add_subplot(gs[i, j]) for i in range(nr) for j in range(nc)]
        lax = fig.add_subplot(gs[nr, :])
        lax.axis("off")
        return fig, axes, lax

    def shared_legend(self, lax, names, style):
        """One legend entry per scheme (its line and marker) in the legend row."""
        from matplotlib.lines import Line2D
        ncol = 2 if self.width < 5 else 4
        handles = [Line2D([], [], color=style[n][0], marker=style[n][1], ls=style[n][2], ms=3.5) for n in names]
        lax.legend(handles, names, loc="upper center", ncol=ncol, frameon=False, fontsize=6.5,
                   handlelength=2.2, columnspacing=1.2, borderaxespad=0)

    def panels(self, n, w_each, h):
        """(rows, columns, figure size) of n side-by-side panels; stacked in a single journal column."""
        if self.width and self.width < 5:
            return n, 1, (self.width, n * max(2.2, h * self.width / w_each))
        return 1, n, self.size(w_each * n, h)

    def title(self, where, text):
        """A figure's or panel's title on screen; none in a journal style, where the paper's caption
        says it (the manifest keeps every figure's title and caption)."""
        if self.width:
            return
        (where.suptitle if hasattr(where, "suptitle") else where.set_title)(text, fontsize=10)

    def font(self, screen_pt):
        """A font size the code gives for the screen; in a journal style at least 6 pt."""
        return max(6.0, screen_pt * 0.85) if self.width else screen_pt

    def save(self, fig, name, title, section, problem=None, series=(), caption=""):
        files = {}
        for fmt in self.formats:
            path = os.path.join(self.dir, f"{name}.{fmt}")
            refuse_foreign_links(path)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".tmp-", suffix=f".{fmt}")
            os.close(fd)
            try:
                # A journal figure keeps its size (the column width): constrained layout fits legends and
                # labels inside it. On screen the box is cropped to what is drawn.
                fig.savefig(tmp, format=fmt, dpi=300 if self.width else 110, bbox_inches=None if self.width else "tight")
                os.chmod(tmp, 0o644)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            files[fmt] = os.path.relpath(path, os.path.dirname(self.dir))
        self.plt.close(fig)
        if self.progress:
            print(f"report: [{len(self.items) + 1}] {name} ({time.monotonic() - self.t0:.1f} s)", file=sys.stderr, flush=True)
        # "series": the schemes shown; "legend": what tells them apart when several inputs overlay
        # (scheme [input]); "inputs": the inputs drawn from.
        self.items.append({"name": name, "title": title, "section": section, "problem": problem,
                           "series": sorted({scheme_of(k) for k in series}), "legend": sorted(set(series)),
                           "inputs": sorted({SERIES[k][1] for k in series if k in SERIES}),
                           "files": files, "caption": caption})


def slope_triangle(ax, x0, y0, order, width=2.0, color="0.35"):
    """A reference triangle of slope `order` over a factor `width` in h, anchored at (x0, y0)."""
    x1 = x0 * width
    y1 = y0 * width ** order
    ax.plot([x0, x1, x1, x0], [y0, y0, y1, y0], color=color, lw=0.8)
    ax.text(x1 * 1.05, math.sqrt(y0 * y1), f"{order}", fontsize=7, color=color, va="center")


def convergence_panel(ax, series, style, title, ylabel, legend=True):
    """series: list of (scheme, conv) with conv = {h, error, slope, expected, asymptotic?, floor?}.
    legend=False: no legend of its own (a journal figure's shared legend row; figs.shared_legend)."""
    floor = 0.0
    hs, es = [], []
    plotted = []
    for name, c in series:
        h = [x for x, e in zip(c["h"], c["error"]) if finite(e) and e > 0]
        e = [e for e in c["error"] if finite(e) and e > 0]
        if not h:
            continue
        asym = c.get("asymptotic") or [True] * len(c["h"])
        a_mask = [a for a, err in zip(asym, c["error"]) if finite(err) and err > 0]
        col, mk, ls = style[name]
        sl = c.get("slope")
        exp = c.get("expected")
        lab = f"{name} ({sl:.2f}" if finite(sl) else f"{name} (-"
        lab += f", p={exp:g})" if finite(exp) else ")"
        ax.loglog(h, e, ls, color=col, lw=1, label=lab)
        ax.loglog([x for x, a in zip(h, a_mask) if a], [y for y, a in zip(e, a_mask) if a], mk, color=col, ms=4)
        ax.loglog([x for x, a in zip(h, a_mask) if not a], [y for y, a in zip(e, a_mask) if not a], mk,
                  color=col, ms=4, mfc="none")
        for f in c.get("floor") or []:
            if finite(f):
                floor = max(floor, f)
        hs += h
        es += e
        plotted.append(name)
    if not hs:
        ax.set_title(title + " (no data)")
        return plotted
    lo = min(es)
    if floor > 0:
        ax.axhspan(min(lo, floor) / 10, floor, color="0.9", zorder=0, label="below reference/round-off floor")
    # Reference slope triangles (orders 1, 2, 4) at the lower right.
    hmin, hmax = min(hs), max(hs)
    width = max(1.3, (hmax / hmin) ** 0.12)
    y = max(lo, floor) * 3
    for order in (1, 2, 4):
        slope_triangle(ax, hmin * 1.1, y, order, width)
        y *= width ** order * 4
    ax.set_xlabel("h")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9 if legend else None)
    ax.grid(True, which="major", lw=0.3)
    if legend:
        # Two columns fit under a panel for labels up to ~34 characters; longer ones (an overlay's
        # "scheme [input]") take one column, so that no legend runs into its neighbour's.
        longest = max((len(h.get_label()) for h in ax.get_legend_handles_labels()[0]), default=0)
        # Anchored a fixed 34 pt under the axes (tick labels and the axis label), however tall the
        # panel ends up.
        from matplotlib.transforms import offset_copy
        ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, 0), ncol=2 if longest <= 34 else 1,
                  bbox_transform=offset_copy(ax.transAxes, fig=ax.figure, y=-34, units="points"), frameon=False)
    return plotted


def shown_here(ran, name):
    return [r for r in ran if ((r.get("history") or {}).get("invariants") or {}).get(name)]


def by_problem(results):
    probs = {}
    for r in results:
        probs.setdefault(r["problem"], []).append(r)
    return probs


# The three convergence panels per problem; their titles and units come from the report's metric table.
CONVERGENCE_PANELS = ("attitude_error_final", "h1_distance", "q_error")


METRICS = {}  # name -> row of a metric table, from every input that has one (main)


def metric_label(rep, name):
    """(section, title, unit) of a metric from the report's "metrics" table, or any input's (a bench
    report has none); a report written before the table existed: the name."""
    for m in (rep.get("metrics") or []) + ([METRICS[name]] if name in METRICS else []):
        if m["name"] == name:
            slope = f" (slope {m['expected_slope']})" if m.get("expected_slope") else ""
            return m["section"], f"{m.get('label', name)}{slope}", m["units"]
    return ("paper_measures" if name in ("q_error", "E_error") else "convergence"), name, ""


def wrapped(text, width):
    """A title broken into lines of at most `width` characters, so that side-by-side panels' titles
    never run into each other."""
    import textwrap
    return "\n".join(textwrap.wrap(text, width)) or text


def problem_source(rows):
    """The `source` the problem of these rows declares (the report's settings.problem), or ""."""
    for r in rows:
        src = ((r.get("settings") or {}).get("problem") or {}).get("source")
        if isinstance(src, str):
            return src
    return ""


def panels_that_apply(rep, ran):
    """The convergence panels with data for these rows; a paper's own measure (section paper_measures,
    its label naming the paper) only on the problems whose source is that paper: paper 001's printed
    q-error is drawn for pendulum3d, not for every problem it can be computed on."""
    import re
    keys = []
    for key in CONVERGENCE_PANELS:
        section, title, _ = metric_label(rep, key)
        if not any(key in r.get(section, {}) for r in ran):
            continue
        paper = re.search(r"\bpaper (\d{3})\b", title)
        if section == "paper_measures" and paper and \
                not re.search(rf"\bpaper {paper.group(1)}\b", problem_source(ran)):
            continue
        keys.append(key)
    return keys


def judged(level):
    """The error a tolerance level is judged by: its attitude error, on a body system the larger of it
    and its position error (docs/adaptive.md, "What is judged")."""
    a, x = level.get("attitude_error"), level.get("position_error")
    return max(a, x) if finite(a) and finite(x) else a


def tolerance_figure(figs, tag, prob, adaptive, fixed, style):
    """An adaptive scheme's tolerance ladder (docs/adaptive.md): its error against the tolerance, and
    every pair's error against its cost on shared work-precision axes - one point per tolerance for an
    adaptive scheme (labelled log10 tol), one per step for a fixed-step one: against the wall clock of a
    run (the fastest of the repetitions, the bar reaching the slowest) and, on a loaded problem, against
    the load evaluations of a run."""
    loaded = any((x.get("load_evaluations") or 0) > 0 for r in adaptive for x in r["tolerance_ladder"]["levels"])
    fig, axes, lax = figs.subplots(3 if loaded else 2, 17 / 3, 4.6, entries=len(adaptive) + len(fixed))
    ax_tol, ax_wp = axes[0], axes[1]
    ax_ld = axes[2] if loaded else None
    names, tols = [], []
    for r in adaptive:
        t = r["tolerance_ladder"]
        col, mk, ls = style[r["integrator"]]
        lv = [x for x in t["levels"] if finite(judged(x)) and judged(x) > 0]
        if not lv:
            continue
        sl = (t.get("proportionality") or {}).get("slope")
        label = f'{r["integrator"]} ({sl:.2f})' if finite(sl) else f'{r["integrator"]} (-)'
        ax_tol.loglog([x["tol"] for x in lv], [judged(x) for x in lv], ls, color=col, lw=1, label=label)
        used = [x for x in lv if x.get("above_floor") and not x.get("grid_bound")]
        other = [x for x in lv if not (x.get("above_floor") and not x.get("grid_bound"))]
        ax_tol.loglog([x["tol"] for x in used], [judged(x) for x in used], mk, color=col, ms=4)
        ax_tol.loglog([x["tol"] for x in other], [judged(x) for x in other], mk, color=col, ms=4, mfc="none")
        tols += [x["tol"] for x in lv]
        timed = [x for x in lv if finite(x.get("seconds")) and x["seconds"] > 0]
        if timed:
            spread = [max(0.0, x["seconds_max"] - x["seconds"]) if finite(x.get("seconds_max")) else 0.0 for x in timed]
            ax_wp.errorbar([x["seconds"] for x in timed], [judged(x) for x in timed],
                           xerr=[[0.0] * len(timed), spread], fmt=mk + ls, color=col, lw=1, ms=4, elinewidth=0.8,
                           capsize=1.5, label=f'{r["integrator"]} (tol)')
            for x in timed[::2]:
                ax_wp.annotate(f'{math.log10(x["tol"]):g}', (x["seconds"], judged(x)), fontsize=5.5, color=col,
                               xytext=(2, 2), textcoords="offset points")
        if ax_ld is not None:
            ld = [x for x in lv if (x.get("load_evaluations") or 0) > 0]
            if ld:
                ax_ld.loglog([x["load_evaluations"] for x in ld], [judged(x) for x in ld], mk + ls, color=col,
                             lw=1, ms=4, label=f'{r["integrator"]} (tol)')
        names.append(r["integrator"])
    if tols:
        lo, hi = min(tols), max(tols)
        ax_tol.loglog([lo, hi], [lo, hi], ":", color="0.5", lw=0.8, label="error = tol")
    for r in fixed:
        c = (r.get("convergence") or {}).get("attitude_error_max") or {}
        lv = r.get("levels") or []
        errs = c.get("error") or []
        pts = [(l.get("seconds"), e) for l, e in zip(lv, errs)
               if finite(l.get("seconds")) and l["seconds"] > 0 and finite(e) and e > 0]
        if not pts:
            continue
        col, mk, ls = style[r["integrator"]]
        ax_wp.loglog([a for a, _ in pts], [e for _, e in pts], mk + ls, color=col, lw=1, ms=4, mfc="none",
                     label=f'{r["integrator"]} (h)')
        per_step = ((r.get("cost") or {}).get("load_evaluations_per_step"))
        if ax_ld is not None and finite(per_step) and per_step > 0:
            ld = [(per_step * l["steps"], e) for l, e in zip(lv, errs) if finite(l.get("steps")) and finite(e) and e > 0]
            ax_ld.loglog([a for a, _ in ld], [e for _, e in ld], mk + ls, color=col, lw=1, ms=4, mfc="none",
                         label=f'{r["integrator"]} (h)')
        names.append(r["integrator"])
    ax_wp.set_xscale("log")
    ax_wp.set_yscale("log")
    body_system = any(finite(x.get("position_error")) for r in adaptive for x in r["tolerance_ladder"]["levels"])
    ylabel = "max error (attitude [rad] or position)" if body_system else "max attitude error [rad]"
    ax_tol.set_xlabel("tolerance (abs = rel)")
    ax_tol.set_ylabel(ylabel)
    ax_tol.set_title("error against tolerance (slope in the legend)", fontsize=9)
    ax_wp.set_xlabel("seconds per run (adaptive: fastest of the repetitions, bar to the slowest)")
    ax_wp.set_ylabel(ylabel)
    ax_wp.set_title("work-precision: adaptive (log10 tol) and fixed-step (h)", fontsize=9)
    if ax_ld is not None:
        ax_ld.set_xlabel("load evaluations per run")
        ax_ld.set_ylabel(ylabel)
        ax_ld.set_title("work-precision in load evaluations", fontsize=9)
    for ax in axes:
        ax.grid(True, which="major", lw=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=6, frameon=False)
    figs.save(fig, f"{tag}tolerance_{prob}", f"{prob}: tolerance ladders", "convergence", prob, names,
              "Left: filled points enter the proportionality slope; hollow ones are below the reference floor or "
              "grid-bound (fewer than two steps per output interval); on a body system an adaptive level's error is the "
              "larger of its attitude and position errors. Middle: the adaptive schemes' errors are the "
              "maximum over their output times, the fixed-step schemes' over the observation grid (attitude_error_max); "
              "the time is one run's wall clock (adaptive: the fastest of the timed repetitions, the bar reaching the "
              "slowest). Right, on a loaded problem: the same errors against the load evaluations of one run.")


def render_verify(figs, rep, tag, style):
    """Convergence, Q_II(t) and invariant histories per problem of one verify report."""
    plt = figs.plt
    for prob, rs in by_problem(rep["results"]).items():
        adaptive = [r for r in rs if r["status"] != "skipped" and r.get("tolerance_ladder")]
        if adaptive:
            tolerance_figure(figs, tag, prob, adaptive,
                             [r for r in rs if r["status"] != "skipped" and "convergence" in r], style)
        ran = [r for r in rs if r["status"] != "skipped" and "convergence" in r]
        if not ran:
            continue
        # -- convergence: state error, true H1 distance, printed q-error (paper 001) side by side, each
        # panel titled by the metric table's label, and only the panels that apply to the problem
        keys = panels_that_apply(rep, ran)
        # On screen each panel has its legend underneath (convergence_panel): the figure grows with it.
        one_column = max(len(r["integrator"]) for r in ran) > 20
        legend_rows = len(ran) + 1 if one_column else (len(ran) + 2) // 2
        fig, axes, lax = figs.subplots(len(keys), 17 / 3, 4.0 + 0.13 * legend_rows, entries=len(ran))
        names = []
        for ax, key in zip(axes, keys):
            section, title, unit = metric_label(rep, key)
            if lax:  # a journal panel: the metric's name alone (the slopes are in the tables)
                title = title.split(" (")[0]
            names += convergence_panel(ax, [(r["integrator"], r[section][key]) for r in ran if key in r.get(section, {})],
                                       style, wrapped(title, 40), f"error [{unit}]" if unit else "error", legend=lax is None)
        if lax:
            figs.shared_legend(lax, sorted(set(names), key=names.index), style)
        else:
            fig.suptitle(f"{prob}: convergence (filled: asymptotic levels used for the fit; hollow: excluded)",
                         fontsize=10)
        figs.save(fig, f"{tag}convergence_{prob}", f"{prob}: convergence", "convergence", prob, names,
                  "Fitted slope and expected order in the legend; triangles show slopes 1, 2, 4; the grey band is "
                  "below 100x the reference's own error estimate (or 100 ulps), where levels are not used.")
        # -- Q_II(t) / 2^p at the primary level
        fig, (ax,), lax = figs.subplots(1, 10, 4.8, entries=len(ran))
        shown = []
        for r in ran:
            q = (r.get("history") or {}).get("q_ii") or {}
            exp = r["q_ii"].get("expected")
            if not q.get("t") or not finite(exp):
                continue
            t = [x for x, v in zip(q["t"], q["value"]) if finite(v)]
            v = [v / exp for v in q["value"] if finite(v)]
            col, _, ls = style[r["integrator"]]
            ax.plot(t, v, ls, color=col, lw=1,
                    label=f"{r['integrator']} (h={q['h']:.3g}, {r['q_ii']['verdict']})")
            shown.append(r["integrator"])
        ax.axhspan(0.98, 1.02, color="0.88", zorder=0, label="|Q_II/2^p - 1| <= 0.02")
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_ylim(0.5, 2.5)
        ax.set_xlabel("t")
        ax.set_ylabel("Q_II / 2^p")
        figs.title(ax, f"{prob}: second quotient of precision vs t (paper 000 Appendix A)")
        figs.shared_legend(lax, shown, style) if lax else ax.legend(fontsize=6.5, ncol=2)
        ax.grid(True, lw=0.3)
        figs.save(fig, f"{tag}qii_{prob}", f"{prob}: Q_II vs t", "q_ii", prob, shown,
                  "Q_II(t) normalised by 2^p at each scheme's primary level (the finest h clear of round-off); "
                  "values outside [0.5, 2.5] are clipped.")
        # -- attitude error vs t at the finest level
        et = [r for r in ran if (r.get("history") or {}).get("attitude_error")]
        if et:
            fig, (ax,), lax = figs.subplots(1, 10, 4.8, entries=len(et))
            for r in et:
                hist = r["history"]
                col, _, ls = style[r["integrator"]]
                y = [max(v, 1e-17) if finite(v) else float("nan") for v in hist["attitude_error"]]
                ax.semilogy(hist["t"], y, ls, color=col, lw=1, label=f"{r['integrator']} (h = {hist['h']:.3g})")
            ax.set_xlabel("t")
            ax.set_ylabel("attitude error [rad]")
            figs.title(ax, f"{prob}: attitude error vs t at each scheme's finest step")
            ax.grid(True, which="major", lw=0.3)
            figs.shared_legend(lax, [r["integrator"] for r in et], style) if lax else ax.legend(fontsize=6.5, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.14), frameon=False)
            figs.save(fig, f"{tag}error_time_{prob}", f"{prob}: attitude error vs t", "error_time", prob,
                      sorted(r["integrator"] for r in et),
                      "Geodesic angle between the scheme's attitude and the reference's on the observation grid, "
                      "at the finest level that ran (docs/metrics.md).")
        # -- invariant drift vs t at the finest level
        invs = []
        for r in ran:
            for k in ((r.get("history") or {}).get("invariants") or {}):
                if k not in invs:
                    invs.append(k)
        if invs:
            ncol = min(3, len(invs))
            nrow = (len(invs) + ncol - 1) // ncol
            # The legend in a row of its own under the panels, as many columns as its labels fit in the
            # figure's width and as tall as its rows: an overlay of several inputs has many entries.
            labels = [f"{r['integrator']} (h = {((r.get('history') or {}).get('h') or 0):.3g})" for r in ran]
            width = 5.6 * ncol
            leg_cols = max(1, min(len(labels), int(width / (0.065 * max(len(x) for x in labels) + 0.7))))
            leg_h = 0.17 * ((len(labels) + leg_cols - 1) // leg_cols) + 0.35
            fig = plt.figure(figsize=figs.size(width, 3.4 * nrow + 0.6 + leg_h), layout="constrained")
            grid = fig.add_gridspec(nrow + 1, ncol, height_ratios=[3.4] * nrow + [leg_h])
            axes = [[fig.add_subplot(grid[i, j]) for j in range(ncol)] for i in range(nrow)]
            shown = set()
            handles = {}
            for i, name in enumerate(invs):
                ax = axes[i // ncol][i % ncol]
                claimed = {}  # claim -> the schemes (not legend entries: an overlay repeats them) that make it
                for r in ran:
                    hist = r.get("history") or {}
                    dev = (hist.get("invariants") or {}).get(name)
                    if not dev:
                        continue
                    col, _, ls = style[r["integrator"]]
                    claim = r["invariants"].get(name, {}).get("claim", "none")
                    if claim != "none" and scheme_of(r["integrator"]) not in claimed.setdefault(claim, []):
                        claimed[claim].append(scheme_of(r["integrator"]))
                    y = [max(abs(v), 1e-17) if finite(v) else float("nan") for v in dev]
                    (line,) = ax.semilogy(hist["t"], y, ls, color=col, lw=0.9)
                    handles.setdefault(r["integrator"], (line, f"{r['integrator']} (h = {hist['h']:.3g})"))
                    shown.add(r["integrator"])
                schemes_here = {scheme_of(r["integrator"]) for r in shown_here(ran, name)}
                if len(claimed) == 1 and set(next(iter(claimed.values()))) == schemes_here:
                    claim_text = f"claimed {next(iter(claimed))} by every scheme shown"
                elif claimed:  # a long list of names is a count (the legend and the verdict tables name them)
                    claim_text = "claimed " + "; ".join(
                        f"{c} by {', '.join(names) if len(names) <= 5 else f'{len(names)} schemes'}" for c, names in claimed.items())
                else:
                    claim_text = "claimed by none"
                drift_label = metric_label(rep, "invariants")[1]
                drift_label = "invariant drift" if drift_label == "invariants" else drift_label
                ax.set_title(wrapped(f"{drift_label}: {name.replace('_', ' ')}", 48) + "\n" + wrapped(claim_text, 60),
                             fontsize=7.5)
                ax.set_ylabel("|I - I0| / S_I")
                ax.set_xlabel("t")
                ax.grid(True, lw=0.3)
                ax.set_ylim(1e-17, None)
            for j in range(len(invs), nrow * ncol):
                axes[j // ncol][j % ncol].axis("off")
            lax = fig.add_subplot(grid[nrow, :])
            lax.axis("off")
            lax.legend([h for h, _ in handles.values()], [lb for _, lb in handles.values()], fontsize=7, ncol=leg_cols,
                       loc="upper center", frameon=False, title="scheme (finest h)", title_fontsize=8)
            fig.suptitle(f"{prob}: invariant drift vs t (finest level of each scheme; 1e-17 marks exact zero)",
                         fontsize=10)
            figs.save(fig, f"{tag}invariants_{prob}", f"{prob}: invariant drift", "invariants", prob, sorted(shown),
                      "Relative deviation of each invariant of the problem, computed by the problem from the "
                      "canonical state, at each scheme's finest step; the claim each scheme declares in brackets.")
        # -- long-time energy (the full suite): running max |E - E0| / S_E vs t, log-log
        lt = [r for r in ran if (r.get("long_time_energy") or {}).get("t")]
        if lt:
            fig, (ax,), lax = figs.subplots(1, 10, 5.2, entries=len(lt))
            for r in lt:
                L = r["long_time_energy"]
                col, _, ls = style[r["integrator"]]
                y = [max(v, 1e-17) if finite(v) else float("nan") for v in L["max_deviation"]]
                a = L["exponent"]
                label = (f"{r['integrator']}: {L['behaviour']}{'?' if L['uncertain'] else ''}"
                         + (f", a = {a:.2f}" if finite(a) else "") + (" (breakdown)" if L["status"] == "breakdown" else ""))
                ax.loglog(L["t"], y, ls, color=col, lw=1, label=label)
            ax.set_xlabel("t - t0")
            ax.set_ylabel("max over [t0, t] of |E - E0| / S_E")
            ax.set_title(f"{prob}: long-time energy (max |dE| ~ t^a: a < 1/4 bounded, 1/2 random walk, 1 linear drift)",
                         fontsize=10)
            ax.grid(True, which="both", lw=0.3)
            figs.shared_legend(lax, [r["integrator"] for r in lt], style) if lax else ax.legend(fontsize=6.5, ncol=2)
            figs.save(fig, f"{tag}long_time_{prob}", f"{prob}: long-time energy", "long_time", prob,
                      sorted(r["integrator"] for r in lt),
                      "The full suite's long-time run of each scheme at the ladder's second step: the running maximum "
                      "of the energy error, its fitted growth exponent a (last three decades) and the behaviour it "
                      "indicates (docs/metrics.md, Long-time energy).")


def render_bench(figs, rep, style):
    plt = figs.plt
    wp = rep.get("work_precision") or {}
    series = wp.get("series") or []
    probs = {}
    for s in series:
        probs.setdefault(s["problem"], []).append(s)
    for prob, ss in probs.items():
        fig, axes = plt.subplots(1, 2, figsize=figs.size(14, 5.2), layout="constrained")
        shown = []
        for ax, key, pkey, xlabel in ((axes[0], "cpu_seconds", "pareto_cpu", "CPU time of the run [s] (fastest; bar: slowest)"),
                                      (axes[1], "instructions", "pareto_instructions", "instructions of the run")):
            front = []
            for s in ss:
                pts = [p for p in s["points"] if finite(p.get(key)) and finite(p.get("error")) and p["error"] > 0]
                if not pts:
                    continue
                col, mk, ls = style[s["integrator"]]
                adaptive = any(finite(p.get("tol")) for p in pts)
                label = s["integrator"] + (" (tol)" if adaptive else "")
                if key == "cpu_seconds":  # the fastest repetition, the bar reaching the slowest
                    spread = [max(0.0, p["cpu_seconds_max"] - p[key]) if finite(p.get("cpu_seconds_max")) else 0.0
                              for p in pts]
                    ax.errorbar([p[key] for p in pts], [p["error"] for p in pts], xerr=[[0.0] * len(pts), spread],
                                fmt=ls + mk, color=col, ms=3.5, lw=1, elinewidth=0.8, capsize=1.5, label=label)
                    ax.set_xscale("log")
                    ax.set_yscale("log")
                else:
                    ax.loglog([p[key] for p in pts], [p["error"] for p in pts], ls + mk, color=col, ms=3.5, lw=1,
                              label=label)
                front += [(p[key], p["error"]) for p in pts if p.get(pkey)]
                if s["integrator"] not in shown:
                    shown.append(s["integrator"])
            if front:
                front.sort()
                ax.loglog([f[0] for f in front], [f[1] for f in front], "k--", lw=1.2, label="Pareto front")
            ax.set_xlabel(xlabel)
            _, ylabel, unit = metric_label(rep, wp.get("error_metric", "error"))
            ax.set_ylabel(f"{ylabel.split(' (')[0]} [{unit}]" if unit else ylabel.split(" (")[0])
            ax.grid(True, lw=0.3)
        axes[0].legend(fontsize=6.5)
        figs.title(fig, f"{prob}: work-precision (step and tolerance ladders; lower left is better)")
        figs.save(fig, f"work_precision_{prob}", f"{prob}: work-precision", "work_precision", prob, shown,
                  "Error at t_end against the cost of the whole run, by CPU time (the fastest of the timed "
                  "repetitions, the bar reaching the slowest) and by instruction count (callgrind): a fixed-step "
                  "scheme's points are its steps h, an adaptive scheme's (tol) its tolerances (whole runs over its "
                  "output times, docs/adaptive.md); the dashed line is the Pareto front over all schemes.")


def history_changes(p):
    """The change points and verdict changes of one pair of a history document."""
    cps = list((p["error"] or {}).get("change_points", []))
    for s in p["instructions"] + ((p.get("work") or {}).get("series") or []):
        cps += s["change_points"]
    return cps, p["verdict_changes"]


def work_label(s):
    """An adaptive pair's work series, by measure (and toolchain for instructions)."""
    return s["measure"].replace("_", " ") + (f' [{s["environment"]}]' if s.get("environment") else "")


def render_history(figs, doc):
    """Per scheme x problem: instructions per step (one line per toolchain) and the error at one h,
    across revisions (oldest left), change points marked (docs/history.md)."""
    plt = figs.plt
    revs = [r["revision"] for r in doc["revisions"]]
    step = max(1, math.ceil(len(revs) / 14))
    ticks = list(range(0, len(revs), step))
    if revs and ticks[-1] != len(revs) - 1:
        ticks.append(len(revs) - 1)
    pairs = sorted(doc["pairs"], key=lambda p: (-sum(len(x) for x in history_changes(p)), p["problem"], p["integrator"]))
    for p in pairs:
        work = p.get("work")
        if work:  # an adaptive pair: a third panel, its work per unit simulated time at one tolerance
            fig, (a0, a1, a2) = plt.subplots(1, 3, figsize=figs.size(15, 3.4), layout="constrained")
        else:
            fig, (a0, a1) = plt.subplots(1, 2, figsize=figs.size(11, 3.4), layout="constrained")
        markers = "os^vD<>"
        for k, s in enumerate(p["instructions"]):
            pts = [(q["index"], q["value"]) for q in s["points"] if finite(q["value"])]
            if pts:
                a0.plot([x for x, _ in pts], [y for _, y in pts], "-" + markers[k % len(markers)], ms=4, lw=1,
                        label=s["environment"])
            for c in s["change_points"]:
                a0.axvline(c["index"], color="C3" if c["direction"] == "worse" else "C2", ls="--", lw=1)
                if finite(c["ratio"]):
                    a0.annotate(f"x{c['ratio']:.3f}", (c["index"], c["after"]), fontsize=7, xytext=(3, 3),
                                textcoords="offset points")
        a0.set_ylabel("instructions per step")
        a0.set_title("instructions per step (callgrind; one line per toolchain)", fontsize=9)
        if p["instructions"]:
            a0.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False)
        else:
            a0.text(0.5, 0.5, "adaptive: instructions per unit time, right" if work else "no bench runs recorded",
                    ha="center", va="center", transform=a0.transAxes)
        e = p["error"]
        if e and any(finite(q["value"]) and q["value"] > 0 for q in e["points"]):
            pts = [(q["index"], q["value"]) for q in e["points"] if finite(q["value"]) and q["value"] > 0]
            a1.semilogy([x for x, _ in pts], [y for _, y in pts], "-o", ms=4, lw=1, color="C0", label="error (median of runs)")
            al = [(q["index"], q["allowance"]) for q in e["points"] if finite(q["allowance"]) and q["allowance"] > 0]
            if al:
                a1.semilogy([x for x, _ in al], [y for _, y in al], ":", color="0.5", lw=1,
                            label="reference floor + rounding allowance")
            for c in e["change_points"]:
                a1.axvline(c["index"], color="C3" if c["direction"] == "worse" else "C2", ls="--", lw=1)
                if finite(c["ratio"]):
                    a1.annotate(f"x{c['ratio']:.3g}", (c["index"], c["after"]), fontsize=7, xytext=(3, 3),
                                textcoords="offset points")
            a1.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False, ncol=2)
            h = e["h"]
            a1.set_title(f"{e['metric']} at h = {h:g}" if finite(h) else e["metric"], fontsize=9)
        else:
            a1.text(0.5, 0.5, "no errors recorded", ha="center", va="center", transform=a1.transAxes)
        axes = (a0, a1)
        if work:
            axes = (a0, a1, a2)
            for k, s in enumerate(work["series"]):
                pts = [(q["index"], q["value"]) for q in s["points"] if finite(q["value"]) and q["value"] > 0]
                if pts:
                    a2.semilogy([x for x, _ in pts], [y for _, y in pts], "-" + "os^vD<>"[k % 7], ms=4, lw=1,
                                label=work_label(s))
                for c in s["change_points"]:
                    a2.axvline(c["index"], color="C3" if c["direction"] == "worse" else "C2", ls="--", lw=1)
            a2.set_title(f"work per unit time at tol = {work['tol']:g}", fontsize=9)
            if any(s["points"] for s in work["series"]):
                a2.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False, ncol=2)
        for v in p["verdict_changes"]:
            for ax in axes:
                ax.axvline(v["index"], color="C1", ls=":", lw=1)
        for ax in axes:
            ax.set_xticks(ticks)
            # "REV with SCHEME IDENTITY" (an outside scheme's, docs/history.md): the identity on a line of its own.
            ax.set_xticklabels([revs[i].replace(" with ", "\n", 1) for i in ticks], rotation=35, ha="right", fontsize=6.5)
            ax.set_xlim(-0.5, max(len(revs) - 0.5, 0.5))
            ax.grid(True, lw=0.3)
        figs.title(fig, f"{p['integrator']} x {p['problem']}: across revisions (oldest left)")
        cps, vcs = history_changes(p)
        note = (f"{len(cps)} change point(s) (dashed: red worse, green better), {len(vcs)} verdict change(s) (dotted orange)."
                if cps or vcs else "No change points.")
        figs.save(fig, f"history_{p['integrator']}_{p['problem']}", f"{p['integrator']} x {p['problem']}: history",
                  "history", None, [p["integrator"]],
                  "Instructions per step (left) and the error at one step size (right) at each recorded revision "
                  "(an adaptive pair: its error at one tolerance, and a third panel with its steps, right-hand sides, "
                  "loads and instructions per unit of simulated time there); "
                  "a change point is the first revision outside the gate's tolerance band around the value at the "
                  "previous change point. " + note)


def history_tables(doc):
    s = doc["summary"]
    revs = doc["revisions"]
    out = [f'<p>{s["revisions"]} revision(s) ({esc(revs[0]["revision"]) if revs else "-"} to '
           f'{esc(revs[-1]["revision"]) if revs else "-"}), {s["runs"]} run(s), {s["pairs"]} pair(s) from '
           f'{esc(doc["database"])}. Tolerance bands: instructions x{doc["tolerances"]["instructions_factor"]:g}, '
           f'errors x{doc["tolerances"]["error_factor"]:.4g} plus the reference floor and rounding allowance '
           f'(the gate\'s rules). {s["change_points"]} change point(s), {s["verdict_changes"]} verdict change(s), '
           f'{s["at_newest_revision"]} at the newest revision.</p>']
    rows = []
    for p in doc["pairs"]:
        e = p["error"]
        if e:
            for c in e["change_points"]:
                rows.append((p, f'{e["metric"]} at h = {fmtn(e["h"])}', c))
        for sr in p["instructions"]:
            for c in sr["change_points"]:
                rows.append((p, f'instructions/step [{sr["environment"]}]', c))
        for sr in (p.get("work") or {}).get("series") or []:
            for c in sr["change_points"]:
                rows.append((p, f'{work_label(sr)} per unit time at tol = {fmtn(p["work"]["tol"])}', c))
    if rows:
        out.append("<table><tr><th>scheme</th><th>problem</th><th>quantity</th><th>revision</th><th>before</th>"
                   "<th>after</th><th>ratio</th><th>direction</th></tr>")
        for p, what, c in rows:
            cls = "fail" if c["direction"] == "worse" else "pass"
            out.append(f'<tr><td>{esc(p["integrator"])}</td><td>{esc(p["problem"])}</td><td>{esc(what)}</td>'
                       f'<td>{esc(c["revision"])}</td><td>{fmtn(c["before"], 4)}</td><td>{fmtn(c["after"], 4)}</td>'
                       f'<td>{fmtn(c["ratio"], 4)}</td><td><span class="{cls}">{esc(c["direction"])}</span></td></tr>')
        out.append("</table>")
    vcs = [(p, v) for p in doc["pairs"] for v in p["verdict_changes"]]
    if vcs:
        out.append("<table><tr><th>scheme</th><th>problem</th><th>check</th><th>revision</th><th>from</th><th>to</th></tr>")
        for p, v in vcs:
            out.append(f'<tr><td>{esc(p["integrator"])}</td><td>{esc(p["problem"])}</td><td>{esc(v["check"])}</td>'
                       f'<td>{esc(v["revision"])}</td><td>{verdict(v["from"])}</td><td>{verdict(v["to"])}</td></tr>')
        out.append("</table>")
    return "\n".join(out)


def render_paper(figs, rep, style):
    items = rep.get("paper_reproductions") or []
    # Paper 001 Fig. 1: E-error, printed q-error, true H1 distance on the 3-D pendulum.
    p001 = [i for i in items if i["paper"] == "001" and "Fig. 1" in i["item"]]
    if p001:
        fig, axes, lax = figs.subplots(3, 17 / 3, 5.6, entries=len(p001))
        shown = []
        for ax, key, title in ((axes[0], "E_error", "E-error (paper 001 eqs. 37-38)"),
                               (axes[1], "q_error_as_printed", "q-error as printed (eqs. 35-36): slope p/2"),
                               (axes[2], "h1_distance", "true H1 distance: slope p")):
            shown += convergence_panel(ax, [(i["integrator"], i["data"][key]) for i in p001 if key in i["data"]], style,
                                       title, "error", legend=lax is None)
        if lax:
            figs.shared_legend(lax, sorted(set(shown), key=shown.index), style)
        else:
            fig.suptitle("Paper 001 Fig. 1 reproduced: pendulum3d, t_N = 10, h = 0.1 2^-k", fontsize=10)
        figs.save(fig, "paper001_fig1", "Paper 001 Fig. 1", "paper", "pendulum3d", shown,
                  "The printed q-error compares squared norms, hence slope p/2; the true H1 distance shows p.")
    # Paper 002: relative Hamiltonian error of the heavy top for h in {0.001, 0.003, 0.009}.
    p002 = [i for i in items if i["paper"] == "002" and "runs" in i.get("data", {})]
    if p002:
        hs = sorted({run["h"] for i in p002 for run in i["data"]["runs"]})
        for subset, name, title, log in (
                ([i for i in p002 if i["integrator"].startswith("rig_")], "paper002_hamiltonian",
                 "Paper 002 Figs. 11-13: (H - H0)/H0 of the heavy top, RIG_POS / RIG_NEG / RIG_IMP", False),
                (p002, "paper002_hamiltonian_all",
                 "Paper 002 study for every applicable scheme: |H - H0|/H0 (log scale)", True)):
            if not subset:
                continue
            fig, axes, lax = figs.subplots(len(hs), 6, 4.8, entries=len({i["integrator"] for i in subset}))
            shown = []
            for ax, h in zip(axes, hs):
                for i in subset:
                    for run in i["data"]["runs"]:
                        if run["h"] != h or not run.get("t"):
                            continue
                        col, _, ls = style[i["integrator"]]
                        # A run that blew up is cut where |H - H0|/H0 passes 1e3 (its status says breakdown).
                        y = [v if finite(v) and abs(v) <= 1e3 else float("nan") for v in run["relative_H_error"]]
                        shown.append(i["integrator"])
                        if log:
                            y = [max(abs(v), 1e-17) if finite(v) else float("nan") for v in y]
                            ax.semilogy(run["t"], y, ls, color=col, lw=0.9,
                                        label=f"{i['integrator']} ({run['direction']})")
                        else:
                            ax.plot(run["t"], y, ls, color=col, lw=0.9, label=f"{i['integrator']} ({run['direction']})")
                rot = max((run.get("rotation_per_step_deg", 0) for i in subset for run in i["data"]["runs"]
                           if run["h"] == h), default=0)
                ax.set_title(f"h = {h:g} (up to {rot:.1f} deg per step)", fontsize=None if lax else 9)
                ax.set_xlabel("t")
                ax.grid(True, lw=0.3)
                if not lax:
                    ax.legend(fontsize=6.5)
            if lax:
                figs.shared_legend(lax, sorted(set(shown), key=shown.index), style)
            else:
                fig.suptitle(title, fontsize=10)
            figs.save(fig, name, title, "paper", "heavy_top", shown,
                      "H0 = %.6f; the direction of drift (least-squares trend against the largest excursion) in the "
                      "legend." % p002[0]["data"]["H0"])


# ---------------------------------------------------------------------------------------------
# Interactive figures (plotly): the convergence and work-precision figures with a hover on every point
# ---------------------------------------------------------------------------------------------

PLOTLY_SYMBOLS = {"o": "circle", "s": "square", "^": "triangle-up", "v": "triangle-down", "D": "diamond",
                  "<": "triangle-left", ">": "triangle-right", "p": "pentagon", "P": "cross", "h": "hexagon",
                  "X": "x", "*": "star", "d": "diamond-tall", "H": "hexagon2", "8": "octagon", "1": "y-down",
                  "2": "y-up", "3": "y-left", "4": "y-right", "+": "cross-thin"}
PLOTLY_DASH = {"-": "solid", "--": "dash", ":": "dot", "-.": "dashdot"}


def script_json(text):
    """JSON text made safe inside an HTML <script> element: <, > and & as \\u escapes (a "<!--<script>"
    in a file name put the parser in the script's double-escaped state, and the page drew nothing), and
    U+2028/U+2029, which JSON allows in strings and older JavaScript does not. Outside strings JSON
    holds none of these characters, so the text means what it meant."""
    for c, e in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(c, e)
    return text


class InteractiveFigures:
    """The plotly figures of interactive.html, each drawn by Plotly.newPlot from its JSON, and what the
    manifest says of them."""

    CONV_HOVER = ("<b>%{customdata[0]}</b><br>input: %{customdata[1]}<br>h = %{x:.4~g}<br>error = %{y:.4e}"
                  "<br>cost: %{customdata[2]}")
    WP_HOVER = ("<b>%{customdata[0]}</b><br>input: %{customdata[1]}<br>h = %{customdata[2]:.4~g}<br>"
                "error = %{y:.4e}<br>CPU time: %{customdata[3]:.4g} s<br>instructions: %{customdata[4]:.4g}")

    def __init__(self, style):
        import plotly.graph_objects as go
        import plotly.io as pio
        from plotly.subplots import make_subplots
        self.go, self.pio, self.make_subplots = go, pio, make_subplots
        self.style = style
        self.figures, self.divs = [], []

    def trace(self, key, x, y, custom, legend, hover):
        col, mk, ls = self.style[key]
        return self.go.Scatter(x=x, y=y, customdata=custom, name=key, legendgroup=key, showlegend=legend,
                               mode="lines+markers",
                               line={"color": col, "dash": PLOTLY_DASH.get(ls, "solid"), "width": 1.5},
                               marker={"color": col, "symbol": PLOTLY_SYMBOLS.get(mk, "circle"), "size": 7},
                               hovertemplate=hover + "<extra></extra>")

    def add(self, fig, name, problem, kind, title, series):
        fig.update_layout(title={"text": title, "font": {"size": 15}}, template="plotly_white", height=520,
                          legend={"font": {"size": 11}}, hoverlabel={"namelength": -1}, margin={"t": 90})
        fig.update_xaxes(type="log", exponentformat="power", showgrid=True)
        fig.update_yaxes(type="log", exponentformat="power", showgrid=True)
        div = f"ix-{name}"
        # The figure as JSON drawn by Plotly.newPlot (plotly 5.4's to_html cannot name its div), made
        # safe for the HTML script context (script_json): no string from an input can end the script
        # or open a comment in it.
        spec = script_json(self.pio.to_json(fig, validate=False))
        config = json.dumps({"displaylogo": False, "responsive": True})
        self.divs.append((problem, f'<div id="{div}" class="ix" style="height:520px"></div>\n<script>(function(){{'
                                   f'var f = {spec}; Plotly.newPlot("{div}", f.data, f.layout, {config});}})();</script>'))
        self.figures.append({"name": name, "div": div, "problem": problem, "kind": kind, "title": title,
                             "series": sorted({scheme_of(k) for k in series}), "legend": sorted(set(series))})

    def convergence(self, rep, prob, ran):
        """The problem's convergence panels that apply, one trace per series and panel; hover: the
        level's steps and seconds."""
        keys = panels_that_apply(rep, ran)
        if not ran or not keys:
            return
        titles = [wrapped(metric_label(rep, k)[1], 40).replace("\n", "<br>") for k in keys]
        fig = self.make_subplots(rows=1, cols=len(keys), subplot_titles=titles, horizontal_spacing=0.07)
        shown = []
        for col, key in enumerate(keys, start=1):
            section, _, unit = metric_label(rep, key)
            for r in ran:
                c = (r.get(section) or {}).get(key)
                pts = [(h, e) for h, e in zip(c["h"], c["error"]) if finite(e) and e > 0] if c else []
                if not pts:
                    continue
                by_h = {lv.get("h"): lv for lv in r.get("levels") or []}
                cost = [f"{by_h.get(h, {}).get('steps', '?')} steps" +
                        (f", {by_h[h]['seconds']:.3g} s" if finite(by_h.get(h, {}).get("seconds")) else "") for h, _ in pts]
                fig.add_trace(self.trace(r["integrator"], [h for h, _ in pts], [e for _, e in pts],
                                         [[r["scheme"], r["input"], c_] for c_ in cost], r["integrator"] not in shown,
                                         self.CONV_HOVER), row=1, col=col)
                if r["integrator"] not in shown:
                    shown.append(r["integrator"])
            fig.update_xaxes(title_text="h", row=1, col=col)
            fig.update_yaxes(title_text=f"error [{unit}]" if unit else "error", row=1, col=col)
        self.add(fig, f"convergence_{prob}", prob, "convergence", f"{prob}: convergence", shown)

    def work_precision(self, prob, ss):
        """Error against CPU time and against instructions of every bench sweep on the problem."""
        fig = self.make_subplots(rows=1, cols=2, horizontal_spacing=0.08,
                                 subplot_titles=["error vs CPU time of the run", "error vs instructions of the run"])
        shown = []
        for col, key in ((1, "cpu_seconds"), (2, "instructions")):
            for sr in ss:
                pts = [q for q in sr["points"] if finite(q.get(key)) and finite(q.get("error")) and q["error"] > 0]
                if not pts:
                    continue
                custom = [[sr["scheme"], sr["input"], q.get("h"), q.get("cpu_seconds"), q.get("instructions")] for q in pts]
                fig.add_trace(self.trace(sr["integrator"], [q[key] for q in pts], [q["error"] for q in pts], custom,
                                         sr["integrator"] not in shown, self.WP_HOVER), row=1, col=col)
                if sr["integrator"] not in shown:
                    shown.append(sr["integrator"])
        fig.update_xaxes(title_text="CPU time of the run [s]", row=1, col=1)
        fig.update_xaxes(title_text="instructions of the run", row=1, col=2)
        fig.update_yaxes(title_text="error", row=1, col=1)
        if shown:
            self.add(fig, f"work_precision_{prob}", prob, "work_precision", f"{prob}: work-precision (lower left is better)",
                     shown)

    def page(self):
        """interactive.html: a heading per problem, its figures under it."""
        parts = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>rigidbench: interactive figures</title>",
                 f"<style>{CSS}</style><script src=\"plotly.min.js\"></script></head><body>",
                 "<h1>rigidbench: interactive figures</h1>",
                 '<p class="meta">Hover a point for its scheme, input, step size, error and cost; click a legend entry to '
                 'hide a scheme in every panel, double-click to show it alone. The static figures for papers are on the '
                 '<a href="index.html">report page</a>.</p>']
        last = None
        for prob, div in self.divs:
            if prob != last:
                parts.append(f'<h2 id="ix-p-{esc(prob)}">{esc(prob)}</h2>')
                last = prob
            parts.append(div)
        parts.append("</body></html>\n")
        return "\n".join(parts)


def write_interactive(out_dir, verify_rows, bench_rows, style, progress=False, static=None):
    """DIR/interactive.html: per problem, the convergence panels and the work-precision figure as plotly
    figures (hover: scheme, input, h, error, cost; click a legend entry to hide a scheme in every panel),
    drawn by DIR/plotly.min.js, the plotly.js that Debian's python3-plotly ships (no network). What it
    wrote, for the manifest; None without figures; without plotly, the reason."""
    if not verify_rows and not bench_rows:
        return None
    try:
        import plotly
        from plotly.offline import get_plotlyjs
        figs = InteractiveFigures(style)
    except ImportError:
        return {"page": None, "reason": "python3-plotly is not installed (apt-get install python3-plotly): "
                                        "no interactive figures"}
    t0 = time.monotonic()
    rep = {"metrics": list(METRICS.values())}
    # Guarded as the static figures are (main): `static` keeps the record of what was not drawn.
    for prob, rs in by_problem(verify_rows).items():
        guarded(static, f"the interactive convergence figure of {prob}",
                lambda prob=prob, rs=rs: figs.convergence(rep, prob, [r for r in rs if "convergence" in r]))
    for prob, ss in by_problem(bench_rows).items():
        guarded(static, f"the interactive work-precision figure of {prob}",
                lambda prob=prob, ss=ss: figs.work_precision(prob, ss))
    if not figs.figures:
        return None
    js = get_plotlyjs()
    js_path = os.path.join(out_dir, "plotly.min.js")
    # Reused only if it is the same script byte for byte (its SHA-256): one of the right size with
    # other content was kept and run by the page.
    import hashlib
    want = hashlib.sha256(js.encode()).hexdigest()
    have = None
    if os.path.isfile(js_path) and not os.path.islink(js_path):
        with open(js_path, "rb") as f:
            have = hashlib.sha256(f.read()).hexdigest()
    if have != want:
        write_atomic(js_path, js)
    write_atomic(os.path.join(out_dir, "interactive.html"), figs.page())
    if progress:
        print(f"report: interactive.html ({len(figs.figures)} figures, {time.monotonic() - t0:.1f} s)", file=sys.stderr,
              flush=True)
    return {"page": "interactive.html", "script": "plotly.min.js", "script_sha256": want, "plotly": plotly.__version__,
            "figures": figs.figures}


# ---------------------------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------------------------

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1400px;color:#222;
padding:0 16px}
h1{font-size:1.6em} h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:2em} h3{margin-top:1.5em}
table{border-collapse:collapse;font-size:12.5px;margin:8px 0 16px} th,td{border:1px solid #ccc;padding:3px 7px}
th{background:#f2f2f2} td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#176b2c;font-weight:600} .fail{color:#b00020;font-weight:700} .undefined{color:#8a6d00}
.known{color:#6b4f00;font-weight:600} .legend{font-size:12.5px;margin:8px 0} .legend dt{font-weight:600;float:left;clear:left;width:14em}
.legend dd{margin-left:15em}
figure{margin:10px 0 26px} figure img{max-width:100%;border:1px solid #eee} figcaption{font-size:12px;color:#555}
.meta{font-size:12px;color:#555} nav a{margin-right:12px} code{background:#f5f5f5;padding:0 3px}
"""


def esc(x):
    return html.escape(str(x))


def fmtn(x, d=3):
    if not finite(x):
        return "-"
    return f"{x:.{d}g}"


def verdict(v):
    return f'<span class="{esc(v)}">{esc(v)}</span>'


def figure_html(item, out_dir, inline):
    if "png" in item["files"]:
        path = os.path.join(out_dir, item["files"]["png"])
        if inline:
            with open(path, "rb") as f:
                src = "data:image/png;base64," + base64.b64encode(f.read()).decode()
        else:
            src = item["files"]["png"]
    else:
        src = item["files"].get("svg") or next(iter(item["files"].values()))
    links = " ".join(f'<a href="{esc(p)}">{esc(k)}</a>' for k, p in item["files"].items())
    lazy = "" if inline else ' loading="lazy"'  # a linked figure is fetched when scrolled to
    return (f'<figure id="{esc(item["name"])}"><img{lazy} alt="{esc(item["title"])}" src="{src}">'
            f'<figcaption><b>{esc(item["title"])}</b>. {esc(item["caption"])} Files: {links}.</figcaption></figure>')


def compare_tables(cmp):
    out = [f'<p class="meta">Metric <code>{esc(cmp["metric"])}</code>, target error {fmtn(cmp["target_error"])}. '
           f'{esc(cmp["method"])} "~" marks a value read outside the measured asymptotic range.</p>']
    for P in cmp["problems"]:
        out.append(f'<h3 id="cmp-{esc(P["problem"])}">{esc(P["problem"])}'
                   f'{" — " + esc(P["title"]) if P.get("title") else ""}</h3>')
        axis = next((r["attitude_anatomy"]["axis"] for r in P["rows"] if r.get("attitude_anatomy")), None)
        phase_note = (f" Attitude phase: the final attitude error's rotation about {esc(axis)} (signed, rad); shape: the "
                      "rest (docs/metrics.md, Error anatomy)." if axis else "")
        out.append(f'<p class="meta">Ranked by {esc(P["rank_by"])}; error at fixed h = {fmtn(P["h_fixed"])}.{phase_note}</p>')
        if not P["rows"]:
            out.append('<p class="meta">No scheme of the report integrates this problem: nothing to rank.</p>')
            out.append(skipped_html(P["skipped"]))
            continue
        # The ranked column in the one unit the problem ranks by (rank_unit; a comparison written before
        # it existed: the unit rank_by names).
        unit = P.get("rank_unit") or ("instructions" if "instructions" in P["rank_by"] else "cpu_seconds")
        scale, label = (1e-6, "Minstr") if unit == "instructions" else (1e3, "ms")
        out.append("<table><tr><th>rank</th><th>scheme</th><th>kind</th><th>order obs / exp</th><th>Q_II (2^p)</th>"
                   "<th>exact claims held</th><th>unclaimed, exact at every h</th><th>error at h</th>"
                   "<th>attitude: phase / shape (h)</th><th>ns/step (× odeint, × rk4)</th><th>instr/step (× odeint, × rk4)</th><th>flops/step (instr/flop)</th>"
                   "<th>steps to target</th>"
                   f"<th>cost to target ({label})</th></tr>")
        for r in P["rows"]:
            inv = r["invariants"]
            held = ", ".join(inv["claimed_and_held"]) or "-"
            if inv["claimed_and_failed"]:
                held += ' <span class="fail">FAILED: ' + esc(", ".join(inv["claimed_and_failed"])) + "</span>"
            ct, cp = r["cost_to_target"], r["cost_per_step"]
            tc = "~" if ct["extrapolated"] else ""
            cost = f'{tc}{fmtn(ct[unit] * scale)}' if finite(ct.get(unit)) and ct[unit] > 0 else "-"
            if cp.get("not_comparable"):  # an outside step built without optimisation: ranked, flagged
                cost += ' <span class="fail">(unoptimised build)</span>'
            te = "~" if r["error_at_h"]["extrapolated"] else ""
            an = r.get("attitude_anatomy")
            anatomy = f'{fmtn(an["phase"])} / {fmtn(an["shape"])} ({fmtn(an["h"])})' if an else "-"
            status = "" if r["status"] == "ok" else f' <span class="fail">({esc(r["status"])})</span>'
            if r.get("adaptive"):  # ranked from its tolerance ladder (docs/adaptive.md): the tolerance reaching the target
                status += f' (tol {tc}{fmtn(ct.get("tolerance"))})'
            out.append(
                f'<tr><td class="num">{r["rank"] if r["rank"] is not None else "-"}</td>'
                f'<td>{esc(r["integrator"])}{status}</td><td>{esc(r.get("kind", ""))}</td>'
                f'<td>{fmtn(r["order"]["observed"])} / {fmtn(r["order"]["expected"])} {verdict(r["order"]["verdict"])}</td>'
                f'<td>{fmtn(r["q_ii"]["median"], 4)} ({fmtn(r["q_ii"]["expected"])}) {verdict(r["q_ii"]["verdict"])}</td>'
                f'<td>{held}</td><td>{esc(", ".join(inv["unclaimed_exact_at_every_level"]) or "-")}</td>'
                f'<td class="num">{te}{"π (clipped)" if r["error_at_h"].get("clipped") else fmtn(r["error_at_h"]["error"])}</td>'
                f'<td class="num">{anatomy}</td>'
                f'<td class="num">{fmtn(cp["ns"], 4)} ({fmtn(cp["ratio_to_baseline"])}, {fmtn(cp.get("ratio_to_rk4"))})</td>'
                f'<td class="num">{fmtn(cp["instructions"], 4)} ({fmtn(cp["instruction_ratio_to_baseline"])}, '
                f'{fmtn(cp.get("instruction_ratio_to_rk4"))})</td>'
                f'<td class="num">{fmtn(cp.get("flops"), 4)} ({fmtn(cp.get("instructions_per_flop"))})</td>'
                f'<td class="num">{tc}{fmtn(ct["steps"])}</td><td class="num">{cost}</td></tr>')
        out.append("</table>")
        out.append(skipped_html(P["skipped"]))
    return "\n".join(out)


def skipped_html(skipped):
    """The schemes that do not apply, grouped by their own reasons (in order of first appearance)."""
    groups = {}
    for k in skipped:
        groups.setdefault(k["reason"], []).append(k["integrator"])
    if not groups:
        return ""
    return ('<p class="meta">Not applicable: ' +
            esc("; ".join(", ".join(names) + " (" + reason + ")" for reason, names in groups.items())) + ".</p>")


def tolerance_row(rep, r, span, label=None):
    """A table row of an adaptive pair: its tolerance ladder's verdicts over `span` columns."""
    t = r["tolerance_ladder"]
    p, rj, est = t.get("proportionality") or {}, t.get("rejected_fraction") or {}, t.get("estimator")
    failed = failed_cell(rep, r)
    # The expected slope is p/(q+1), 1 but for a declared estimate order (docs/adaptive.md, "Verdicts");
    # a report written before 0.5 has no "expected".
    estimate = (f'; its estimate\'s slope {fmtn(est.get("slope"))} / {fmtn(est.get("expected"))} {verdict(est.get("verdict"))}'
                if est else "")
    return (f'<tr><td>{esc(r["integrator"])}</td><td>{esc(r["problem"])}</td>' +
            (f"<td>{esc(label)}</td>" if label is not None else "") + f'<td>{esc(r["status"])}</td>'
            f'<td colspan="{span}">adaptive: error against tol, slope {fmtn(p.get("slope"))} / {fmtn(p.get("expected", 1))} '
            f'{verdict(p.get("verdict"))}; rejected {fmtn(rj.get("max"))} {verdict(rj.get("verdict"))}; '
            f'effective order {fmtn(t.get("effective_order"))}{estimate}</td>'
            f'<td class="fail">{esc(", ".join(failed))}</td></tr>')


def failed_cell(rep, r):
    """What a verdict table's "failed" column lists: the pair's failed checks by the gate's names
    (failed_checks, as tables/verdicts.csv and the expected-findings files name them), then the
    informational measures (docs/metrics.md, "Measures of a pair") that failed their rule, with
    their values."""
    checks = failed_checks(rep, r)
    return checks + [f'{k} ({fmtn(v.get("value"))}, informational)' for k, v in (r.get("measures") or {}).items()
                     if v.get("verdict") == "fail" and k not in checks]


def structure_mark(c):
    """What the one-step map was observed to be for one property: "broken" only for a property the scheme
    claims (a failed claim); a property it never claimed that does not hold is "no"."""
    o, claimed = c.get("observed", "not_checked"), bool(c.get("claimed"))
    word = {"preserved": "yes", "broken": "broken" if claimed else "no", "undecided": "undecided"}.get(o, "-")
    return esc(word) + ("*" if claimed else "")


def verify_table(rep):
    """Every pair with its verdicts (the quick suite's console table, from the JSON)."""
    rows = ["<table><tr><th>scheme</th><th>problem</th><th>status</th><th>levels</th><th>slope (att) / p</th>"
            "<th>Q_II / 2^p</th><th>exact invariants</th><th>symmetric / symplectic</th><th>failed checks</th></tr>"]
    for r in rep["results"]:
        if r["status"] == "skipped":
            continue
        if r.get("tolerance_ladder"):
            rows.append(tolerance_row(rep, r, 5))
            continue
        c = r["convergence"]["attitude_error_final"]
        q = r["q_ii"]
        ex = [k for k, v in r["invariants"].items() if v["claim"] == "exact"]
        exp_ = sum(1 for k in ex if r["invariants"][k]["verdict"] == "pass")
        failed = failed_cell(rep, r)
        st = r.get("structure") or {}
        structure = " / ".join(structure_mark(st.get(k) or {}) for k in ("symmetric", "symplectic"))
        stg = r.get("settings") or {}
        levels = (f'{stg.get("levels")}/{stg["levels_planned"]} {stg.get("ladder_stop", "")}'
                  if "levels_planned" in stg else str(stg.get("levels", "-")))
        rows.append(f'<tr><td>{esc(r["integrator"])}</td><td>{esc(r["problem"])}</td><td>{esc(r["status"])}</td>'
                    f'<td>{esc(levels)}</td>'
                    f'<td>{fmtn(c["slope"])} / {fmtn(c["expected"])} {verdict(c["verdict"])}</td>'
                    f'<td>{fmtn(q["median"], 4)} / {fmtn(q["expected"])} {verdict(q["verdict"])}</td>'
                    f'<td>{exp_}/{len(ex)}</td><td>{structure}</td><td class="fail">{esc(", ".join(failed))}</td></tr>')
    rows.append("</table>")
    rows.append('<p class="meta">levels: the step ladder\'s levels run / planned and how it ended - decided, floor '
                "or budget for a sequential ladder, fixed when every level ran (docs/metrics.md, \"Sequential ladders\").</p>")
    rows.append('<p class="meta">symmetric / symplectic: what the one-step map was observed to be (docs/metrics.md, '
                '"Structure"): yes, no, undecided or - (not checked); * marks a property the scheme claims, judged as a '
                "gating check, and only a claimed property that does not hold is called broken.</p>")
    return "\n".join(rows)


def paper_table(rep):
    rows = ["<table><tr><th>paper</th><th>item</th><th>scheme</th><th>problem</th><th>claim</th><th>verdict</th>"
            "<th>finding</th></tr>"]
    for i in rep["paper_reproductions"]:
        rows.append(f'<tr><td>{esc(i["paper"])}</td><td>{esc(i["item"])}</td><td>{esc(i["integrator"])}</td>'
                    f'<td>{esc(i["problem"])}</td><td>{esc(i["claim"])}</td><td>{verdict(i["verdict"])}</td>'
                    f'<td>{esc(i["finding"])}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def data_tables(rep):
    """Tables a paper item carries in data.tables = [{title, columns, rows}] (e.g. paper 000 Tables
    1-6: Q_II and invariants at t = 1..5), rendered as they are, values to the digits given."""
    out = []
    for i in rep["paper_reproductions"]:
        for t in (i.get("data") or {}).get("tables") or []:
            out.append(f'<h3>Paper {esc(i["paper"])} — {esc(t.get("title", i["item"]))} '
                       f'({esc(i["integrator"])}, {esc(i["problem"])})</h3>')
            out.append("<table><tr>" + "".join(f"<th>{esc(c)}</th>" for c in t["columns"]) + "</tr>")
            for row in t["rows"]:
                out.append("<tr>" + "".join(f'<td class="num">{esc(v) if not isinstance(v, float) else fmtn(v, 8)}'
                                            "</td>" for v in row) + "</tr>")
            out.append("</table>")
    return "\n".join(out)


def refuse_foreign_links(path, depth=0):
    """OSError (exit 5) when a component of `path` - a folder on the way or the file - is a symbolic
    link of another user's (neither this user nor root), following this user's links to where they
    lead: the rule of the command's own writes (docs/security.md, "Outputs"). A planted
    `figures` or `tables` link in a shared output folder made the page's files land elsewhere."""
    import errno
    import stat
    if depth > 40:
        raise OSError(errno.ELOOP, "too many levels of symbolic links", path)
    prefix = ""
    for part in os.path.abspath(path).split(os.sep):
        prefix = os.path.join(prefix, part) if prefix else (part or os.sep)
        try:
            st = os.lstat(prefix)
        except FileNotFoundError:
            return
        if not stat.S_ISLNK(st.st_mode):
            continue
        if st.st_uid not in (os.geteuid(), 0):
            raise OSError(errno.EPERM, f"'{prefix}' on its way is a symbolic link of another user (uid {st.st_uid}); "
                                       "rigidbench does not write through it", path)
        to = os.readlink(prefix)
        refuse_foreign_links(to if os.path.isabs(to) else os.path.join(os.path.dirname(prefix), to), depth + 1)


def refuse_inputs_among_outputs(out, paths):
    """BadInput when an input is a file the renderer writes (index.html, interactive.html,
    manifest.json, plotly.min.js, or one in figures/ or tables/): `report --in D/index.html --out D`
    and `history --history D/index.html --out D` replaced their input."""
    written = [os.path.join(out, n) for n in ("index.html", "interactive.html", "manifest.json", "plotly.min.js")]
    folders = {os.path.realpath(os.path.join(out, d)) for d in ("figures", "tables")}
    for p in paths:
        same = [w for w in written if os.path.exists(w) and os.path.exists(p) and os.path.samefile(p, w)]
        if same or os.path.realpath(os.path.dirname(os.path.abspath(p))) in folders:
            raise BadInput(f"'{p}' is a file this page's rendering into '{out}' writes: rigidbench does not replace its "
                           "own input - render into another folder")


def write_atomic(path, text):
    """A temporary created exclusively in the target's folder (mkstemp), written, renamed over the
    target; the temporary is removed if the write fails, and the OSError names the target."""
    refuse_foreign_links(path)
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise OSError(e.errno, e.strerror, path) from e


# Options of `verify` that say where and how it wrote, not what it ran: left out of a section's title.
OUTPUT_OPTIONS = {"--out": 1, "--quiet": 0, "--progress": 0, "--no-progress": 0, "--jobs": 1, "-j": 1,
                  "--junit": 1, "--history": 1, "--cache-dir": 1}


def what_was_run(rep):
    """A verify report's command as its section title (`rigidbench verify --problem heavy_top`): the
    program's name and its arguments without the output options; a Python run: its call
    (`rigidbench.verify(...)`); a report without its command: its suite."""
    cmd = rep.get("command")
    if not isinstance(cmd, list) or not cmd or not all(isinstance(c, str) for c in cmd):
        return f"suite {rep.get('suite', '')}"
    if len(cmd) == 2 and cmd[1].startswith("rigidbench."):
        return cmd[1]
    args, out, skip = cmd[1:], [], 0
    for a in args:
        if skip:
            skip -= 1
            continue
        name = a.split("=", 1)[0]
        if name in OUTPUT_OPTIONS:
            skip = OUTPUT_OPTIONS[name] if "=" not in a else 0
            continue
        out.append(a)
    return " ".join([os.path.basename(cmd[0])] + out)


def scheme_sections(inputs):
    """One section per scheme: its pairs in every verify input, with the verdicts and a link to each
    problem's figures."""
    labels = input_labels([p for p, _ in inputs["verify"]])
    by_scheme = {}
    for (_, rep), label in zip(inputs["verify"], labels):
        for r in rep["results"]:
            if r["status"] != "skipped":
                by_scheme.setdefault(r["integrator"], []).append((label, r))
    if not by_scheme:
        return ""
    several = len(inputs["verify"]) > 1
    out = ['<h2 id="schemes">Per scheme</h2>']
    for name in sorted(by_scheme):
        rows = by_scheme[name]
        info = rows[0][1].get("scheme") or {}
        origin = info.get("origin", "")
        out.append(f'<h3 id="s-{esc(name)}">{esc(name)}</h3>')
        if info.get("title"):
            out.append(f'<p class="meta">{esc(info["title"])}; order {esc(info.get("order", "-"))}, '
                       f'{esc(info.get("kind", ""))}{", " + esc(origin) if origin else ""}.</p>')
        out.append("<table><tr><th>problem</th>" + ("<th>input</th>" if several else "") +
                   "<th>status</th><th>slope (att) / p</th><th>Q_II / 2^p</th><th>exact invariants held</th>"
                   "<th>seconds</th></tr>")
        for label, r in rows:
            if r.get("tolerance_ladder"):
                t = r["tolerance_ladder"]
                p = t.get("proportionality") or {}
                out.append(f'<tr><td><a href="#p-{esc(r["problem"])}">{esc(r["problem"])}</a></td>' +
                           (f"<td>{esc(label)}</td>" if several else "") +
                           f'<td>{esc(r["status"])}</td><td colspan="3">tolerance slope {fmtn(p.get("slope"))} / 1 '
                           f'{verdict(p.get("verdict"))}</td><td class="num">{fmtn(r.get("seconds"))}</td></tr>')
                continue
            c = r["convergence"]["attitude_error_final"]
            q = r["q_ii"]
            ex = [k for k, v in r["invariants"].items() if v["claim"] == "exact"]
            held = sum(1 for k in ex if r["invariants"][k]["verdict"] == "pass")
            out.append(f'<tr><td><a href="#p-{esc(r["problem"])}">{esc(r["problem"])}</a></td>' +
                       (f"<td>{esc(label)}</td>" if several else "") +
                       f'<td>{esc(r["status"])}</td><td>{fmtn(c["slope"])} / {fmtn(c["expected"])} {verdict(c["verdict"])}</td>'
                       f'<td>{fmtn(q["median"], 4)} / {fmtn(q["expected"])} {verdict(q["verdict"])}</td>'
                       f'<td>{held}/{len(ex)}</td><td class="num">{fmtn(r.get("seconds"))}</td></tr>')
        out.append("</table>")
    return "\n".join(out)


def failed_claims(inputs):
    """Every pair of the verify inputs that failed a check, as {(integrator, problem, input label):
    entry}: its failed checks split into known (listed in the expected findings its run was given,
    `verify --expect`, with the listed reason) and new; `matched` is whether that run had such a list."""
    claims = {}
    labels = input_labels([p for p, _ in inputs["verify"]])
    for (_, rep), label in zip(inputs["verify"], labels):
        outcomes = (rep.get("expectations") or {}).get("outcomes")
        for r in rep["results"]:
            checks = failed_checks(rep, r)
            if not checks:
                continue
            e = claims.setdefault((r["integrator"], r["problem"], label if len(labels) > 1 else ""),
                                  {"known": [], "new": [], "reasons": [], "matched": outcomes is not None})
            listed = {o["check"]: o.get("reason", "") for o in outcomes or []
                      if o["integrator"] == r["integrator"] and o["problem"] == r["problem"]
                      and o.get("outcome") == "expected_failure"}
            for c in checks:
                (e["known"] if c in listed else e["new"]).append(c)
                if c in listed and listed[c] not in e["reasons"]:
                    e["reasons"].append(listed[c])
    return claims


def ranking_cell(r, unit, scale, label, claims, problem):
    ct = r["cost_to_target"]
    cost = f'{"~" if ct.get("extrapolated") else ""}{fmtn(ct[unit] * scale)} {label}' \
        if finite(ct.get(unit)) and ct[unit] > 0 else "-"
    if (r.get("cost_per_step") or {}).get("not_comparable"):
        cost += " (unoptimised build)"
    if claims is None:  # no verify input: the head-to-head row's own verdicts, each failure unmatched
        inv = r.get("invariants") or {}
        finding = "new" if (inv.get("claimed_and_failed") or (r.get("order") or {}).get("verdict") == "fail"
                            or (r.get("q_ii") or {}).get("verdict") == "fail") else None
    else:
        found = [e for k, e in claims.items() if k[:2] == (r["integrator"], problem)]
        finding = "new" if any(e["new"] for e in found) else "known" if found else None
    mark = {"new": ' <span class="fail" title="failed a claim it made on this problem">&#x2020;</span>',
            "known": ' <span class="known" title="a known finding">&#x2020;</span>', None: ""}[finding]
    return f'<td><a href="#s-{esc(r["integrator"])}">{esc(r["integrator"])}</a>{mark} <span class="meta">{cost}</span></td>'


def who_wins(inputs):
    """The page's first screen: per problem, the ranking to the target accuracy (from the compare
    input), then every scheme that failed a claim it made, new findings first, known ones marked
    known (docs/reports.md, "The first screen")."""
    claims = failed_claims(inputs) if inputs["verify"] else None  # None: from the compare rows
    out = ['<h2 id="who-wins">Who wins</h2>']
    for _, cmp in inputs["compare"]:
        out.append(f'<p>Fastest to an error of {fmtn(cmp["target_error"])} in <code>{esc(cmp["metric"])}</code>, per '
                   'problem (the head-to-head below has every scheme and its measures):</p>')
        out.append("<table><tr><th>problem</th><th>1st</th><th>2nd</th><th>3rd</th><th>ranked</th>"
                   "<th>not applicable</th></tr>")
        for P in cmp["problems"]:
            unit = P.get("rank_unit") or ("instructions" if "instructions" in P["rank_by"] else "cpu_seconds")
            scale, label = (1e-6, "Minstr") if unit == "instructions" else (1e3, "ms")
            ranked = sorted((r for r in P["rows"] if r.get("rank") is not None), key=lambda r: r["rank"])
            cells = [ranking_cell(r, unit, scale, label, claims, P["problem"]) for r in ranked[:3]]
            cells += ["<td>-</td>"] * (3 - len(cells))
            out.append(f'<tr><td><a href="#cmp-{esc(P["problem"])}">{esc(P["problem"])}</a></td>{"".join(cells)}'
                       f'<td class="num">{len(ranked)} of {len(P["rows"])}</td><td class="num">{len(P["skipped"])}</td></tr>')
        out.append("</table>")
    if not inputs["compare"]:
        out.append('<p class="meta">No head-to-head input: <code>rigidbench compare</code> ranks the schemes per '
                   "problem (give its compare.json to <code>report</code> for the ranking here).</p>")
    if inputs["verify"]:
        out.append(failed_claims_html(claims))
    else:
        out.append('<p class="meta">No verify input: &#x2020; marks a failed order, Q_II or claimed invariant from the '
                   "head-to-head's own verdicts; give the verify report too to list every failed claim, known or "
                   "new.</p>")
    out.append(legend_html())
    return "\n".join(out)


def failed_claims_html(claims):
    if not claims:
        return "<p>No scheme failed a claim it made: every verdict that was judged passed.</p>"
    unmatched = sorted(k for k, e in claims.items() if not e["matched"])
    new = sorted(k for k, e in claims.items() if e["matched"] and e["new"])
    known = sorted(k for k, e in claims.items() if e["matched"] and not e["new"])
    parts = [f'<span class="{"fail" if new else "pass"}">{len(new)} new</span>',
             f'<span class="known">{len(known)} known</span> (listed, with the reason, in the expected findings the '
             "run was given; docs/findings.md)"] if new or known else []
    if unmatched:
        parts.append(f"{len(unmatched)} from a run not given a list of expected findings (<code>verify --expect "
                     "FILE</code>), neither known nor new")
    head = (f"<p><b>{len(claims)}</b> scheme &times; problem pair(s) failed a claim they made: "
            + ", ".join(parts) + ".</p>")
    several = any(k[2] for k in claims)
    rows = [head, "<table><tr><th>scheme</th><th>problem</th>" + ("<th>input</th>" if several else "") +
            "<th>finding</th><th>failed checks</th><th>why (known)</th></tr>"]
    for k in new + unmatched + known:
        e = claims[k]
        tag = ('<span class="fail">new</span>' if e["new"] else '<span class="known">known</span>') if e["matched"] else "-"
        checks = esc(", ".join(e["new"])) + (" (new); " if e["new"] and e["known"] else "") + esc(", ".join(e["known"]))
        rows.append(f'<tr><td><a href="#s-{esc(k[0])}">{esc(k[0])}</a></td><td>{esc(k[1])}</td>' +
                    (f"<td>{esc(k[2])}</td>" if several else "") +
                    f'<td>{tag}</td><td>{checks}</td><td class="meta">{esc(" / ".join(e["reasons"]))}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def legend_html():
    """Every mark the page uses, once."""
    items = [('<span class="pass">pass</span> / <span class="fail">fail</span> / <span class="undefined">undefined</span>',
              "a verdict: the measured value within its rule's band, outside it by more than two standard errors, or "
              "neither (too few levels in the asymptotic range, or no claim) - docs/metrics.md"),
             ('<span class="fail">&#x2020;</span> / <span class="known">&#x2020;</span>',
              "the scheme failed a claim it made on this problem: a new finding / a known one"),
             ('<span class="fail">new</span> / <span class="known">known</span>',
              "a failed check not in / in the expected findings the run was given (with the listed reason)"),
             ("~", "a value read off the fitted line outside the measured asymptotic range (extrapolated)"),
             ("*", "a structure property (symmetric, symplectic) the scheme claims; only a claimed property that does not "
                   "hold is called broken"),
             ("-", "no value: not measured, not applicable, or not finite"),
             ("(unoptimised build)", "an outside scheme compiled without optimisation: its cost is ranked but not "
                                     "comparable (docs/extending.md, \"Build type\")"),
             ("&pi; (clipped)", "an attitude error at its largest possible value (the rotation by &pi;)"),
             ("ok / breakdown / skipped", "a pair's status: ran; stopped before its end (the reason is in its row); "
                                          "the scheme does not apply to the problem")]
    return ('<details class="legend"><summary>Marks used on this page</summary><dl>' +
            "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items) + "</dl></details>")


def cards_section(path, doc, out_dir, n=0):
    """The conformance cards (docs/card.md) of the n-th card input: their table, each scheme's name
    linking to its card on the cards' own page (index.html beside the cards' JSON, rendered by
    render_cards.py) where that page exists."""
    sys.path.insert(0, HERE)
    import render_cards
    beside = os.path.join(os.path.dirname(os.path.abspath(path)), "index.html")
    page = os.path.relpath(beside, os.path.abspath(out_dir)) if os.path.isfile(beside) else None
    where = (f'the page with every card: <a href="{esc(page)}">{esc(page)}</a>' if page else
             f'no page beside {esc(os.path.basename(path))} (render it with reports/render/render_cards.py)')
    suffix = "" if n == 0 else f"-{n + 1}"
    return (f'<h2 id="cards{suffix}">Conformance cards ({esc(path)})</h2><p>Gyroscopic term, energy against h|&omega;|, the '
            f'Dzhanibekov flip, the largest safe step, determinism and cost of {len(doc["cards"])} scheme(s); {where} '
            f'(docs/card.md).</p>'
            + render_cards.table(doc["cards"], table_id=f"card-table{suffix}", link=page or ""))


def build_html(inputs, figs, out_dir, inline=False, tables=(), interactive=None):
    first = next(j for k in ("verify", "bench", "paper", "compare", "history", "card") for _, j in inputs[k])
    tool, machine = first.get("tool", {}), first.get("machine", {})
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>rigidbench report</title>"
             f"<style>{CSS}</style></head><body>",
             "<h1>rigidbench report</h1>",
             f'<p class="meta">{esc(tool.get("name", ""))} {esc(tool.get("version", ""))}, git '
             f'{esc(tool.get("git_revision", ""))}; {esc(tool.get("compiler", ""))} ({esc(tool.get("build_type", ""))}); '
             f'{esc(machine.get("hostname", ""))}, {esc(machine.get("hardware_threads", ""))} threads. '
             f'Inputs: {esc(", ".join(os.path.basename(p) for k in inputs for p, _ in inputs[k]))}. '
             "Every number and figure below is rendered from these JSON files alone.</p>"]
    if figs.not_drawn:
        parts.append('<p class="meta"><b>Not drawn</b> (the input holds values these figures cannot take): ' +
                     "; ".join(f"{esc(n['what'])}: {esc(n['why'])}" for n in figs.not_drawn) + ".</p>")
    files = [f'<a href="{esc(t)}">{esc(os.path.basename(t))}</a>' for t in tables]
    if interactive and interactive.get("page"):
        files.insert(0, f'<a href="{esc(interactive["page"])}">interactive figures</a>')
    if files:
        notes = [note for name, note in (("levels.csv", "levels.csv: every level's h, steps, cost and errors"),
                                         ("work_precision.csv", "work_precision.csv: every point of the bench sweeps"))
                 if any(t.endswith(name) for t in tables)]
        parts.append(f'<p class="meta">Files: {", ".join(files)}{" (" + "; ".join(notes) + ")" if notes else ""}.</p>')
    if interactive and interactive.get("reason"):
        parts.append(f'<p class="meta">{esc(interactive["reason"])}.</p>')
    nav = []
    for anchor, label, cond in (("who-wins", "Who wins", inputs["verify"] or inputs["compare"]),
                                ("summary", "Verdicts", inputs["verify"]), ("compare", "Head-to-head", inputs["compare"]),
                                ("problems", "Per problem", inputs["verify"] or inputs["bench"]),
                                ("schemes", "Per scheme", inputs["verify"]),
                                ("papers", "Paper reproductions", inputs["paper"]),
                                ("history", "History", inputs["history"]),
                                ("cards", "Conformance cards", inputs["card"])):
        if cond:
            nav.append(f'<a href="#{anchor}">{label}</a>')
    parts.append("<nav>" + "".join(nav) + "</nav>")
    if inputs["verify"] or inputs["compare"]:
        parts.append(who_wins(inputs))
    for n, (path, doc) in enumerate(inputs["card"]):
        parts.append(cards_section(path, doc, out_dir, n))
    labels = input_labels([p for p, _ in inputs["verify"]])
    for n, ((_, rep), label) in enumerate(zip(inputs["verify"], labels)):
        s = rep["summary"]
        where = f" ({esc(label)})" if len(labels) > 1 else ""
        parts.append(f'<h2 id="{"summary" if n == 0 else f"summary-{n + 1}"}">Verdicts{where}: '
                     f'<code>{esc(what_was_run(rep))}</code></h2>'
                     f'<p>{s["pairs"]} pairs: {s["ok"]} ran, {s["skipped"]} not applicable, {s["breakdown"]} broke down, '
                     f'{s["failed_verdicts"]} with a failed verdict (docs/findings.md explains the known ones).</p>')
        parts.append(verify_table(rep))
    for _, cmp in inputs["compare"]:
        parts.append('<h2 id="compare">Head-to-head</h2>')
        parts.append(compare_tables(cmp))
    probs = []
    for it in figs.items:
        if it["section"] != "paper" and it["problem"] and it["problem"] not in probs:
            probs.append(it["problem"])
    if probs:
        parts.append('<h2 id="problems">Per problem</h2>')
    ix = {f["name"]: f for f in (interactive or {}).get("figures") or []}
    for prob in probs:
        parts.append(f'<h3 id="p-{esc(prob)}">{esc(prob)}</h3>')
        for it in figs.items:
            if it["problem"] == prob and it["section"] != "paper":
                parts.append(figure_html(it, out_dir, inline))
                if it["name"] in ix:
                    parts.append(f'<p class="meta"><a href="{esc(interactive["page"])}#{esc(ix[it["name"]]["div"])}">'
                                 "Interactive version</a> (hover for every point's values).</p>")
    parts.append(scheme_sections(inputs))
    for _, rep in inputs["paper"]:
        parts.append('<h2 id="papers">Paper reproductions</h2>')
        parts.append(paper_table(rep))
        parts.append(data_tables(rep))
        for it in figs.items:
            if it["section"] == "paper":
                parts.append(figure_html(it, out_dir, inline))
    for _, doc in inputs["history"]:
        parts.append('<h2 id="history">History</h2>')
        parts.append(history_tables(doc))
        for it in figs.items:
            if it["section"] == "history":
                parts.append(figure_html(it, out_dir, inline))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def guarded(figs, what, draw):
    """Draws with draw(); an exception from values the schema allows but a figure cannot take (unequal
    arrays, a value of another kind) is recorded in figs.not_drawn and said on stderr, and the figures
    being drawn are closed. A write the system refuses (OSError) is not caught here: exit 5."""
    try:
        draw()
    except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError, OverflowError) as e:
        figs.plt.close("all")
        why = f"{type(e).__name__}: {e}"[:300]
        figs.not_drawn.append({"what": what, "why": why})
        print(f"report: {what} could not be drawn from the input ({why}); the rest of the page is written",
              file=sys.stderr)


def main(argv):
    try:
        return render(argv)
    except OSError as e:  # the system refused a write (no space, read-only, permission): exit 5 as everywhere
        where = f" '{e.filename}'" if getattr(e, "filename", None) else ""
        print(f"rigidbench report: error: cannot write{where}: {e.strerror or e}", file=sys.stderr)
        return IO_ERROR


def render(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--format", default="png")
    ap.add_argument("--inline", action="store_true",
                    help="inline the PNGs in index.html (one self-contained file) instead of linking figures/")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--integrator", action="append", default=[], help="only these schemes (fnmatch globs)")
    ap.add_argument("--problem", action="append", default=[], help="only these problems (fnmatch globs)")
    ap.add_argument("--style", default="screen", help="screen, journal-single or journal-double")
    ap.add_argument("--protect", action="append", default=[],
                    help="a file the calling command read (its history): never one the page writes")
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args(argv)
    formats = [f for f in a.format.split(",") if f]
    try:
        for f in formats:
            if f not in ("png", "svg", "pdf"):
                raise BadInput(f"--format '{f}' is not one of png, svg, pdf")
        if a.style not in STYLES:
            raise BadInput(f"--style '{a.style}' is not one of {', '.join(STYLES)}")
        refuse_inputs_among_outputs(a.out, a.reports + a.protect)
        inputs = select(load_inputs(a.reports), a.integrator, a.problem)
    except BadInput as e:
        print(f"rigidbench report: error: {e}", file=sys.stderr)
        return BAD_INPUT
    for folder in (a.out, os.path.join(a.out, "figures"), os.path.join(a.out, "tables")):
        refuse_foreign_links(folder)
    os.makedirs(a.out, exist_ok=True)
    figs = Figures(a.out, formats, progress=not a.quiet, style=a.style)
    if not a.quiet:
        print(f"report: rendering {sum(len(v) for v in inputs.values())} input(s) into {a.out}", file=sys.stderr, flush=True)
    for k in inputs:
        for _, j in inputs[k]:
            if isinstance(j, dict) and isinstance(j.get("styles"), dict):
                REPORT_STYLES.update({n: st for n, st in j["styles"].items() if usable_style(n, st)})
            for m in (j.get("metrics") if isinstance(j, dict) else None) or []:
                METRICS.setdefault(m["name"], m)
    # Every verify input in the same figures, and every bench input in the same work-precision
    # figures: a scheme from several inputs is one series per input (docs/reports.md, "Overlaying runs").
    verify = overlay(inputs["verify"], lambda rep: [r for r in rep["results"] if r["status"] != "skipped"])
    bench = overlay(inputs["bench"], lambda rep: (rep.get("work_precision") or {}).get("series") or [])
    style = series_styles()
    for _, j in inputs["paper"]:
        style.update({n: scheme_style(n) for n in (i["integrator"] for i in j.get("paper_reproductions", []))
                      if n not in style})
    # Each problem's figures, each paper's, each history's drawn on their own (guarded): a schema-valid
    # input whose values a figure cannot take (arrays of unequal lengths) costs that figure, said on
    # the page and on stderr, never the page.
    for prob, rows in by_problem(verify["rows"]).items():
        guarded(figs, f"the verify figures of {prob}",
                lambda rows=rows: render_verify(figs, {"metrics": verify["metrics"], "results": rows}, "", style))
    if bench["rows"]:
        metric = next((j["work_precision"].get("error_metric") for _, j in inputs["bench"] if j.get("work_precision")), None)
        for prob, rows in by_problem(bench["rows"]).items():
            guarded(figs, f"the work-precision figures of {prob}",
                    lambda rows=rows: render_bench(figs, {"work_precision": {"error_metric": metric or "error",
                                                                             "series": rows}}, style))
    for path, rep in inputs["paper"]:
        guarded(figs, f"the paper figures of {path}", lambda rep=rep: render_paper(figs, rep, style))
    for path, doc in inputs["history"]:
        guarded(figs, f"the history figures of {path}", lambda doc=doc: render_history(figs, doc))
    tables = write_tables(a.out, inputs)
    interactive = write_interactive(a.out, verify["rows"], bench["rows"], style, progress=not a.quiet, static=figs)
    page = build_html(inputs, figs, a.out, inline=a.inline, tables=tables, interactive=interactive)
    write_atomic(os.path.join(a.out, "index.html"), page)
    shown = sorted({n for it in figs.items for n in it["series"]})
    styles = {n: dict(zip(("color", "marker", "linestyle"), scheme_style(n))) for n in shown}
    labels = {k: [{"path": p, "label": lab} for (p, _), lab in zip(inputs[k], input_labels([p for p, _ in inputs[k]]))]
              for k in ("verify", "bench") if inputs[k]}
    write_atomic(os.path.join(a.out, "manifest.json"),
                 json.dumps({"inputs": [p for k in inputs for p, _ in inputs[k]], "input_labels": labels,
                             "style": a.style, "selection": {"integrator": a.integrator, "problem": a.problem},
                             "figures": figs.items, "styles": styles,
                             "legend_styles": {k: dict(zip(("color", "marker", "linestyle"), v)) for k, v in style.items()},
                             "tables": tables, "interactive": interactive, "not_drawn": figs.not_drawn}, indent=1))
    print(f"report: {os.path.join(a.out, 'index.html')} ({len(figs.items)} figures)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
