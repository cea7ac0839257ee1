#!/usr/bin/env python3
"""Checks that two implementations of one method get the same verdicts (tests/CMakeLists.txt:
examples/python and examples/fortran against examples/external_scheme's C++).

    compare_verdicts.py A.json NAME_A B.json[,C.json...] NAME_B [--order-tol 0.05]

For every problem both reports verified: every gating convergence metric's fitted order within
--order-tol and its verdict equal, Q_II's verdict equal, and per invariant the same claim and the
same verdict. Exit 1 with every difference listed; exit 2 for unusable input."""
import argparse
import json
import sys


def pairs(paths, name):
    out = {}
    for path in paths.split(","):
        with open(path) as f:
            rep = json.load(f)
        for r in rep["results"]:
            if r["integrator"] == name and r["status"] != "skipped":
                out[r["problem"]] = r
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("name_a")
    ap.add_argument("b")
    ap.add_argument("name_b")
    ap.add_argument("--order-tol", type=float, default=0.05)
    a = ap.parse_args()
    A, B = pairs(a.a, a.name_a), pairs(a.b, a.name_b)
    common = sorted(set(A) & set(B))
    if not common:
        print(f"compare_verdicts: no problem verified for both {a.name_a} and {a.name_b}", file=sys.stderr)
        return 2
    diffs = []
    for prob in common:
        x, y = A[prob], B[prob]
        if x["status"] != y["status"]:
            diffs.append(f"{prob}: status {x['status']} vs {y['status']}")
        for m, cx in x["convergence"].items():
            cy = y["convergence"].get(m)
            if cy is None or not cx.get("gating", True):
                continue
            sx, sy = cx["slope"], cy["slope"]
            if sx is None or sy is None or abs(sx - sy) > a.order_tol:
                diffs.append(f"{prob}: {m} order {sx} vs {sy}")
            if cx["verdict"] != cy["verdict"]:
                diffs.append(f"{prob}: {m} verdict {cx['verdict']} vs {cy['verdict']}")
        if x["q_ii"]["verdict"] != y["q_ii"]["verdict"]:
            diffs.append(f"{prob}: Q_II verdict {x['q_ii']['verdict']} vs {y['q_ii']['verdict']}")
        for inv, ix in x["invariants"].items():
            iy = y["invariants"].get(inv)
            if iy is None:
                diffs.append(f"{prob}: invariant {inv} missing from {a.name_b}")
            elif (ix["claim"], ix["verdict"]) != (iy["claim"], iy["verdict"]):
                diffs.append(f"{prob}: {inv} claim/verdict {ix['claim']}/{ix['verdict']} vs {iy['claim']}/{iy['verdict']}")
        print(f"{prob}: {a.name_a} order {x['convergence']['attitude_error_final']['slope']:.4f}, "
              f"{a.name_b} order {y['convergence']['attitude_error_final']['slope']:.4f}; exact claims "
              f"{sorted(k for k, v in x['invariants'].items() if v['claim'] == 'exact')} "
              f"{[v['verdict'] for v in x['invariants'].values() if v['claim'] == 'exact']} vs "
              f"{[v['verdict'] for v in y['invariants'].values() if v['claim'] == 'exact']}")
    for d in diffs:
        print("DIFFERENT:", d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
