#!/usr/bin/python3
"""Renders `rigidbench card`'s cards.json into OUT_DIR/index.html - one page: a sortable table of
every card and a detail view per card with its plots (inline SVG drawn here, a few kB each) - and
OUT_DIR/cards.md (a summary table, then one section per card).

Usage: render_cards.py CARDS.json OUT_DIR

From the JSON alone (docs/card.md). The input is validated against reports/schema/card-1.0.schema.json
first when python3-jsonschema is there; bad input: exit 2, nothing written. Each file is written to a
temporary name and renamed into place. The table sorts by a click on a column's head, or on load by
`?sort=<column>&dir=asc|desc` (what the browser test uses). scripts/engines_table.py takes the summary
table (`summary_table`) for docs/engines.md.
"""
import html
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(os.path.dirname(HERE), "schema", "card-1.0.schema.json")
BAD_INPUT = 2

ENERGY_COLOURS = {"exact": "#1a7f37", "bounded": "#2f6fdf", "random_walk": "#8250df", "losing": "#bf8700",
                  "gaining": "#cf222e", "undefined": "#6e7781"}
ENERGY_ORDER = ["exact", "bounded", "random_walk", "losing", "gaining", "undefined"]  # quiet to loud
GYRO_COLOURS = {"present": "#1a7f37", "absent": "#cf222e", "wrong": "#cf222e", "undefined": "#6e7781"}


def esc(x):
    return html.escape(str(x), quote=True)


def num(x, digits=3):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:.{digits}g}"


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        print(f"render_cards: cannot read '{path}': {e}", file=sys.stderr)
        sys.exit(BAD_INPUT)
    try:
        import jsonschema
        with open(SCHEMA, encoding="utf-8") as f:
            jsonschema.validate(j, json.load(f))
    except ImportError:
        if not (isinstance(j, dict) and j.get("kind") == "card"):
            print(f"render_cards: '{path}' is not a card report", file=sys.stderr)
            sys.exit(BAD_INPUT)
    except Exception as e:  # jsonschema.ValidationError
        print(f"render_cards: '{path}' does not follow the card schema: {str(e).splitlines()[0]}", file=sys.stderr)
        sys.exit(BAD_INPUT)
    return j


# ---- plots: log-log SVG of a few series, no library ----

def svg_plot(series, xlabel, ylabel, width=360, height=220):
    """series: [(label, colour, [(x, y), ...])] on log axes; points with x or y <= 0 are left out."""
    pts = [(x, y) for _, _, s in series for x, y in s if x and y and x > 0 and y > 0]
    if not pts:
        return f'<p class="noplot">{esc(ylabel)}: nothing to plot</p>'
    lx = [math.log10(x) for x, _ in pts]
    ly = [math.log10(y) for _, y in pts]
    x0, x1 = math.floor(min(lx)), math.ceil(max(lx))
    y0, y1 = math.floor(min(ly)), math.ceil(max(ly))
    x1 = max(x1, x0 + 1)
    y1 = max(y1, y0 + 1)
    L, R, T, B = 48, 10, 10, 36
    W, H = width - L - R, height - T - B

    def px(x):
        return L + W * (math.log10(x) - x0) / (x1 - x0)

    def py(y):
        return T + H * (1 - (math.log10(y) - y0) / (y1 - y0))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="plot">',
           f'<rect x="{L}" y="{T}" width="{W}" height="{H}" fill="none" stroke="#999"/>']
    step = max(1, (y1 - y0) // 5)
    for e in range(y0, y1 + 1, step):
        y = py(10.0 ** e)
        out.append(f'<text x="{L - 4}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for e in range(x0, x1 + 1):
        x = px(10.0 ** e)
        out.append(f'<text x="{x:.1f}" y="{T + H + 14}" text-anchor="middle">1e{e}</text>')
    out.append(f'<text x="{L + W / 2:.1f}" y="{height - 4}" text-anchor="middle">{esc(xlabel)}</text>')
    out.append(f'<text x="12" y="{T + H / 2:.1f}" transform="rotate(-90 12 {T + H / 2:.1f})" '
               f'text-anchor="middle">{esc(ylabel)}</text>')
    for k, (label, colour, s) in enumerate(series):
        good = [(px(x), py(y)) for x, y in s if x and y and x > 0 and y > 0]
        if len(good) > 1:
            out.append('<polyline fill="none" stroke="%s" points="%s"/>' %
                       (colour, " ".join(f"{a:.1f},{b:.1f}" for a, b in good)))
        for a, b in good:
            out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{colour}"/>')
        out.append(f'<text x="{L + 6}" y="{T + 14 + 13 * k}" fill="{colour}">{esc(label)}</text>')
    out.append("</svg>")
    return "".join(out)


# ---- the table ----

def attitude_slope(card, problem):
    for o in card["orders"]:
        if o["problem"] == problem and o["metric"] == "attitude_error_max":
            return o
    return None


def flip_near(card, target=1e-2):
    pts = card["flip"]["points"]
    return min(pts, key=lambda p: abs(math.log(p["h_omega"] / target))) if pts else None


def row(card, link=""):
    """(cells, sort keys) of a card's row; a key is a number or a string. `link`: the page holding the
    detail views (empty: this one)."""
    o = attitude_slope(card, "free_body")
    probed = card["status"] == "ok"  # a card whose probes broke down or did not apply measured nothing
    f = flip_near(card) if probed else None
    s = card["safe_step"]
    d = card["determinism"]
    failed = sum(1 for c in card["claims"] if c["verdict"] == "fail")
    energy = card["energy"]["summary"]
    gyro = gyro_text(card)  # not applicable, breakdown: said instead of "undefined"
    det = "/".join(d[k] for k in ("same_process", "across_threads", "across_processes", "across_ranks"))
    cells = [
        (f'<a href="{esc(link)}#card-{esc(card["scheme"])}">{esc(card["scheme"])}</a>', card["scheme"]),
        (f'<span style="color:{GYRO_COLOURS.get(gyro, "#6e7781")}" title="{esc(card["reason"])}">{esc(gyro)}</span>', gyro),
        (esc(f'{slope(o["slope"])} ({num(o["expected"], 2)})') if o else "-", o["slope"] if o and o["slope"] is not None else -1e9),
        (f'<span style="color:{ENERGY_COLOURS.get(energy, "#000")}">{esc(energy)}</span>'
         + esc(energy_text(card)[len(energy):]), ENERGY_ORDER.index(energy) if energy in ENERGY_ORDER else 9),
        (esc(f'{f["flips_seen"]}/{f["flips_expected"]}') if f else "-", f["flips_seen"] if f else -1),
        (esc(num(s["safe_h_omega"])) if probed else "-", s["safe_h_omega"] if probed and s["safe_h_omega"] is not None else -1),
        (esc(det), det),
        (esc(cost_cell(card["cost"])), card["cost"]["ns_per_step"] if card["cost"]["ns_per_step"] is not None else 1e18),
        (str(failed), failed),
    ]
    return cells


COLUMNS = [("scheme", "scheme"), ("gyro", "gyroscopic term"), ("order", "attitude order, free_body (claimed)"),
           ("energy", "energy over the sweep (worst)"), ("flips", "flips at h|&omega;| ~ 0.01"),
           ("safe", "largest safe h|&omega;|"), ("det", "deterministic: process/threads/processes/MPI ranks"),
           ("cost", "ns per step (runtime)"), ("failed", "failed checks")]


def table(cards, table_id="cards", link=""):
    head = "".join(f'<th data-col="{c}" title="sort">{t}</th>' for c, t in COLUMNS)
    rows = []
    for card in cards:
        tds = "".join(f'<td data-v="{esc(json.dumps(k))}">{cell}</td>' for cell, k in row(card, link))
        rows.append(f'<tr id="row-{esc(card["scheme"])}">{tds}</tr>')
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


# ---- a card's detail view ----

def sweep_cells(p, fp):
    """A row of a card's sweep table (text): h|w|, energy, amplitude, rate, sigma, flips, interval error.
    A run that broke down shows that, not the numbers of the states before it."""
    if p["status"] != "ok":
        sweep = [num(p["h_omega"]), "breakdown", "-", "-", p["reason"]]
    else:
        sweep = [num(p["h_omega"]), p["energy"], num(p["energy_amplitude"], 2), num(p["energy_rate"], 2),
                 f'{num(p["sigma_start"])} → {num(p["sigma_end"])}' + (" toward the intermediate axis" if p["toward_intermediate"] else "")]
    if not fp:
        return sweep + ["-", "-"]
    if fp["status"] != "ok":
        return sweep + [f'broke down after {fp["flips_seen"]} of {fp["flips_expected"]}', "-"]
    return sweep + [f'{fp["flips_seen"]}/{fp["flips_expected"]}',
                    num(100 * fp["interval_error"], 2) + " %" if fp["interval_error"] is not None else "-"]


def detail(card):
    g, e, f, s, d, c = (card[k] for k in ("gyroscopic", "energy", "flip", "safe_step", "determinism", "cost"))
    out = [f'<section class="card" id="card-{esc(card["scheme"])}"><h2>{esc(card["scheme"])}</h2>',
           f'<p>{esc(card["title"])} &mdash; {esc(card["source"])}; {esc(card["kind"])}, order {card["order"]}</p>']
    if card["settings"]:
        out.append("<p>Settings: " + ", ".join(f"{esc(k)} = {v:g}" for k, v in card["settings"].items()) + "</p>")
    if card["status"] != "ok":
        out.append(f'<p class="na">Probes: {esc(card["status"].replace("_", " "))}: {esc(card["reason"])}</p>')
    out.append(f'<p><b>Gyroscopic term: {esc(g["verdict"])}</b> &mdash; {esc(g["evidence"])}</p>')
    orders = "; ".join(f'{esc(o["problem"])} {esc(o["metric"])} {num(o["slope"])} &plusmn; {num(o["stderr"], 2)} '
                       f'(claimed {num(o["expected"], 2)}, {esc(o["verdict"])}; h in [{num(o["h_min"])}, {num(o["h_max"])}])'
                       for o in card["orders"])
    out.append(f"<p><b>Orders</b>: {orders or '-'}</p>")
    qii = "; ".join(f'{esc(q["problem"])} {num(q["median"])} (expected {num(q["expected"])}, {esc(q["verdict"])})' for q in card["q_ii"])
    out.append(f"<p><b>Q_II</b>: {qii or '-'}</p>")
    plots = []
    plots.append(svg_plot([("error against the exact flow", "#1a7f37", list(zip(g["h"], g["error_exact"]))),
                           ("error against W = W0", "#cf222e", list(zip(g["h"], g["error_constant"])))],
                          "h", "|W - W*| / |W0|"))
    series = {}
    for p in e["points"]:
        for inv in p["invariants"]:
            key = inv["name"] if not inv["name"].startswith("momentum") else "spatial momentum"
            amp = inv["max_deviation"][-1] if inv["max_deviation"] else None
            prev = series.setdefault(key, {})
            prev[p["h_omega"]] = max(prev.get(p["h_omega"], 0) or 0, amp or 0)
    colours = {"energy": "#cf222e", "casimir": "#2f6fdf", "spatial momentum": "#8250df"}
    plots.append(svg_plot([(k if k != "casimir" else "|L|", colours.get(k, "#000"), sorted(v.items())) for k, v in series.items()],
                          "h|omega|", f"max |I - I0| / S over {num(e['t_span'])} s"))
    plots.append(svg_plot([("|flip interval error|", "#bf8700",
                            [(p["h_omega"], abs(p["interval_error"])) for p in f["points"] if p["interval_error"] is not None])],
                          "h|omega|", "relative error of the flip interval"))
    out.append('<div class="plots">' + "".join(plots) + "</div>")
    out.append('<table class="sweep"><tr><th>h|&omega;|</th><th>energy</th><th>max |dE|/E</th><th>rate /s</th>'
               '<th>&sigma; start &rarr; end</th><th>flips</th><th>flip interval error</th></tr>')
    flips = {p["h_omega"]: p for p in f["points"]}
    for p in e["points"]:
        fp = flips.get(p["h_omega"])
        cells = sweep_cells(p, fp)
        out.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    safe = num(s["safe_h_omega"]) + (f' (unsafe at {num(s["unsafe_h_omega"])}, the {esc(s["limited_by"])})' if s["unsafe_h_omega"] is not None else "")
    out.append(f'<p><b>Largest safe step</b> ({esc(s["problem"])}, attitude &le; 1e-3 rad, energy &le; 1e-3): h|&omega;| {safe}</p>')
    out.append(f'<p><b>Determinism</b>: same process {esc(d["same_process"])}, across threads {esc(d["across_threads"])}, '
               f'across processes {esc(d["across_processes"])}, across MPI ranks {esc(d["across_ranks"])} ({esc(d["note"])})</p>')
    out.append(f'<p><b>Cost</b>: {num(c["ns_per_step"])} ns/step ({esc(c["runtime"])}, {num(c["ratio_to_rk4"])} &times; RK4); '
               f'{num(c["ns_per_time_at_1e6"])} ns per simulated second at 1e-6 rad ({esc(c["note"])})</p>')
    for b in card["beyond_claims"]:
        out.append(f"<p><b>Keeps more than it claims</b>: {esc(b)}</p>")
    claims = "".join(f'<tr class="{esc(k["verdict"])}"><td>{esc(k["problem"])}</td><td>{esc(k["check"])}</td>'
                     f'<td>{esc(k["verdict"])}</td><td>{esc(k["evidence"])}'
                     + (f'<br><i>known finding (docs/findings.md)</i>: {esc(k["known"])}' if k["known"] else "")
                     + "</td></tr>" for k in card["claims"])
    known = [k for k in card["claims"] if k["known"]]
    if known:
        out.append("<p><b>Failed claims with their known cause</b> (docs/findings.md): " + "; ".join(
            f'{esc(k["problem"])} {esc(k["check"])}: {esc(k["known"])}' for k in known[:3]) + (" ..." if len(known) > 3 else "") + "</p>")
    out.append(f'<details><summary>checks ({len(card["claims"])})</summary><table class="claims">{claims}</table></details>')
    out.append('<p><a href="#cards">back to the table</a></p></section>')
    return "".join(out)


SCRIPT = """
(function () {
  const table = document.getElementById('cards');
  const body = table.tBodies[0];
  function sortBy(col, dir) {
    const idx = [...table.tHead.rows[0].cells].findIndex(th => th.dataset.col === col);
    if (idx < 0) return;
    const rows = [...body.rows];
    rows.sort((a, b) => {
      const x = JSON.parse(a.cells[idx].dataset.v), y = JSON.parse(b.cells[idx].dataset.v);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return dir === 'desc' ? -c : c;
    });
    rows.forEach(r => body.appendChild(r));
    table.dataset.sorted = col + ':' + dir;
  }
  for (const th of table.tHead.rows[0].cells)
    th.addEventListener('click', () => {
      const [col, dir] = (table.dataset.sorted || ':').split(':');
      sortBy(th.dataset.col, col === th.dataset.col && dir === 'asc' ? 'desc' : 'asc');
    });
  const q = new URLSearchParams(window.location.search);
  if (q.get('sort')) sortBy(q.get('sort'), q.get('dir') || 'asc');
})();
"""

STYLE = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #1f2328; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #d0d7de; padding: 3px 6px; text-align: left; vertical-align: top; }
#cards th { cursor: pointer; background: #f6f8fa; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
.plot text { font: 10px sans-serif; }
.card { border-top: 2px solid #d0d7de; margin-top: 1.5em; }
tr.fail td { background: #ffebe9; }
.na { color: #9a6700; }
"""


def page(j):
    tool, machine = j["tool"], j["machine"]
    cards = j["cards"]
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>rigidbench conformance cards</title>'
            f'<style>{STYLE}</style></head><body><h1>Conformance cards</h1>'
            f'<p>{len(cards)} card(s); rigidbench {esc(tool["version"])} ({esc(tool["git_revision"])}), '
            f'{esc(machine.get("cpu", ""))}, {num(j["duration_s"])} s. Every field is defined in docs/card.md. '
            f'Click a column to sort; a scheme\'s name opens its card.</p>'
            + table(cards) + "".join(detail(c) for c in cards) + f"<script>{SCRIPT}</script></body></html>\n")


# ---- Markdown ----

def md(x):
    """Text for a Markdown table cell: HTML escaped (a Markdown renderer passes raw HTML through), pipes
    escaped, one line."""
    return html.escape(str(x), quote=False).replace("|", "\\|").replace("\n", " ")


def slope(x):
    """An observed order: two decimals (an order of 2.19e-15 is 0.00)."""
    return "-" if x is None else f"{x:.2f}"


def energy_text(card):
    """The sweep's verdict in a few words: the loudest behaviour with its amplitude and step, where the
    motion drifted toward the intermediate axis and where runs broke down."""
    e = card["energy"]
    out = e["summary"]
    if e["summary_amplitude"] is not None:
        out += f' {num(e["summary_amplitude"], 2)} at h|ω| {num(e["summary_h_omega"], 2)}'
    if e["toward_from_h_omega"] is not None:
        out += f'; toward the intermediate axis from h|ω| {num(e["toward_from_h_omega"], 2)}'
    if e["breakdown_from_h_omega"] is not None:
        out += f'; breaks down from h|ω| {num(e["breakdown_from_h_omega"], 2)}'
    return out


def gyro_text(card):
    return card["gyroscopic"]["verdict"] if card["status"] == "ok" else card["status"].replace("_", " ")


# A cost is never ranked across runtimes without its label (docs/metrics.md, Cost): a program's step is
# timed by its own clock in its own runtime (Node.js, a browser, ...), which the scheme's title names.
RUNTIME = {"builtin": "native", "registered": "native", "python": "Python", "program": "program"}


def cost_cell(cost):
    """ns/step with its runtime; a card whose probes did not apply measured none ("")."""
    if not cost["runtime"] or cost["ns_per_step"] is None:
        return "-"
    return f'{num(cost["ns_per_step"])} ({RUNTIME.get(cost["runtime"], cost["runtime"])})'


def summary_table(cards):
    """The Markdown table of the cards, one row each."""
    head = ("| scheme | gyroscopic term | attitude order, free_body (claimed) | energy over the sweep (worst) | "
            "flips at h\\|ω\\| ≈ 0.01 | largest safe h\\|ω\\| | deterministic (process/threads/processes/MPI ranks) | ns/step (runtime) | failed checks |\n"
            "|---|---|---|---|---|---|---|---|---|\n")
    rows = []
    for c in cards:
        o = attitude_slope(c, "free_body")
        probed = c["status"] == "ok"  # a card whose probes broke down or did not apply measured nothing
        f = flip_near(c) if probed else None
        s = c["safe_step"]
        d = c["determinism"]
        energy = energy_text(c)
        safe = "-" if not probed else num(s["safe_h_omega"]) if s["safe_h_omega"] is not None else (
            f'< {num(s["unsafe_h_omega"])}' if s["unsafe_h_omega"] is not None else "-")
        failed = sum(1 for k in c["claims"] if k["verdict"] == "fail")
        rows.append("| " + " | ".join(md(x) for x in [
            c["scheme"], gyro_text(c),
            f'{slope(o["slope"])} ({num(o["expected"], 2)})' if o else "-", energy,
            f'{f["flips_seen"]}/{f["flips_expected"]}' if f else "-", safe,
            "/".join(d[k] for k in ("same_process", "across_threads", "across_processes", "across_ranks")),
            cost_cell(c["cost"]), failed]) + " |")
    return head + "\n".join(rows) + "\n"


def card_markdown(c):
    g, e, f, s, d, cost = (c[k] for k in ("gyroscopic", "energy", "flip", "safe_step", "determinism", "cost"))
    out = [f'\n## {c["scheme"]}\n', f'{md(c["title"])} ({md(c["source"])}; {c["kind"]}, order {c["order"]})\n']
    if c["status"] != "ok":
        out.append(f'Probes: {c["status"].replace("_", " ")}: {md(c["reason"])}\n')
    if c["settings"]:
        out.append("Settings: " + ", ".join(f"{md(k)} = {v:g}" for k, v in c["settings"].items()) + "\n")
    out.append(f'- **Gyroscopic term**: {g["verdict"]} - {md(g["evidence"])}')
    out.append("- **Orders**: " + ("; ".join(
        f'{o["problem"]} {o["metric"]} {num(o["slope"])} ± {num(o["stderr"], 2)} on h in [{num(o["h_min"])}, {num(o["h_max"])}] '
        f'(claimed {num(o["expected"], 2)}, {o["verdict"]})' for o in c["orders"]) or "-"))
    out.append("- **Q_II**: " + ("; ".join(f'{q["problem"]} {num(q["median"])} (expected {num(q["expected"])}, {q["verdict"]})'
                                          for q in c["q_ii"]) or "-"))
    out.append(f'- **Energy against h|ω|** ({e["problem"]}, {num(e["t_span"])} s): worst {e["summary"]}\n')
    out.append("| h\\|ω\\| | energy | max \\|dE\\|/E | rate /s | σ start → end | flips | flip interval error |\n|---|---|---|---|---|---|---|")
    flips = {p["h_omega"]: p for p in f["points"]}
    for p in e["points"]:
        out.append("| " + " | ".join(md(c) for c in sweep_cells(p, flips.get(p["h_omega"]))) + " |")
    safe = num(s["safe_h_omega"]) + (f' (unsafe at {num(s["unsafe_h_omega"])}, the {s["limited_by"]})'
                                     if s["unsafe_h_omega"] is not None else "")
    out.append(f'\n- **Dzhanibekov flip**: exact interval {num(f["exact_interval"], 5)} s on {f["problem"]}')
    out.append(f'- **Largest safe step** ({s["problem"]}, attitude ≤ 1e-3 rad, energy ≤ 1e-3): h|ω| {safe}')
    out.append(f'- **Determinism**: same process {d["same_process"]}, across threads {d["across_threads"]}, '
               f'across processes {d["across_processes"]}, across MPI ranks {d["across_ranks"]} ({md(d["note"])})')
    out.append(f'- **Cost**: {num(cost["ns_per_step"])} ns/step ({cost["runtime"]}, {num(cost["ratio_to_rk4"])} × RK4); '
               f'{num(cost["ns_per_time_at_1e6"])} ns per simulated second at 1e-6 rad ({md(cost["note"])})')
    for b in c["beyond_claims"]:
        out.append(f"- **Keeps more than it claims**: {md(b)}")
    out.append("\n| problem | check | verdict | evidence | known finding (docs/findings.md) |\n|---|---|---|---|---|")
    for k in c["claims"]:
        out.append(f'| {k["problem"]} | {md(k["check"])} | {k["verdict"]} | {md(k["evidence"])} | {md(k["known"])} |')
    return "\n".join(out) + "\n"


def markdown(j):
    tool, machine = j["tool"], j["machine"]
    return (f'# Conformance cards\n\nrigidbench {tool["version"]} ({tool["git_revision"]}), {machine.get("cpu", "")}; '
            f'docs/card.md defines every field.\n\n' + summary_table(j["cards"]) + "".join(card_markdown(c) for c in j["cards"]))


def write_atomic(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".cards-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # as any other output, not mkstemp's 0600
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return BAD_INPUT
    j = load(argv[1])
    os.makedirs(argv[2], exist_ok=True)
    page_text, md_text = page(j), markdown(j)
    write_atomic(os.path.join(argv[2], "index.html"), page_text)
    write_atomic(os.path.join(argv[2], "cards.md"), md_text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
