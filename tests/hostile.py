"""What a hostile or careless user of the command can do to it, each case checked for a clear refusal
(exit 2, 5 or a breakdown with the reason) and nothing of theirs or the user's replaced
(docs/security.md). One section per kind of input:
- outputs named like the command's inputs;
- histories someone else touched (a trigger, a view, a FIFO, another application's database);
- adaptive settings the ladder would override;
- references whose work is beyond the limit (refused before they start);
- the smaller ones: --set without a value, t0 = 2^52, an outside scheme named like a built-in;
- engines that refuse a model or abort (on every path: ladder, cost, bench);
usage: hostile.py RIGIDBENCH TMP_DIR"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

B, TMP = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(TMP, ignore_errors=True)
os.makedirs(TMP)
ENV = dict(os.environ, RIGIDBENCH_CACHE_DIR=os.path.join(TMP, "cache"))
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, flush=True)


def run(*args, timeout=120):
    return subprocess.run([B, *args], cwd=TMP, env=ENV, capture_output=True, text=True, timeout=timeout)


def at(name):
    return os.path.join(TMP, name)


def refused(r, code, words, what):
    check(r.returncode == code, f"{what}: exit {r.returncode}, expected {code}: {r.stderr[-400:]}")
    for w in words:
        check(w in r.stderr, f"{what}: '{w}' not in the message: {r.stderr[-400:]}")


def content(path):
    with open(path, "rb") as f:
        return f.read()


# A small report every section uses.
QUICK = ["--integrator", "rkmk4", "--problem", "free_body", "--levels", "3", "--quiet", "--jobs", "1"]
r = run("verify", *QUICK, "--out", "r.json")
check(r.returncode in (0, 1) and os.path.isfile(at("r.json")), f"verify: {r.returncode} {r.stderr[-300:]}")
report = content(at("r.json"))

# ---- outputs never replace the command's inputs ------------------------------------------------
r = run("compare", "--in", "r.json", "--out", "r.json")
refused(r, 2, ["--out 'r.json'", "--in 'r.json'", "does not replace its own input"], "compare --in X --out X")
os.symlink("r.json", at("alias.json"))
r = run("compare", "--in", "r.json", "--out", "alias.json")
refused(r, 2, ["does not replace its own input"], "compare --out through a link to its input")
os.makedirs(at("cmp"))
shutil.copy(at("r.json"), at("cmp/compare.json"))
r = run("compare", "--in", "cmp/compare.json", "--out", "cmp")
refused(r, 2, ["does not replace its own input"], "compare --in D/compare.json --out D")
check(content(at("cmp/compare.json")) == report, "compare replaced its input inside its output folder")
r = run("problem", "export", "free_body", "--out", "p.json")
check(r.returncode == 0, f"problem export: {r.stderr}")
problem = content(at("p.json"))
r = run("verify", "--integrator", "rkmk4", "--problem-file", "p.json", "--levels", "3", "--quiet", "--out", "p.json")
refused(r, 2, ["--problem-file 'p.json'"], "verify --problem-file P --out P")
check(content(at("p.json")) == problem, "verify replaced its problem file")
r = run("gate", "--in", "r.json", "--bless", "--baseline", "r.json")
refused(r, 2, ["--baseline 'r.json'", "--in 'r.json'"], "gate --in X --bless --baseline X")
r = run("merge", "--in", "r.json", "--out", "r.json")
refused(r, 2, ["does not replace its own input"], "merge --in X --out X")
check(content(at("r.json")) == report, "an input report was replaced")

# ---- histories are rigidbench's own or refused -------------------------------------------------
r = run("verify", *QUICK, "--out", "h.json", "--history", "h.sqlite")
check(r.returncode in (0, 1), f"verify --history: {r.stderr[-300:]}")
shutil.copy(at("h.sqlite"), at("trigger.sqlite"))
with sqlite3.connect(at("trigger.sqlite")) as c:
    c.execute("CREATE TRIGGER rewrite AFTER INSERT ON errors BEGIN UPDATE errors SET error = 1e-300; END")
for args in (["history", "--check"], ["history", "--out", "hist"]):
    r = run(*args, "--history", "trigger.sqlite")
    refused(r, 2, ["trigger 'rewrite'", "not a history as rigidbench writes it"], f"{' '.join(args)} on a trigger")
r = run("verify", *QUICK, "--out", "t.json", "--history", "trigger.sqlite")
refused(r, 2, ["trigger 'rewrite'"], "verify --history with a trigger")
check(not os.path.exists(at("t.json")), "verify ran into a tampered history")
shutil.copy(at("h.sqlite"), at("view.sqlite"))
with sqlite3.connect(at("view.sqlite")) as c:
    c.execute("CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n")
r = run("history", "--check", "--history", "view.sqlite", timeout=30)
refused(r, 2, ["view 'slow'"], "a history with a view")
shutil.copy(at("h.sqlite"), at("altered.sqlite"))
with sqlite3.connect(at("altered.sqlite")) as c:
    c.execute("ALTER TABLE errors ADD COLUMN note TEXT")
r = run("history", "--check", "--history", "altered.sqlite")
refused(r, 2, ["table 'errors'"], "a history with a table altered")
os.mkfifo(at("fifo.sqlite"))
r = run("history", "--check", "--history", "fifo.sqlite", timeout=30)
refused(r, 2, ["not a regular file"], "a history that is a FIFO")
r = run("verify", *QUICK, "--out", "f.json", "--history", "fifo.sqlite", timeout=30)
refused(r, 2, ["not a regular file"], "verify --history FIFO")
with sqlite3.connect(at("other.sqlite")) as c:
    c.execute("CREATE TABLE contacts(name TEXT)")
r = run("history", "--check", "--history", "other.sqlite")
refused(r, 2, ["not a rigidbench history"], "another application's database")
r = run("history", "--check", "--history", "h.sqlite")
check(r.returncode == 0, f"the untouched history: {r.stderr[-300:]}")
r = run("verify", *QUICK, "--out", "h.sqlite", "--history", "h.sqlite")
refused(r, 2, ["--history 'h.sqlite'"], "verify --history H --out H")
# A hot journal planted beside a history: SQLite would replay it into the file (a helper's review
# rewrote run 1's errors to 1e-99 and every verdict to pass so). One of another user's is refused; a
# folder in its place too; the user's own makes reading say what to do.
shutil.copy(at("h.sqlite"), at("j.sqlite"))
os.makedirs(at("j.sqlite-journal"))
r = run("history", "--check", "--history", "j.sqlite")
refused(r, 2, ["'-journal' beside it that is not a regular file"], "a folder as the history's journal")
os.rmdir(at("j.sqlite-journal"))
with open(at("j.sqlite-journal"), "wb") as f:
    f.write(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\0" * 504)  # a journal's magic: SQLite would read it
if os.geteuid() == 0:
    os.chown(at("j.sqlite-journal"), 4242, 4242)
    r = run("verify", *QUICK, "--out", "j.json", "--history", "j.sqlite")
    refused(r, 2, ["written by another user (uid 4242)"], "another user's journal beside a history")

# ---- links of another user's on the way to an output ----------------------------------------------
if os.geteuid() == 0:
    shared, victims = at("shared"), at("victims")
    os.makedirs(shared)
    os.chmod(shared, 0o1777)
    os.makedirs(victims)
    with open(os.path.join(victims, "report.json"), "w") as f:
        f.write("precious")
    os.symlink(victims, os.path.join(shared, "ld"))
    os.lchown(os.path.join(shared, "ld"), 4242, 4242)
    r = run("verify", *QUICK, "--out", "shared/ld")
    refused(r, 5, ["another user (uid 4242)"], "verify --out through a folder link of another user")
    os.makedirs(os.path.join(shared, "page"))
    os.symlink(victims, os.path.join(shared, "page", "tables"))
    os.lchown(os.path.join(shared, "page", "tables"), 4242, 4242)
    r = run("report", "--in", "r.json", "--out", "shared/page", "--quiet")
    refused(r, 5, ["another user (uid 4242)"], "report --out with a planted tables link")
    with open(os.path.join(victims, "report.json")) as f:
        check(f.read() == "precious", "a file was written through another user's link")
# The renderer's own files are outputs too: an input among them is refused before anything is written.
os.makedirs(at("page"))
shutil.copy(at("r.json"), at("page/index.html"))
r = run("report", "--in", "page/index.html", "--out", "page", "--quiet")
check(r.returncode == 2 and "does not replace its own input" in r.stderr, f"report --in D/index.html --out D: {r.stderr[-300:]}")
check(content(at("page/index.html")) == report, "report replaced its input")
shutil.copy(at("h.sqlite"), at("page/manifest.json"))
r = run("history", "--history", "page/manifest.json", "--out", "page")
check(r.returncode == 2, f"history --history D/manifest.json --out D: exit {r.returncode}")
check(content(at("page/manifest.json")) == content(at("h.sqlite")), "history --out replaced its history")

# ---- adaptive verdicts fail closed -------------------------------------------------------------
# A tolerance given by hand was overridden by the ladder and yet recorded as used.
r = run("verify", "--integrator", "odeint_dopri5", "--problem", "free_body", "--set", "odeint_dopri5.abs_tolerance=1e-3",
        "--quiet", "--out", "tol.json")
refused(r, 2, ["tolerance ladder sets"], "--set <adaptive>.abs_tolerance")
check(not os.path.exists(at("tol.json")), "a report was written with a tolerance the ladder overrode")

problem_doc = json.loads(problem)


def write_problem(name, edit):
    doc = json.loads(json.dumps(problem_doc))
    doc["name"] = name
    edit(doc)
    with open(at(f"{name}.json"), "w") as f:
        json.dump(doc, f)
    return f"{name}.json"


def results(path):
    with open(at(path)) as f:
        return {x["integrator"]: x for x in json.load(f)["results"]}


# ---- the smaller ones ------------------------------------------------------------------------------
for given, words in (("terze.x=", "no value after '='"), ("terze.=1", "no setting named"), (".x=1", "no scheme named"),
                     ("x", "expected name=value")):
    r = run("verify", "--integrator", "terze", "--problem", "free_body", "--set", given, "--quiet", "--out", "set.json")
    refused(r, 2, [words], f"--set {given}")
# Python classes may not take an engine's name even where the engines are not registered (the module).
r = run("score", "--problem", "free_body", "--trajectories", ".", "--name", "mujoco_mine", "--order", "1",
        "--out", "s.json")
refused(r, 2, ["begins with 'mujoco_'", "rigidbench's engines"], "score --name of an engine's scheme")
far = write_problem("t0_far", lambda d: (d["time"].update(t0=2.0**52, t_end=2.0**52 + 10),
                                         d["verification"].update(sample_times=[2.0**52 + 2, 2.0**52 + 10])))
r = run("verify", "--integrator", "terze", "--problem-file", far, "--quiet", "--out", "far.json")
refused(r, 2, ["doubles are 1 apart", "shift the problem's time"], "t0 = 2^52")
r = run("score", "--problem", "free_body", "--trajectories", ".", "--name", "terze", "--order", "2", "--out", "s.json")
refused(r, 2, ["'terze' is a registered scheme's"], "score --name of a built-in")

# ---- the reference is bounded before it starts ----------------------------------------------------
# |W| = 1e8 or a span of 1e9 ran for hours (the step limit then ended it): the work is estimated first.
fast_spin = write_problem("w1e8", lambda d: d["initial"][0]["angular_velocity"].update(body=[1e8, 5e5, -8e5]))
for args, words in ((["--problem-file", fast_spin, "--h", "1"], "quadrature pieces"),
                    (["--problem", "free_body", "--h", "1000", "--t-end", "1e9"], "quadrature pieces"),
                    (["--problem", "heavy_top", "--h", "1000", "--t-end", "1e9"], "its solve would take more than"),
                    (["--problem", "pendulum3d", "--h", "1000", "--t-end", "1e9", "--no-cache"], "its solve would take")):
    try:
        r = run("reference", *args, "--out", "ref.csv", timeout=60)
        refused(r, 2, [words, "RIGIDBENCH_REFERENCE_MAX_STEPS"], f"reference {' '.join(args)}")
    except subprocess.TimeoutExpired:
        check(False, f"reference {' '.join(args)} was not refused within a minute")
check(not os.path.exists(at("ref.csv")), "a refused reference wrote its file")

# ---- an engine's fault is its pair's breakdown, on every path ----------------------------------
listed = run("list").stdout


if "mujoco_euler" in listed:
    # MuJoCo refuses a body lighter than mjMINVAL: the whole verify ended with exit 2 and no report.
    tiny = write_problem("tiny_mass", lambda d: d["bodies"][0].update(mass=1e-16))
    r = run("verify", "--integrator", "mujoco_*", "rkmk4", "--problem-file", tiny, "--levels", "3", "--quiet",
            "--out", "tiny.json")
    check(r.returncode in (0, 1) and os.path.isfile(at("tiny.json")), f"MuJoCo refusing a model: exit {r.returncode}: {r.stderr[-300:]}")
    if os.path.isfile(at("tiny.json")):
        res = results("tiny.json")
        check(res["mujoco_euler"]["status"] == "breakdown" and "MuJoCo refused the model" in res["mujoco_euler"]["reason"],
              f"MuJoCo's refusal is not mujoco_euler's breakdown: {res['mujoco_euler'].get('reason', '')[:200]}")
        check(res["rkmk4"]["status"] == "ok", "the other pair did not survive MuJoCo's refusal")
if "dart_step" in listed:
    # DART's Debian build aborts on a fast spin: the ladder ran isolated, then verify's cost run did
    # not and the process died (the pair already reported a breakdown).
    def spin(d):
        d["initial"][0]["angular_velocity"]["body"] = [300, 1.5, -2.4]
        d["time"]["t_end"] = 0.2
        d["verification"]["sample_times"] = [0.1, 0.2]
    fast = write_problem("fast_spin", spin)
    r = run("verify", "--integrator", "dart_step", "rkmk4", "--problem-file", fast, "--levels", "3", "--quiet",
            "--out", "dart.json")
    check(r.returncode in (0, 1) and os.path.isfile(at("dart.json")), f"DART aborting: exit {r.returncode}: {r.stderr[-300:]}")
    if os.path.isfile(at("dart.json")):
        res = results("dart.json")
        check(res["dart_step"]["status"] == "breakdown" and "signal 6" in res["dart_step"]["reason"],
              f"DART's abort is not its breakdown: {res['dart_step'].get('reason', '')[:200]}")
        check(res["dart_step"]["cost"]["ns_per_step"] is None, "a cost was reported for a run that aborts")
    # bench times an isolated scheme in its child too (manual time in Google Benchmark).
    r = run("bench", "--integrator", "dart_step", "--problem", "free_body", "--quiet", "--min-time", "0.01",
            "--repetitions", "1", "--no-icount", "--no-work-precision", "--out", "dart-bench")
    check(r.returncode == 0, f"bench of an isolated engine: exit {r.returncode}: {r.stderr[-300:]}")
    if r.returncode == 0:
        with open(at("dart-bench/bench.json")) as f:
            entries = {e["integrator"]: e for e in json.load(f)["results"]}
        ns = entries.get("dart_step", {}).get("ns_per_step")
        check(isinstance(ns, (int, float)) and 100 < ns < 1e6, f"dart_step's time per step in its child: {ns}")

print(f"hostile: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
