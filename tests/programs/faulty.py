#!/usr/bin/env python3
"""A program that breaks the protocol on purpose (tests/program_schemes.py): it relays each request to
`rigidbench program-serve --integrator lie_euler` and spoils the answer as MODE says, so that each way
a program can fail is seen by rigidbench exactly once per run.

    faulty.py MODE RIGIDBENCH
"""
import json
import os
import signal
import subprocess
import sys
import time

mode, rigidbench = sys.argv[1], sys.argv[2]
serve = subprocess.Popen([rigidbench, "program-serve", "--integrator", "lie_euler"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    if mode == "memory":
        hog = bytearray(1 << 30)  # past the declared memory_mb: a MemoryError, the program ends
    serve.stdin.write(line)
    serve.stdin.flush()
    answer = json.loads(serve.stdout.readline())
    if mode == "hang":
        time.sleep(3600)
    elif mode == "die":
        print("faulty: giving up on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "garbage":
        sys.stdout.write("hello, rigidbench\n")
        sys.stdout.flush()
        continue
    elif mode == "two_lines":
        # The answer's end of line and a second line in one small write, so that rigidbench cannot see
        # the one without the other (a large answer is sent in several pieces; a second line written
        # apart could reach it after its answer was taken, and be taken as the next request's answer).
        sys.stdout.write(json.dumps(answer))
        sys.stdout.flush()
        sys.stdout.write('\n{"note": "a second line"}\n')
        sys.stdout.flush()
        continue
    elif mode == "close_output":
        sys.stdout.close()
        os.close(1)
        time.sleep(3600)
    elif mode == "lie_time":
        answer["ns_per_step"] = 1e300
    elif mode == "lie_steps":
        answer["steps"] += 1
    elif mode == "wrong_times":
        answer["data"]["t"] = [t * 1.5 + 0.1 for t in answer["data"]["t"]]
    elif mode == "missing_rows":
        answer["data"] = {k: v[:-1] for k, v in answer["data"].items()}
    elif mode == "not_rotation":
        answer["data"]["R11"] = [2.0 for _ in answer["data"]["R11"]]
    elif mode == "nan_state":
        answer["data"]["W1"][-1] = None
    elif mode == "breakdown":
        req = json.loads(line)  # the states up to the failed step are owed: the initial one, if asked for
        keep = 1 if req["observe"]["initial"] else 0
        answer = {"data": {k: v[:keep] for k, v in answer["data"].items()}, "steps": req["from"],
                  "breakdown": {"step": req["from"], "reason": "faulty: the solver failed on purpose"}}
    elif mode == "refuse":
        answer = {"error": "faulty: this problem is not one I integrate"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
