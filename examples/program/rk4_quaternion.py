#!/usr/bin/env python3
"""A scheme that is a program (docs/programs.md): classical RK4 on the quaternion Kirchhoff form of a
rigid body under uniform fields, spoken to by rigidbench over stdin/stdout, one JSON line per run.

    rigidbench --program examples/program/rk4_quaternion.json verify --integrator py_rk4_quaternion

It reads the problem file (docs/problem-files.md) sent with each request, so it integrates any
one-body rigid_body problem whose loads are uniform fields (free_body, dzhanibekov, heavy_top, ...);
it answers anything else with an "error", which rigidbench reports as the pair's breakdown. Plain
Python with no dependencies: the point is the protocol, not speed.

Equations (docs/problems.md): J dW/dt = J W x W + sum_f p_f x (m_f R^T a_f), dq/dt = q (0, W) / 2,
R = R(q / |q|) (Hamilton, q = (w, x, y, z) maps body to space components).
"""
import json
import sys
import time


def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def rot(q):
    n = sum(c * c for c in q) ** 0.5
    w, x, y, z = (c / n for c in q)
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def quat(R):
    """The unit quaternion of a rotation matrix (Shepperd's choice of the largest component)."""
    t = R[0][0] + R[1][1] + R[2][2]
    if t > 0:
        s = 2 * (1 + t) ** 0.5
        return (s / 4, (R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s)
    i = max(range(3), key=lambda k: R[k][k])
    j, k = (i + 1) % 3, (i + 2) % 3
    s = 2 * (1 + R[i][i] - R[j][j] - R[k][k]) ** 0.5
    q = [0.0] * 4
    q[0] = (R[k][j] - R[j][k]) / s
    q[1 + i] = s / 4
    q[1 + j] = (R[j][i] + R[i][j]) / s
    q[1 + k] = (R[k][i] + R[i][k]) / s
    return tuple(q)


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def solve3(A, b):
    """A x = b for a symmetric positive definite 3 x 3 A (Cramer's rule is enough here)."""
    def det(M):
        return (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0])
                + M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]))
    d = det(A)
    out = []
    for c in range(3):
        M = [row[:] for row in A]
        for r in range(3):
            M[r][c] = b[r]
        out.append(det(M) / d)
    return out


class Body:
    def __init__(self, problem):
        if problem.get("family") != "rigid_body" or len(problem["bodies"]) != 1:
            raise ValueError("this example integrates one rigid body (family rigid_body)")
        self.J = problem["bodies"][0]["inertia"]
        self.loads = problem.get("loads", [])
        for f in self.loads:
            if f["type"] != "uniform_field":
                raise ValueError(f"load '{f['type']}' is not one this example knows (uniform_field only)")
        self.evaluations = 0

    def rhs(self, q, W):
        JW = [sum(self.J[i][k] * W[k] for k in range(3)) for i in range(3)]
        torque = cross(JW, W)
        if self.loads:
            self.evaluations += 1
            R = rot(q)
            for f in self.loads:
                a = f["acceleration"]
                force_body = [f["mass"] * sum(R[k][i] * a[k] for k in range(3)) for i in range(3)]
                t = cross(f["point"], force_body)
                torque = [torque[i] + t[i] for i in range(3)]
        dW = solve3(self.J, torque)
        dq = qmul(q, (0.0, W[0], W[1], W[2]))
        return tuple(0.5 * c for c in dq), dW

    def step(self, q, W, h):
        def axpy(q0, W0, k, c):
            return tuple(q0[i] + c * k[0][i] for i in range(4)), [W0[i] + c * k[1][i] for i in range(3)]
        k1 = self.rhs(q, W)
        k2 = self.rhs(*axpy(q, W, k1, h / 2))
        k3 = self.rhs(*axpy(q, W, k2, h / 2))
        k4 = self.rhs(*axpy(q, W, k3, h))
        q = tuple(q[i] + h / 6 * (k1[0][i] + 2 * k2[0][i] + 2 * k3[0][i] + k4[0][i]) for i in range(4))
        W = [W[i] + h / 6 * (k1[1][i] + 2 * k2[1][i] + 2 * k3[1][i] + k4[1][i]) for i in range(3)]
        return q, W


COLUMNS = ["t", "q1", "q2", "q3", "q4", "W1", "W2", "W3"]


def run(req):
    body = Body(req["problem"])
    s = req["state"]
    q = quat([[s["R11"], s["R12"], s["R13"]], [s["R21"], s["R22"], s["R23"]], [s["R31"], s["R32"], s["R33"]]])
    W = [s["W1"], s["W2"], s["W3"]]
    t0, h, first, last = req["t0"], req["h"], req["from"], req["steps"]
    every, obs = req["observe"]["every"], req["observe"]

    def t_of(n):  # t_n = t0 + n h, never accumulated; the last step lands on land_on if given
        return req["land_on"] if "land_on" in req and n == last else t0 + n * h

    data = {c: [] for c in COLUMNS}

    def record(n):
        n_q = sum(c * c for c in q) ** 0.5
        for c, v in zip(COLUMNS, [t_of(n)] + [c / n_q for c in q] + W):
            data[c].append(v)

    if obs["initial"]:
        record(first)
    start = time.perf_counter_ns()
    for n in range(first, last):
        q, W = body.step(q, W, t_of(n + 1) - t_of(n))
        if not all(abs(c) < 1e300 for c in list(q) + W):
            return {"data": data, "steps": n, "breakdown": {"step": n, "reason": "the state overflowed"}}
        done = n + 1
        if (every > 0 and done % every == 0) or (obs["last"] and done == last):
            record(done)
    elapsed = time.perf_counter_ns() - start
    answer = {"data": data, "steps": last, "counters": {"load_evaluations": body.evaluations}}
    if last > first:
        answer["ns_per_step"] = elapsed / (last - first)
    return answer


def main():
    for line in sys.stdin:
        try:
            answer = run(json.loads(line))
        except (ValueError, KeyError) as e:
            answer = {"error": str(e)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
