#!/usr/bin/env python3
"""The longest functions of the library, the Python module and the benchmarks (docs/architecture.md,
"Rooms the right size"): a function's length is its lines from the one that opens its body to the one
that closes it.

  python3 scripts/function-lengths.py [--top N] [--max L] [SOURCE_DIR]

prints the N longest (default 10) and, with --max, exits 1 when one is longer than L lines.

A reader of braces, not a C++ parser: comments, string and character literals are blanked first; a
body is a brace block whose opening follows a closing parenthesis (with an optional trailer such as
`const`, `override`, `noexcept`, `-> T` or a constructor's initialisers) and is not a control
statement, a class, a namespace or a lambda; bodies nested in another function's (local lambdas,
blocks) count toward that function. Tests, fuzz targets and data are not read."""
import argparse
import os
import re
import sys



def roots(source):
    """The layers (the top CMakeLists.txt's list, docs/architecture.md) and the Python module."""
    m = re.search(r"foreach\(_layer ([a-z_ ]+)\)", open(os.path.join(source, "CMakeLists.txt")).read())
    if not m:
        sys.exit("function-lengths: the list of layers (foreach(_layer ...)) is not in CMakeLists.txt")
    return m.group(1).split() + ["python"]
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try|namespace|class|struct|union|enum)\b[^;{}]*$")


def blank(text):
    """Comments and literals replaced by spaces, newlines kept (so line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(length, first line, signature) of each function body in the file."""
    text = blank(open(path, encoding="utf-8").read())
    found, stack = [], []  # stack: (offset of '{', is a function body, inside a function)
    for k, c in enumerate(text):
        if c == "{":
            inside = any(f or inner for _, f, inner in stack)
            head = text[max(0, k - 400):k]
            head = head[max(head.rfind(";"), head.rfind("{"), head.rfind("}")) + 1:]
            is_fn = (not inside and ")" in head and not CONTROL.search(head) and "[" not in head.split("(")[0]
                     and not re.search(r"=\s*$", head.split("(")[0]))
            stack.append((k, is_fn, inside))
        elif c == "}" and stack:
            start, is_fn, _ = stack.pop()
            if is_fn:
                first = text.count("\n", 0, start) + 1
                last = text.count("\n", 0, k) + 1
                sig_start = max(text.rfind(";", 0, start), text.rfind("}", 0, start), text.rfind("{", 0, start)) + 1
                signature = " ".join(text[sig_start:start].split())[:100]
                found.append((last - first + 1, first, signature))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--max", type=int, default=None)
    a = ap.parse_args()
    rows = []
    for root in roots(a.source):
        for folder, _, files in os.walk(os.path.join(a.source, root)):
            for f in files:
                if f.endswith((".cpp", ".hpp", ".h")):
                    path = os.path.join(folder, f)
                    rel = os.path.relpath(path, a.source)
                    rows += [(n, f"{rel}:{line}", sig) for n, line, sig in functions(path)]
    rows.sort(key=lambda r: (-r[0], r[1]))
    for n, where, sig in rows[:a.top]:
        print(f"{n:5d}  {where}  {sig}")
    if a.max is not None:
        over = [r for r in rows if r[0] > a.max]
        if over:
            print(f"function-lengths: {len(over)} function(s) over {a.max} lines", file=sys.stderr)
            return 1
        print(f"function-lengths: {len(rows)} functions, none over {a.max} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
