#!/usr/bin/env python3
"""The tables of docs/engines.md, generated from reports (docs/engines.md, "Regenerating the tables").

    rigidbench verify --integrator 'mujoco*' 'bullet*' 'ode*' 'dart*' 'simbody*' \
        --problem free_body dzhanibekov pendulum3d heavy_top_realisable --out engines.json
    rigidbench compare --in engines.json --out engines-compare.json
    python3 scripts/engines_table.py --verify engines.json --compare engines-compare.json \
        --doc docs/engines.md

    rigidbench card --integrator 'mujoco*' 'bullet*' 'ode*' 'dart*' 'simbody*' --expect baselines/expected-findings.json --out cards
    python3 scripts/engines_table.py --cards cards/cards.json --doc docs/engines.md

reads the verify report(s) and the compare report made from them, and writes one table per engine
(every variant on every problem: the observed orders of the attitude and the angular velocity
against the order the engine's documentation claims, Q_II, the exact invariants, the energy and
momentum drifts, the cost per step and to the target accuracy, the verdict) between the markers

    <!-- engines-table:begin -->
    <!-- engines-table:end -->

of the document (replaced atomically: temporary file and rename), or to standard output without
--doc. With --chains, verify report(s) of the chains (docs/problems.md, "Chains") become one table
of every scheme in them, engines and built-in schemes alike (several reports: their pairs together,
e.g. a slow engine run on its own), between <!-- engines-chains:begin --> and
<!-- engines-chains:end -->:

    rigidbench verify --problem chain_double chain_5 chain_free --integrator lgvi rkmk4 lie_euler \
        'mujoco*' 'ode*' 'bullet*' --out chains.json
    python3 scripts/engines_table.py --chains chains.json --doc docs/engines.md
 With --cards, the engines' conformance cards (docs/card.md) go between
<!-- engines-cards:begin --> and <!-- engines-cards:end -->, as the card renderer's summary table. Nothing in the table is typed by hand: a number in it is a number in the reports. Standard
library only (the reports are JSON, docs/reports.md).
"""
import argparse
import json
import math
import os
import shlex
import sys
import tempfile

CHAINS_BEGIN = "<!-- engines-chains:begin -->"
CHAINS_END = "<!-- engines-chains:end -->"
CARDS_BEGIN = "<!-- engines-cards:begin -->"
CARDS_END = "<!-- engines-cards:end -->"
BEGIN = "<!-- engines-table:begin -->"
END = "<!-- engines-table:end -->"


def fmt(x, digits=3):
    """digits significant digits; exponents written short (2.6e3, 1.4e-5)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    if x == 0:
        return "0"
    s = f"{x:.{digits}g}"
    if "e" in s:
        m, e = s.split("e")
        s = f"{m}e{int(e)}"
    return s


def cell(text, limit=200):
    """Text for a table cell: one line, '|' escaped, at most `limit` characters."""
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def slope(conv, key):
    m = conv.get(key)
    if not m or m.get("slope") is None:
        return None, None
    return m["slope"], m.get("verdict")


def engine_of(result):
    """The engine and its version: the scheme title up to its first comma outside parentheses ("DART
    6.12.1", "Rapier 0.21.0 (WebAssembly, single precision)")."""
    title = (result.get("scheme") or {}).get("title", "") or result["integrator"]
    depth = 0
    for i, c in enumerate(title):
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0:
            return title[:i].strip()
    return title.strip()


def integrates(r):
    """False for a pair whose scheme does not integrate the problem's family (bullet_multibody on one
    body): no row, where a refusal of the problem itself is one."""
    return not (r["status"] == "skipped" and "does not integrate" in (r.get("reason") or ""))


def pair_verdict(r):
    """pass / fail: ... / undefined: ..., from the report's own verdicts (gating ones only)."""
    if r["status"] != "ok":
        return r["status"]
    failed, undefined = [], []
    for name, m in (r.get("convergence") or {}).items():
        if not m.get("gating", True):
            continue
        v = m.get("verdict")
        if v == "fail":
            failed.append(name)
        elif v not in ("pass", None):
            undefined.append(name)
    q = r.get("q_ii") or {}
    if q.get("verdict") == "fail":
        failed.append("Q_II")
    elif q.get("verdict") not in ("pass", None):
        undefined.append("Q_II")
    for name, inv in (r.get("invariants") or {}).items():
        if inv.get("claim") not in (None, "none") and inv.get("verdict") == "fail":
            failed.append(name)
    if failed:
        return "**fail**: " + ", ".join(failed)
    if undefined:
        return "undefined: " + ", ".join(undefined)
    return "pass"


def drift(r, kinds):
    """The largest final drift among the invariants of these kinds, and the claims on them."""
    best, claims = None, set()
    for inv in (r.get("invariants") or {}).values():
        if inv.get("kind") in kinds and inv.get("drift") is not None:
            best = inv["drift"] if best is None else max(best, inv["drift"])
            claims.add(inv.get("claim") or "none")
    if best is None:
        return "—"
    claim = "/".join(sorted(claims))
    return fmt(best, 2) + ("" if claim == "none" else f" ({claim})")


def table(results, costs, target):
    by_engine = {}
    for r in results:
        by_engine.setdefault(engine_of(r), []).append(r)
    out = []
    # A problem no engine built (every pair skipped) is one sentence under the tables, not rows.
    ran = {r["problem"] for r in results if r["status"] != "skipped"}
    refused = {r["problem"]: (r.get("reason") or "").split(" (docs/")[0] for r in results if r["problem"] not in ran}
    for engine in sorted(by_engine):
        rows = []
        for r in sorted(by_engine[engine], key=lambda r: (r["integrator"], r["problem"])):
            if r["problem"] in refused:
                continue
            conv = r.get("convergence") or {}
            sr, vr = slope(conv, "attitude_error_final")
            sw, _ = slope(conv, "omega_error_final")
            claimed = (r.get("scheme") or {}).get("order")
            q = r.get("q_ii") or {}
            qtxt = "—" if q.get("median") is None else f"{q['median']:.3f} of {fmt(q.get('expected'), 3)}"
            exact = [n for n, inv in (r.get("invariants") or {}).items() if inv.get("claim") == "exact"]
            held = [n for n in exact if r["invariants"][n].get("verdict") == "pass"]
            cost = r.get("cost") or {}
            ns = "—" if cost.get("ns_per_step") is None else f"{cost['ns_per_step']:.0f}"
            c = costs.get((r["integrator"], r["problem"]), {})
            ct = c.get("cpu_seconds")
            ct_txt = "—" if ct is None else ("~" if c.get("extrapolated") else "") + fmt(ct, 2) + " s"
            order_txt = " / ".join("—" if x is None else f"{x:.2f}" for x in (sr, sw))
            rows.append(
                f"| `{r['integrator']}` | {r['problem']} | {claimed} | {order_txt} | {qtxt} | "
                f"{len(held)}/{len(exact)} | {drift(r, ('energy',))} | {drift(r, ('momentum', 'casimir'))} | "
                f"{ns} | {ct_txt} | "
                f"{pair_verdict(r) if r['status'] == 'ok' else cell(r['status'] + ': ' + (r.get('reason') or ''))} |")
        if not rows:
            continue
        out.append(f"#### {engine}\n")
        out.append("| variant | problem | order claimed | observed R / W | Q_II (of 2^p) | exact invariants held | "
                   f"energy drift | momentum drift | ns/step | cost to {target:g} rad | verdict |")
        out.append("|---|---|---:|---|---|---|---:|---:|---:|---:|---|")
        out.extend(rows)
        out.append("")
    for problem, why in sorted(refused.items()):
        out.append(f"`{problem}`: no engine builds it — {why}.\n")
    return "\n".join(out).rstrip() + "\n"


def separation(rs):
    """The largest joint separation at the finest level of a scheme's chains (the problem's
    joint_separation, measured from the canonical state), with its chain and h, and its slope in h
    over the last halving; None when no level measured it."""
    worst = None
    for r in rs:
        by = ((r.get("invariants") or {}).get("joint_separation") or {}).get("drift_by_level") or []
        hs = [lv["h"] for lv in (r.get("levels") or [])][: len(by)]
        if not hs:
            continue
        k = len(hs) - 1
        ratio = by[k - 1] / by[k] if k > 0 and by[k] > 0 else None
        if worst is None or by[k] > worst[0]:
            worst = (by[k], r["problem"], hs[k], None if ratio is None else math.log2(ratio))
    return worst


def chains_table(results):
    """One row per scheme of a chains report: its claimed order, the observed slope of the attitude
    error on each chain, the joints' largest separation at the finest level and its slope in h
    (round-off for a scheme that keeps the joints), and the verdicts."""
    problems = list(dict.fromkeys(r["problem"] for r in results))
    by_scheme = {}
    for r in results:
        by_scheme.setdefault(r["integrator"], {})[r["problem"]] = r
    out = ["| scheme | order claimed | " + " | ".join(f"{p} slope" for p in problems)
           + " | joint separation at the finest level | its slope in h | verdicts |",
           "|---|---:|" + "---:|" * len(problems) + "---|---:|---|"]
    for scheme, rs in by_scheme.items():
        claimed = next(((r.get("scheme") or {}).get("order") for r in rs.values() if r.get("scheme")), None)
        slopes = []
        for p in problems:
            r = rs.get(p)
            s, v = slope((r or {}).get("convergence") or {}, "attitude_error_final")
            slopes.append("—" if s is None else (f"**{s:.2f}**" if v == "fail" else f"{s:.2f}"))
        sep = separation(rs.values())
        if sep is None:
            sep_txt, slope_txt = "—", "—"
        elif sep[0] < 1e-12:
            sep_txt, slope_txt = f"{fmt(sep[0], 2)} (round-off)", "—"
        else:
            sep_txt = f"{fmt(sep[0], 2)} ({sep[1]}, h = {fmt(sep[2], 2)})"
            slope_txt = "—" if sep[3] is None else f"{sep[3]:.2f}"
        verdicts = {p: pair_verdict(r) if r["status"] == "ok" else r["status"] for p, r in rs.items()}
        grouped = {}
        for p, v in verdicts.items():
            grouped.setdefault(v, []).append(p)
        vtxt = "pass" if set(grouped) == {"pass"} else "; ".join(
            f"{', '.join(ps)}: {v}" for v, ps in grouped.items() if v != "pass")
        out.append(f"| `{scheme}` | {claimed} | " + " | ".join(slopes) + f" | {sep_txt} | {slope_txt} | {cell(vtxt)} |")
    return "\n".join(out) + "\n"


def replace_block(path, begin, end, block):
    """Replaces begin ... end of the document at path by block (temporary file and rename); False when
    the document has no such block."""
    with open(path) as f:
        doc = f.read()
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < i:
        print(f"engines_table: error: {path} has no {begin} ... {end} block", file=sys.stderr)
        return False
    new = doc[:i] + block + doc[j + len(end):]
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".engines-table-")
    with os.fdopen(fd, "w") as f:
        f.write(new)
    os.replace(tmp, path)
    return True


def cards_block(path):
    """The engines' conformance cards (docs/card.md) as the summary table of the card renderer, from a
    `rigidbench card` report: the variants whose probes ran, of the engines registered through the
    public API (runtime "registered": Debian's) or declared as programs (runtime "program": the npm
    engines, the only programs `card --integrator '*'` registers)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reports", "render"))
    import render_cards
    rep = render_cards.load(path)
    cards = [c for c in rep["cards"] if c["cost"]["runtime"] in ("registered", "program") and c["status"] == "ok"]
    if not cards:
        raise ValueError(f"{path}: no engine variant's card")
    cmd = rep.get("command") or []
    cmd = shlex.join([os.path.basename(cmd[0])] + cmd[1:]) if cmd else ""
    return (f"{CARDS_BEGIN}\n<!-- generated by scripts/engines_table.py --cards from: {cmd} -->\n\n"
            + render_cards.summary_table(cards) + CARDS_END), len(cards)


def write_chains(paths, doc):
    """The chains' table from the verify report(s) at paths (several: their pairs together, each
    report's command in the block's comment), into doc's block (or to standard output)."""
    results, cmds = [], []
    for path in paths:
        try:
            with open(path) as f:
                rep = json.load(f)
            results += [r for r in rep["results"] if r["problem"].startswith("chain_") and integrates(r)]
        except (OSError, ValueError, KeyError) as e:
            print(f"engines_table: error: {path}: {e}", file=sys.stderr)
            return 2
        cmd = rep.get("command") or []
        cmds.append(shlex.join([os.path.basename(cmd[0])] + cmd[1:]) if isinstance(cmd, list) and cmd else str(cmd))
    if not results:
        print(f"engines_table: error: {', '.join(paths)} hold(s) no chain", file=sys.stderr)
        return 2
    block = (f"{CHAINS_BEGIN}\n<!-- generated by scripts/engines_table.py --chains from: {'; '.join(cmds)} -->\n\n"
             + chains_table(results) + CHAINS_END)
    if not doc:
        sys.stdout.write(block + "\n")
        return 0
    if not replace_block(doc, CHAINS_BEGIN, CHAINS_END, block):
        return 2
    print(f"engines_table: {doc}: {len(results)} chain pairs", file=sys.stderr)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--verify", nargs="+", help="verify report(s) (JSON)")
    ap.add_argument("--compare", help="a compare report (JSON) of the same pairs: cost to the target accuracy")
    ap.add_argument("--cards", help="a `rigidbench card` report (JSON): the engines' cards, the block between "
                                    + CARDS_BEGIN + " and its end")
    ap.add_argument("--chains", nargs="+", help="verify report(s) of the chains: the chains' table, the block between "
                                     + CHAINS_BEGIN + " and its end")
    ap.add_argument("--doc", help="document whose marked block is replaced (default: print the tables)")
    a = ap.parse_args()
    if not a.verify and not a.cards and not a.chains:
        ap.error("give --verify (the engines' tables), --cards (their cards), --chains (the chains' table) or some")
    if a.chains:
        status = write_chains(a.chains, a.doc)
        if status or not (a.verify or a.cards):
            return status
    if a.cards:
        try:
            block, n = cards_block(a.cards)
        except (OSError, ValueError, KeyError) as e:
            print(f"engines_table: error: {e}", file=sys.stderr)
            return 2
        if not a.doc:
            sys.stdout.write(block + "\n")
        elif not replace_block(a.doc, CARDS_BEGIN, CARDS_END, block):
            return 2
        else:
            print(f"engines_table: {a.doc}: {n} cards", file=sys.stderr)
        if not a.verify:
            return 0
    results, commands = [], []
    try:
        for path in a.verify:
            with open(path) as f:
                rep = json.load(f)
            if "results" not in rep:
                raise ValueError(f"{path}: not a verify report (no 'results')")
            # An engine's variant says so in its notes (engines/*.cpp: "Physics engine, ..."); a
            # skipped pair carries no scheme block, so its variant is known by name from the others.
            engines = {r["integrator"] for r in rep["results"]
                       if (r.get("scheme") or {}).get("notes", "").startswith("Physics engine")}
            results += [r for r in rep["results"] if r["integrator"] in engines and integrates(r)]
            commands.append(rep.get("command", ""))
        costs, target = {}, 1e-6
        if a.compare:
            with open(a.compare) as f:
                cmp = json.load(f)
            target = cmp.get("target_error", target)
            for p in cmp.get("problems", []):
                for row in p.get("rows", []):
                    costs[(row["integrator"], p["problem"])] = row.get("cost_to_target") or {}
    except (OSError, ValueError, KeyError) as e:
        print(f"engines_table: error: {e}", file=sys.stderr)
        return 2
    if not results:
        print("engines_table: error: the reports hold no engine variant", file=sys.stderr)
        return 2
    text = table(results, costs, target)
    # The commands as a user types them: the program by its name, not the path it ran from.
    cmd = "; ".join(shlex.join([os.path.basename(c[0])] + c[1:]) if isinstance(c, list) else c for c in commands if c)
    block = (f"{BEGIN}\n<!-- generated by scripts/engines_table.py from: {cmd} -->\n\n{text}{END}")
    if not a.doc:
        sys.stdout.write(block + "\n")
        return 0
    if not replace_block(a.doc, BEGIN, END, block):
        return 2
    print(f"engines_table: {a.doc}: {len(results)} pairs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
