"""Writing under faults (docs/decisions.md, "Writing files"): a refused write is exit 5 with the
system's reason and leaves the previous report intact and no temporary; runs killed with SIGKILL at
any moment (verify and gate --bless) leave the previous file or a complete new one, and their
temporaries are removed by the next run; simulate streams its rows in bounded memory and SIGTERM
removes its temporary.
usage: io_faults.py RIGIDBENCH TMP_DIR [quick|long]
"quick" (the fast label): the refused write, stale temporaries, SIGTERM; "long" (the ci label): the
SIGKILL loop over whole runs and the 10^6-step simulate memory; no argument: both."""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

B, TMP = sys.argv[1], sys.argv[2]
PART = sys.argv[3] if len(sys.argv) > 3 else "all"
QUICK, LONG = PART in ("quick", "all"), PART in ("long", "all")
shutil.rmtree(TMP, ignore_errors=True)
os.makedirs(TMP)
ENV = dict(os.environ, RIGIDBENCH_CACHE_DIR=os.path.join(TMP, "cache"))
# The SIGKILL loop needs a run long enough to be killed at many moments (lie_euler's ladder on heavy_top:
# ~3 s in release); the quick checks only need a report to write (under the sanitizers, the long
# selection alone took 80 s of the fast label).
SEL = ["verify", "--integrator", "terze", "lie_euler", "--problem", "free_body", "heavy_top", "--levels", "5",
       "--quiet", "--jobs", "1"]
QUICK_SEL = ["verify", "--integrator", "terze", "--problem", "free_body", "heavy_top", "--levels", "5", "--quiet",
             "--jobs", "1"]


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def temporaries(folder):
    return glob.glob(os.path.join(folder, ".*.tmp.*"))


out = os.path.join(TMP, "out")
os.makedirs(out)
report = os.path.join(out, "report.json")
OLD = '{"old": true}\n'


def refused_write():
    # 1. A write the system refuses (a file-size limit: EFBIG) - exit 5, the reason, nothing lost.
    open(report, "w").write(OLD)
    p = subprocess.run(["sh", "-c", 'trap "" XFSZ; ulimit -f 2; exec "$0" "$@"', B, *QUICK_SEL, "--out", report],
                       capture_output=True, text=True, env=ENV)
    check(p.returncode == 5, f"a refused write is exit 5, got {p.returncode}: {p.stderr}")
    check("File too large" in p.stderr, f"the system's reason is given: {p.stderr}")
    check(open(report).read() == OLD, "the previous report is intact")
    check(not temporaries(out), f"no temporary left: {temporaries(out)}")
    print("refused write: exit 5, reason given, previous report intact, no temporary")


def kill_loop(cmd, target, complete):
    """SIGKILLs 12 runs of cmd at moments spread over a whole run: target is always the old text or a
    file `complete` accepts; the run after the kills exits 0 and leaves no temporary. Returns (killed,
    temporaries the kills left)."""
    t_run = time.monotonic()
    subprocess.run(cmd, env=ENV, capture_output=True)
    t_run = time.monotonic() - t_run
    kills = 0
    for k in range(12):
        open(target, "w").write(OLD)
        proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(t_run * (0.3 + 0.07 * k))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        text = open(target).read()
        if text != OLD:
            check(complete(json.loads(text)), f"{cmd[1]}: a complete file")  # or it would not parse
    left = len(temporaries(out))
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    check(p.returncode == 0 and not temporaries(out), f"{cmd[1]} after the kills: {p.stderr} {temporaries(out)}")
    return kills, left


def sigkill_loop():
    # 2. SIGKILL at moments spread over whole runs: the file is the old one or a complete new one.
    subprocess.run([B, *SEL, "--out", report], env=ENV, capture_output=True)  # warms the reference cache
    kills, left = kill_loop([B, *SEL, "--out", report], report, lambda j: True)
    print(f"SIGKILL verify: {kills} runs killed at spread moments; the report was always the old or a complete one; "
          f"{left} temporaries of killed runs removed by the next run")
    # The same for gate --bless, whose write is most of its run (a quick report read, a snapshot written).
    base = os.path.join(out, "blessed.json")
    kills, left = kill_loop([B, "gate", "--bless", "--current", report, "--baseline", base], base,
                            lambda j: j["kind"] == "rigidbench-gate-snapshot")
    print(f"SIGKILL gate --bless: {kills} runs killed; the baseline was always the old or a complete one; "
          f"{left} temporaries of killed runs removed by the next run")


def stale_temporaries():
    # The temporaries of killed runs (simulated exactly: a dead process's name) are removed by the next run.
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = os.path.join(out, f".report.json.tmp.{dead.pid}.0")
    open(stale, "w").write('{"partial": ')
    p = subprocess.run([B, *QUICK_SEL, "--out", report], env=ENV, capture_output=True, text=True)
    check(p.returncode == 0, p.stderr)
    check(not temporaries(out), f"stale temporaries removed by the next write: {temporaries(out)}")
    json.loads(open(report).read())

    # 3. The same for gate --bless.
    base = os.path.join(out, "baseline.json")
    open(base, "w").write(OLD)
    open(os.path.join(out, f".baseline.json.tmp.{dead.pid}.3"), "w").write("{")
    p = subprocess.run([B, "gate", "--bless", "--current", report, "--baseline", base], env=ENV, capture_output=True, text=True)
    check(p.returncode == 0 and json.load(open(base))["kind"] == "rigidbench-gate-snapshot", p.stderr)
    check(not temporaries(out), f"gate --bless: stale temporaries removed: {temporaries(out)}")
    print("stale temporaries of killed runs: removed by the next verify and gate --bless")


def simulate_streams():
    # 4. simulate streams its rows: 10^6 steps in bounded memory (it kept ~950 B per state before).
    traj = os.path.join(out, "long.csv")
    proc = subprocess.Popen([B, "simulate", "--integrator", "terze", "--problem", "free_body", "--h", "1e-5", "--t-end", "10",
                             "--out", traj], env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
    check(os.waitstatus_to_exitcode(status) == 0, "simulate of 10^6 steps failed")
    rss_mb = usage.ru_maxrss / 1024
    with open(traj) as f:
        rows = sum(1 for _ in f) - 1
    check(rows == 1000001, f"{rows} rows")
    check(rss_mb < 200, f"simulate of 10^6 steps peaked at {rss_mb:.0f} MB")
    print(f"simulate: 10^6 steps streamed in a peak of {rss_mb:.0f} MB")


def simulate_sigterm():
    # 5. SIGTERM during simulate's output leaves neither the file nor its temporary.
    for fmt in ("csv", "json"):
        target = os.path.join(out, f"killed.{fmt}")
        proc = subprocess.Popen([B, "simulate", "--integrator", "terze", "--problem", "free_body", "--h", "1e-6",
                                 "--t-end", "100", "--out", target], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        check(proc.poll() is None and temporaries(out), f"{fmt}: the run is writing its temporary")
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        check(proc.returncode == -signal.SIGTERM, f"ended by SIGTERM ({proc.returncode})")
        check(not os.path.exists(target) and not temporaries(out), f"{fmt}: SIGTERM left {temporaries(out)}")
    print("simulate: SIGTERM during csv and json output leaves nothing")


if QUICK:
    refused_write()
    stale_temporaries()
    simulate_sigterm()
if LONG:
    sigkill_loop()
    simulate_streams()
print("io_faults: ok")
