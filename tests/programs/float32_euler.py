#!/usr/bin/env python3
"""A program in single precision, for the test of float32 round-off floors (tests/program_schemes.py):
explicit Euler on the quaternion Kirchhoff form of the example program (examples/program/), whose
state is rounded to the nearest float32 after every step, as an engine built in single precision
keeps it. Declared "precision": "float32", its round-off budgets are float32's (docs/metrics.md,
"Schemes in single precision").

    float32_euler.py
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "program"))
import rk4_quaternion as example  # noqa: E402


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


class Float32Euler(example.Body):
    def step(self, q, W, h):
        dq, dW = self.rhs(q, W)
        return tuple(f32(q[i] + h * dq[i]) for i in range(4)), [f32(W[i] + h * dW[i]) for i in range(3)]


example.Body = Float32Euler
example.main()
