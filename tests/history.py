"""The run history (docs/history.md), end to end through the command line:
  record   verify, bench and gate record what they measured - every error at every level, every
           gating verdict, instructions per step - under the revision that was built;
  trends   `history` flags exactly the changes injected into a series of revisions (a jump, a creep
           past the band, a verdict turned) and nothing else, and renders them;
  writers  processes recording into one file at once leave it sound and complete;
  bad      files that are not a history, a newer layout, the paper suite: exit 2, nothing recorded.
  adaptive an adaptive pair's work per unit time (steps, right-hand sides, instructions) is recorded
           at each tolerance and flagged where injected; a layout-1 file gains the table work.
  identity an outside scheme run good then broken under one revision of rigidbench is two points of
           its history, keyed by its identity: --fail-on-worse fails and names both.
usage: history.py RIGIDBENCH TMP_DIR [record|trends|writers|bad|adaptive|identity ...] (default: all)"""
import copy
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys

B, TMP = sys.argv[1], sys.argv[2]
PARTS = sys.argv[3:] or ["record", "trends", "writers", "bad", "adaptive", "identity"]
os.makedirs(TMP, exist_ok=True)
SEL = ["--integrator", "lie_euler", "terze", "--problem", "free_body", "--levels", "4", "--quiet", "--jobs", "1"]


def run(*args, expect=0):
    p = subprocess.run([B, *args], capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"FAIL: {' '.join(args)} exited {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def fresh(name):
    path = os.path.join(TMP, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def ladders(report):
    """Every (integrator, problem, metric, level) the report has: what the history must hold."""
    out = set()
    for r in report["results"]:
        if r["status"] == "skipped":
            continue
        for section in ("convergence", "paper_measures"):
            for m, c in (r.get(section) or {}).items():
                if isinstance(c, dict) and "h" in c:
                    out |= {(r["integrator"], r["problem"], m, k) for k in range(len(c["h"]))}
    return out


def trend_document(out):
    """DIR/history.json of `history --out DIR`, validated against its schema (where python3-jsonschema is)."""
    doc = json.load(open(os.path.join(out, "history.json")))
    try:
        import jsonschema
        schema = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "schema",
                                             "history-1.0.schema.json")))
        jsonschema.Draft7Validator(schema).validate(doc)
    except ImportError:
        pass
    return doc


verify_json = os.path.join(TMP, "verify.json")
bench_json = os.path.join(TMP, "bench", "bench.json")


def reports():
    if not os.path.exists(verify_json):
        run("verify", *SEL, "--out", verify_json)
    if not os.path.exists(bench_json):
        run("bench", "--integrator", "lie_euler", "terze", "--problem", "free_body", "--no-work-precision",
            "--min-time", "0.002", "--repetitions", "1", "--quiet", "--out", os.path.join(TMP, "bench"))
    return json.load(open(verify_json)), json.load(open(bench_json))


def record():
    db = fresh("record.sqlite")
    run("verify", *SEL, "--out", verify_json, "--history", db)
    run("bench", "--integrator", "lie_euler", "terze", "--problem", "free_body", "--no-work-precision",
        "--min-time", "0.002", "--repetitions", "1", "--quiet", "--out", os.path.join(TMP, "bench"), "--history", db)
    base = os.path.join(TMP, "baseline.json")
    run("gate", "--bless", "--current", verify_json, "--baseline", base)
    run("gate", "--current", verify_json, "--baseline", base, "--accuracy-only", "--history", db)
    v, b = json.load(open(verify_json)), json.load(open(bench_json))
    con = sqlite3.connect(db)
    runs = con.execute("SELECT id, command, revision, recorded_at, outcome, compiler FROM runs ORDER BY id").fetchall()
    check([r[1] for r in runs] == ["verify", "bench", "gate"], f"runs recorded: {runs}")
    check(all(r[2] == v["tool"]["git_revision"] for r in runs), "every run is recorded under the revision built")
    check(runs[0][3] == v["started"] and runs[0][4] == "pass" and runs[2][4] == "pass", f"dates and outcomes: {runs}")
    got = set(con.execute("SELECT integrator, problem, metric, level FROM errors WHERE run_id = ?", (runs[0][0],)))
    check(got == ladders(v), f"verify: {len(got)} error rows, the report has {len(ladders(v))} ladder levels")
    for r in v["results"]:
        c = r["convergence"]["attitude_error_final"]
        rows = con.execute("SELECT h, error FROM errors WHERE run_id = ? AND integrator = ? AND problem = ? AND "
                           "metric = 'attitude_error_final' ORDER BY level", (runs[0][0], r["integrator"], r["problem"]))
        check([(x, y) for x, y in rows] == list(zip(c["h"], c["error"])), "errors stored as reported, bit for bit")
    checks = dict(((i, p, c), v_) for i, p, c, v_ in con.execute(
        "SELECT integrator, problem, check_name, verdict FROM verdicts WHERE run_id = ?", (runs[0][0],)))
    for r in v["results"]:
        for name, inv in r["invariants"].items():
            if inv["claim"] != "none":
                check(checks.get((r["integrator"], r["problem"], "invariant:" + name)) == inv["verdict"],
                      f"verdict of invariant:{name} recorded")
    costs = {(i, p): (n, ins) for i, p, n, ins in con.execute(
        "SELECT integrator, problem, ns_per_step, instructions_per_step FROM costs WHERE run_id = ?", (runs[1][0],))}
    for r in b["results"]:
        n, ins = costs[(r["integrator"], r["problem"])]
        check(n == r["ns_per_step"] and ins == r["instructions_per_step"], "bench costs stored as reported")
    check(con.execute("SELECT count(*) FROM errors WHERE run_id = ?", (runs[2][0],)).fetchone()[0] == len(got),
          "gate --current with a verify report records its every ladder")
    print(f"record: {len(runs)} runs, {len(got)} error levels per verify run, {len(costs)} costs")


def trends():
    v, b = reports()
    db = fresh("trends.sqlite")
    files = []
    # Six revisions; changes injected: terze's error x3 at r03 (a jump); lie_euler's instructions
    # x1.05 at r04 (a jump); terze's instructions +1 % at r02 and again at r05 (a creep: 1.0201
    # leaves the 2 % band only at r05); a verdict of lie_euler turned to fail at r05.
    claimed = next(n for n, i in next(r for r in v["results"] if r["integrator"] == "lie_euler")["invariants"].items()
                   if i["claim"] != "none" and i["verdict"] == "pass")
    for k in range(6):
        rev, started = f"r{k:02d}", f"2026-01-0{k + 1}T00:00:00Z"
        w, c = copy.deepcopy(v), copy.deepcopy(b)
        for d in (w, c):
            d["tool"]["git_revision"], d["started"] = rev, started
        for r in w["results"]:
            if r["integrator"] == "terze" and k >= 3:
                for m in r["convergence"].values():
                    m["error"] = [e * 3 if e is not None else None for e in m["error"]]
            if r["integrator"] == "lie_euler" and k == 5:
                r["invariants"][claimed]["verdict"] = "fail"
        for r in c["results"]:
            base = 1000.0 if r["integrator"] == "lie_euler" else 2000.0
            f = {"lie_euler": 1.05 if k >= 4 else 1.0, "terze": 1.01 ** ((k >= 2) + (k >= 5))}.get(r["integrator"], 1.0)
            r["instructions_per_step"] = base * f
        for name, d in (("v", w), ("b", c)):
            files.append(os.path.join(TMP, f"{name}{k}.json"))
            json.dump(d, open(files[-1], "w"))
    run("history", "--history", db, "--import", *files)
    out = os.path.join(TMP, "trends")
    p = run("history", "--history", db, "--out", out, "--quiet", "--fail-on-worse", "--integrator", "lie_euler", "terze",
            expect=1)
    doc = trend_document(out)
    check([r["revision"] for r in doc["revisions"]] == [f"r{k:02d}" for k in range(6)], "revisions in recorded order")
    found = set()
    for pr in doc["pairs"]:
        for c in pr["error"]["change_points"]:
            found.add((pr["integrator"], "error", c["revision"], c["direction"], round(c["ratio"], 4)))
        for s in pr["instructions"]:
            for c in s["change_points"]:
                found.add((pr["integrator"], "instructions", c["revision"], c["direction"], round(c["ratio"], 4)))
        for vc in pr["verdict_changes"]:
            found.add((pr["integrator"], vc["check"], vc["revision"], vc["from"], vc["to"]))
    want = {("terze", "error", "r03", "worse", 3.0), ("lie_euler", "instructions", "r04", "worse", 1.05),
            ("terze", "instructions", "r05", "worse", round(1.01 ** 2, 4)),
            ("lie_euler", "invariant:" + claimed, "r05", "pass", "fail")}
    check(found == want, f"change points found {sorted(found)}, injected {sorted(want)}")
    check(doc["summary"]["at_newest_revision"] == 2, f"two changes at r05: {doc['summary']}")
    check("terze x free_body" in p.stdout and "r03" in p.stdout, "change points listed on stdout")
    page = open(os.path.join(out, "index.html")).read()
    man = json.load(open(os.path.join(out, "manifest.json")))
    hist = [f for f in man["figures"] if f["section"] == "history"]
    check('id="history"' in page and len(hist) == 2, f"history section and one figure per pair ({len(hist)})")
    # The newest revision unchanged: nothing got worse there.
    for name in ("v5.json", "b5.json"):
        d = json.load(open(os.path.join(TMP, name)))
        d["tool"]["git_revision"], d["started"] = "r06", "2026-01-07T00:00:00Z"
        json.dump(d, open(os.path.join(TMP, "r06" + name), "w"))
    run("history", "--history", db, "--import", os.path.join(TMP, "r06v5.json"), os.path.join(TMP, "r06b5.json"),
        "--fail-on-worse")
    run("history", "--history", db, "--last", "2", "--out", out, "--no-render")
    last = json.load(open(os.path.join(out, "history.json")))
    check([r["revision"] for r in last["revisions"]] == ["r05", "r06"], "--last 2: the two newest revisions")
    # A fixed h: the error read at that level for every pair that has it.
    h = v["results"][0]["convergence"]["attitude_error_final"]["h"][1]
    run("history", "--history", db, "--h", repr(h), "--out", out, "--no-render", "--integrator", "lie_euler", "terze")
    fixed = json.load(open(os.path.join(out, "history.json")))
    check(all(pr["error"]["h"] == h and len(pr["error"]["points"]) == 7 for pr in fixed["pairs"]), "--h H: every pair at H")
    print(f"trends: {len(found)} changes found, exactly those injected")


def writers():
    v, _ = reports()
    db = fresh("writers.sqlite")
    snaps = []
    base = os.path.join(TMP, "snap.json")
    run("gate", "--bless", "--current", verify_json, "--baseline", base)
    s = json.load(open(base))
    for k in range(20):
        d = copy.deepcopy(s)
        d["git_revision"] = f"w{k}"
        snaps.append(os.path.join(TMP, f"snap{k}.json"))
        json.dump(d, open(snaps[-1], "w"))
    per_snapshot = sum(len(m["h"]) for a in s["accuracy"].values() for m in a.get("convergence", {}).values())
    procs = [subprocess.Popen([B, "history", "--history", db, "--import", *snaps * 5], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    procs += [subprocess.Popen([B, "verify", *SEL, "--history", db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True) for _ in range(2)]
    for p in procs:
        _, err = p.communicate()
        check(p.returncode == 0, f"a concurrent writer failed: {p.args[1]} exit {p.returncode}: {err}")
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity check")
    n = con.execute("SELECT count(*) FROM runs").fetchone()[0]
    check(n == 4 * 100 + 2, f"{n} runs recorded, 402 written")
    order = [r for r, in con.execute("SELECT revision FROM runs WHERE command = 'gate' ORDER BY id")]
    blocks = sum(1 for a, b in zip(order, order[1:]) if b != f"w{int(a[1:]) + 1}")
    per_verify = len(ladders(v))
    for run_id, command, rows in con.execute(
            "SELECT r.id, r.command, (SELECT count(*) FROM errors e WHERE e.run_id = r.id) FROM runs r"):
        check(rows == (per_snapshot if command == "gate" else per_verify), f"run {run_id} ({command}) holds {rows} rows")
    run("history", "--history", db, "--check")
    print(f"writers: 6 processes, {n} runs, file sound; the writers' runs interleaved at {blocks} places")


def bad():
    reports()
    junk = os.path.join(TMP, "junk.sqlite")
    open(junk, "w").write("not a database, but long enough to have a header of sorts " * 20)
    p = run("history", "--history", junk, expect=2)
    check("not a database" in p.stderr, p.stderr)
    run("verify", *SEL, "--history", junk, expect=2)
    other = fresh("other.sqlite")
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.commit()
    p = run("verify", *SEL, "--history", other, expect=2)
    check("not a rigidbench history" in p.stderr, p.stderr)
    newer = fresh("newer.sqlite")
    run("history", "--history", newer, "--import", verify_json)
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    p = run("history", "--history", newer, expect=2)
    check("newer rigidbench" in p.stderr, p.stderr)
    p = run("history", "--history", os.path.join(TMP, "absent.sqlite"), expect=2)
    check("cannot be opened" in p.stderr, p.stderr)
    p = run("verify", "--suite", "paper", "--history", fresh("paper.sqlite"), expect=2)
    check(not os.path.exists(os.path.join(TMP, "paper.sqlite")), "nothing created for a refused run")
    db = fresh("bad.sqlite")
    run("history", "--history", db, "--import", verify_json)
    garbage = os.path.join(TMP, "garbage.json")
    open(garbage, "w").write('{"kind": "compare", "schema_version": "1.0"}')
    run("history", "--history", db, "--import", verify_json, garbage, expect=2)
    broken = copy.deepcopy(json.load(open(verify_json)))
    del broken["results"][0]["convergence"]["attitude_error_final"]["h"]
    json.dump(broken, open(garbage, "w"))
    p = run("history", "--history", db, "--import", garbage, expect=2)
    check("/results/0/convergence/attitude_error_final" in p.stderr, f"the JSON path named: {p.stderr}")
    # A file that passes the schema and is refused when recorded (a paper-suite report) refuses the
    # whole import: the good file before it is not recorded either (it was).
    paper = os.path.join(TMP, "paper-like.json")
    doc = json.load(open(verify_json))
    doc["suite"] = "paper"
    json.dump(doc, open(paper, "w"))
    p = run("history", "--history", db, "--import", verify_json, paper, expect=2)
    check("paper suite" in p.stderr, p.stderr)
    n = sqlite3.connect(db).execute("SELECT count(*) FROM runs").fetchone()[0]
    check(n == 1, f"refused imports recorded nothing ({n} runs)")
    # A history the run could not be recorded into (here: no room for a 1 KiB file, as on a full
    # disk) is exit 5 before the run starts, not after it: the report is never computed.
    full = fresh("full.sqlite")
    run("history", "--history", full, "--import", verify_json)
    before = open(full, "rb").read()
    out = os.path.join(TMP, "never-written.json")
    if os.path.exists(out):
        os.remove(out)

    def no_room():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
    p = subprocess.run([B, "verify", *SEL, "--history", full, "--out", out], capture_output=True, text=True,
                       preexec_fn=no_room)
    check(p.returncode == 5, f"exit {p.returncode}, expected 5: {p.stderr}")
    check("checked before the run" in p.stderr, p.stderr)
    check(not os.path.exists(out), "the run did not start")
    check(open(full, "rb").read() == before, "the history is left as it was")
    # A read-only history: root writes through file modes, so the file is made immutable (chattr +i,
    # refused even to root) where the file system supports it, and the case is skipped, saying so,
    # where it does not (an overlay or tmpfs).
    ro = fresh("read-only.sqlite")
    run("history", "--history", ro, "--import", verify_json)
    before = open(ro, "rb").read()
    if subprocess.run(["chattr", "+i", ro], capture_output=True).returncode == 0:
        try:
            p = subprocess.run([B, "verify", *SEL, "--history", ro, "--out", out], capture_output=True, text=True)
            check(p.returncode == 5, f"read-only history: exit {p.returncode}, expected 5: {p.stderr}")
            check("is read-only" in p.stderr, p.stderr)
            check(not os.path.exists(out), "the run did not start")
            p = run("history", "--history", ro, "--import", verify_json, expect=5)
        finally:
            subprocess.run(["chattr", "-i", ro])
        check(open(ro, "rb").read() == before, "the read-only history is left as it was")
    else:
        print("bad: read-only history not checked: chattr +i is not supported here")
    print("bad: refused with exit 2, nothing recorded")


def adaptive():
    """The adaptive gate's committed baseline, imported as four revisions: r02 doubles the steps and
    right-hand sides of odeint_dopri5 x free_body, r03 raises the instructions of odeint_cash_karp54 x
    heavy_top by 5 %; exactly those are flagged (the gate's rules: +25 % work, +2 % instructions)."""
    src = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "baselines", "adaptive-gate.json")))
    db = fresh("adaptive.sqlite")
    files = []
    for k in range(4):
        d = copy.deepcopy(src)
        d["git_revision"] = f"a{k:02d}"
        if k >= 2:
            w = d["accuracy"]["odeint_dopri5/free_body"]["work"]
            w["accepted_steps"] = [2 * x for x in w["accepted_steps"]]
            w["rhs_evaluations"] = [2 * x for x in w["rhs_evaluations"]]
        if k >= 3:
            t = d["speed"]["odeint_cash_karp54/heavy_top"]["tolerance"]
            t["instructions_per_time"] = [1.05 * x for x in t["instructions_per_time"]]
        files.append(os.path.join(TMP, f"adaptive{k}.json"))
        json.dump(d, open(files[-1], "w"))
    run("history", "--history", db, "--import", *files)
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA user_version").fetchone()[0] == 3, "a new history has layout 3")
    levels = sum(len(a["work"]["tol"]) for a in src["accuracy"].values() if "work" in a)
    rows = con.execute("SELECT count(*) FROM work WHERE run_id = 1").fetchone()[0]
    check(rows == levels, f"{rows} work rows, the snapshot has {levels} tolerance levels")
    tol, acc, ins = con.execute("SELECT tol, accepted_steps, instructions FROM work WHERE run_id = 1 AND "
                                "integrator = 'odeint_dopri5' AND problem = 'free_body' ORDER BY level").fetchall()[-1]
    check((tol, acc, ins) == (src["accuracy"]["odeint_dopri5/free_body"]["work"]["tol"][-1],
                              src["accuracy"]["odeint_dopri5/free_body"]["work"]["accepted_steps"][-1],
                              src["speed"]["odeint_dopri5/free_body"]["tolerance"]["instructions_per_time"][-1]),
          f"work stored as the snapshot holds it: {tol, acc, ins}")
    con.close()
    out = os.path.join(TMP, "adaptive-trends")
    p = run("history", "--history", db, "--out", out, "--fail-on-worse", "--integrator", "odeint_dopri5",
            "odeint_cash_karp54", expect=1)
    doc = trend_document(out)
    found = set()
    for pr in doc["pairs"]:
        check(pr["work"] is not None and pr["work"]["tol"] == 1e-09, f"{pr['integrator']}: work at the tightest tolerance")
        for sr in pr["work"]["series"]:
            for c in sr["change_points"]:
                found.add((pr["integrator"], pr["problem"], sr["measure"], c["revision"], c["direction"], round(c["ratio"], 4)))
    want = {("odeint_dopri5", "free_body", "accepted_steps", "a02", "worse", 2.0),
            ("odeint_dopri5", "free_body", "rhs_evaluations", "a02", "worse", 2.0),
            ("odeint_cash_karp54", "heavy_top", "instructions", "a03", "worse", 1.05)}
    check(found == want, f"work change points found {sorted(found)}, injected {sorted(want)}")
    check("accepted_steps/time at tol=1e-09" in p.stdout, "work change points listed on stdout")
    man = json.load(open(os.path.join(out, "manifest.json")))
    check(any(f["section"] == "history" for f in man["figures"]), "history figures drawn")
    # A layout-1 history (before the table work): read as it is, and recorded into, it gains the table.
    old = fresh("layout1.sqlite")
    run("history", "--history", old, "--import", files[0])
    con = sqlite3.connect(old)
    con.execute("DROP TABLE work")
    con.execute("DROP TABLE identities")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    run("history", "--history", old, "--out", os.path.join(TMP, "layout1-trends"), "--no-render")
    one = json.load(open(os.path.join(TMP, "layout1-trends", "history.json")))
    check(all(pr["work"] is None for pr in one["pairs"]), "a layout-1 history has no work to trend")
    run("history", "--history", old, "--import", files[1])
    con = sqlite3.connect(old)
    check(con.execute("PRAGMA user_version").fetchone()[0] == 3, "recorded into, a layout-1 history becomes layout 3")
    check(con.execute("SELECT count(*) FROM work").fetchone()[0] == levels, "and holds the new run's work")
    print(f"adaptive: {levels} tolerance levels per run, {len(found)} work changes found, exactly those injected")


def identity():
    """lie_euler's results recorded as an outside scheme's (origin registered, its identity the
    program's build): good, then broken (its errors x8, an order verdict failed) by a rebuilt program,
    both under the one revision of rigidbench an outside project never changes."""
    v, b = reports()
    db = fresh("identity.sqlite")
    files = []
    for k, build in enumerate(("build 00000000000000aa", "build 00000000000000bb")):
        w = copy.deepcopy(v)
        w["tool"]["git_revision"], w["started"] = "r00", f"2026-02-0{k + 1}T00:00:00Z"
        for r in w["results"]:
            if r["integrator"] != "lie_euler":
                continue
            r["scheme"].update({"builtin": False, "origin": "registered", "identity": build})
            if k == 1:
                for m in r["convergence"].values():
                    m["error"] = [e * 8 if e is not None else None for e in m["error"]]
                r["convergence"]["attitude_error_final"]["verdict"] = "fail"
        files.append(os.path.join(TMP, f"identity{k}.json"))
        json.dump(w, open(files[-1], "w"))
    run("history", "--history", db, "--import", *files)
    con = sqlite3.connect(db)
    held = con.execute("SELECT integrator, identity FROM identities ORDER BY run_id").fetchall()
    check(held == [("lie_euler", "build 00000000000000aa"), ("lie_euler", "build 00000000000000bb")],
          f"each run's outside scheme and its identity recorded: {held}")
    out = os.path.join(TMP, "identity-trends")
    p = run("history", "--history", db, "--out", out, "--no-render", "--fail-on-worse", expect=1)
    doc = trend_document(out)
    names = [r["revision"] for r in doc["revisions"]]
    check(names == ["r00 with lie_euler build 00000000000000aa", "r00 with lie_euler build 00000000000000bb"],
          f"one revision of rigidbench, two identities of the scheme: {names}")
    check("build 00000000000000bb" in p.stdout and "lie_euler" in p.stdout, f"the worse identity named:\n{p.stdout}")
    le = next(pr for pr in doc["pairs"] if pr["integrator"] == "lie_euler")
    check(any(c["direction"] == "worse" for c in le["error"]["change_points"]), "its error got worse")
    check(any(vc["to"] == "fail" for vc in le["verdict_changes"]), "its verdict turned")
    # A later bench run (no identities: the plain revision, now the newest in time) does not hide it.
    c = copy.deepcopy(b)
    c["tool"]["git_revision"], c["started"] = "r00", "2026-02-03T00:00:00Z"
    json.dump(c, open(os.path.join(TMP, "identity-bench.json"), "w"))
    run("history", "--history", db, "--import", os.path.join(TMP, "identity-bench.json"))
    run("history", "--history", db, "--out", out, "--no-render", "--fail-on-worse", expect=1)
    # Reverted to the good build (an identity seen before): its newest run is good again - passes.
    good = json.load(open(files[0]))
    good["started"] = "2026-02-04T00:00:00Z"
    json.dump(good, open(os.path.join(TMP, "identity-revert.json"), "w"))
    run("history", "--history", db, "--import", os.path.join(TMP, "identity-revert.json"))
    run("history", "--history", db, "--out", out, "--no-render", "--fail-on-worse")
    # An engine (built in, with its library's version) rebuilt against another library under the same
    # revision: two points too; a revision whose runs all ran one version is named by the revision alone.
    db = fresh("identity-engine.sqlite")
    files = []
    for k, version in enumerate(("Engine 2.2.2", "Engine 3.0.0", "Engine 3.0.0")):
        w = copy.deepcopy(v)
        w["tool"]["git_revision"], w["started"] = ("r01" if k < 2 else "r02"), f"2026-03-0{k + 1}T00:00:00Z"
        for r in w["results"]:
            if r["integrator"] == "terze":
                r["scheme"]["version"] = version
        files.append(os.path.join(TMP, f"identity-engine{k}.json"))
        json.dump(w, open(files[-1], "w"))
    run("history", "--history", db, "--import", *files)
    run("history", "--history", db, "--out", out, "--no-render")
    engine_names = [r["revision"] for r in trend_document(out)["revisions"]]
    check(engine_names == ["r01 with terze Engine 2.2.2", "r01 with terze Engine 3.0.0", "r02"],
          f"an engine's library version splits a revision, and only where it differs: {engine_names}")
    print(f"identity: {len(names)} identities under one revision; --fail-on-worse exit 1, after a later bench too; "
          "0 after the revert; an engine's two library versions two points")


for part in PARTS:
    {"record": record, "trends": trends, "writers": writers, "bad": bad, "adaptive": adaptive, "identity": identity}[part]()
print("history: ok")
