"""Writes the libFuzzer dictionaries fuzz/dict/<target>.dict (docs/fuzzing.md): every property name and
enumerated value of the schemas a target's reader follows (reports/schema), the trajectory columns of
the two problems the trajectory target uses, and the tokens that probe a JSON or CSV reader's edges.
Rerun after a schema changes: python3 fuzz/make_dicts.py"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = {
    "problem_file": ["problem-1"],
    "gate_snapshot": ["gate-snapshot-1.0", "report-1.0"],
    "report": ["report-1.0", "bench-1.0"],
}
JSON_TOKENS = ['{', '}', '[', ']', ':', ',', '"', 'true', 'false', 'null', '-0', '0.0', '1e308', '1e400', '-1e400',
               '1e-320', '4294967297', '9223372036854775808', '18446744073709551617', '\\u0000', '\\ud800', 'NaN',
               'Infinity']
CSV_TOKENS = [',', '\n', '\r\n', ' ', 'nan', 'inf', '-inf', '1e308', '1e400', '0x1p3', '+1', '-0', '1.', '.5']


def names(schema, out):
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "properties" and isinstance(v, dict):
                out.update(v.keys())
            if k in ("enum", "const"):
                out.update(x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str))
            if k == "required" and isinstance(v, list):
                out.update(v)
            names(v, out)
    elif isinstance(schema, list):
        for v in schema:
            names(v, out)


def quote(token):
    # libFuzzer's escapes: \\, \" and \xHH.
    return '"' + "".join("\\\\" if c == "\\" else '\\"' if c == '"' else c if 32 <= ord(c) < 127 else f"\\x{ord(c):02X}"
                         for c in token) + '"'


def write(target, entries):
    path = os.path.join(ROOT, "fuzz", "dict", target + ".dict")
    with open(path, "w") as f:
        f.write(f"# libFuzzer dictionary for fuzz_{target}: written by fuzz/make_dicts.py, do not edit.\n")
        for e in entries:
            f.write(quote(e) + "\n")


for target, schemas in SCHEMAS.items():
    found = set()
    for s in schemas:
        names(json.load(open(os.path.join(ROOT, "reports", "schema", s + ".schema.json"))), found)
    write(target, JSON_TOKENS + sorted(f'"{n}"' for n in found))

columns = ["t"] + [f"R{i}{j}" for i in range(1, 4) for j in range(1, 4)] + ["W1", "W2", "W3"]
# The other conventions' columns (quaternion, world angular velocity) and the spellings of a non-finite value.
conventions = ["q1", "q2", "q3", "q4", "w1", "w2", "w3", "NaN", "-nan", "Infinity", "nan(1)"]
bodies = [f"{c}_{b}" for b in range(3) for c in columns[1:] + ["x1", "x2", "x3", "v1", "v2", "v3"]]
write("trajectory", ["0", "1", "2", "3"] + CSV_TOKENS + JSON_TOKENS + ['"data"'] + columns + conventions + bodies)
write("manifest", JSON_TOKENS + ['"levels"', '"h"', '"file"', '0.05', '0.025', '0.0125', '"a.csv"', '"level0.csv"',
                                 '"level1.json"', '"sub/b.csv"', '"sub"', '"fifo"', '"zero"', '"dangling"', '"link.csv"',
                                 '"/dev/zero"', '"/dev/null"', '"/tmp"', '".."', '"."', '""',
                                 # the conventions, the grid, breakdowns and the declared cost
                                 '"attitude"', '"angular_velocity"', '"grid"', '"cost"', '"meta"', '"breakdown"', '"t"',
                                 '"reason"', '"R"', '"R_row_major"', '"R_column_major"', '"quaternion_wxyz"',
                                 '"quaternion_xyzw"', '"body"', '"world"', '"every_step"', '"observation"',
                                 '"ns_per_step"', '"steps_per_second"', '"machine"', '"method"', '10', '1e9',
                                 # an adaptive scheme's manifest (adaptive_trajectory_set)
                                 '"tol"', '"accepted_steps"', '"rejected_steps"', '"rhs_evaluations"',
                                 '"load_evaluations"', '"shortened_steps"', '1e-05', '3.1622776601683796e-06',
                                 '1.0000000000000002e-06', '-1', '7', '"seconds"'])
# The plugin check reads ELF headers, the section table and notes (core/plugin_file.cpp).
write("plugin_file", ["\x7fELF", "\x02\x01\x01", "\x03\x00", "\x3e\x00", "\x07\x00\x00\x00", "rigidbench\x00",
                      "dart-plugin 1\x00", "dart-plugin 2\x00", "\x0b\x00\x00\x00", "\x0e\x00\x00\x00",
                      "\x01\x00\x00\x00", "\x40\x00", "\xff\xff\xff\xff\xff\xff\xff\xff", ".note.rigidbench"])
# A declaration file of programs (verification/program_scheme.cpp, docs/programs.md): its keys and values.
write("program_declaration", JSON_TOKENS + [f'"{k}"' for k in [
    "programs", "name", "command", "args", "variants", "order", "kind", "families", "features", "claims", "adaptive",
    "error_estimate_order", "dense_output", "error_estimate", "physical_body", "in_all", "memory_mb", "precision",
    "version", "attitude", "angular_velocity", "timeout_s", "settings", "meta", "title", "source", "representation",
    "notes", "default", "min", "max", "integer", "description", "float32", "float64", "explicit", "implicit",
    "semi-implicit", "rigid_body", "energy", "casimir", "momentum", "constraint", "exact", "bounded", "none",
    "quaternion_wxyz", "quaternion_xyzw", "R_row_major", "R_column_major", "body", "world", "node", "python3",
    "./a", "../b", "/bin/sh", ""]] + ['0.5', '600', '1e308', '-1', '0'])
# A history is an SQLite file: its header, and the SQL of its schema and of what must be refused in it
# (tracking/history.cpp).
write("history", ["SQLite format 3\x00", "\x02\x00", "\x10\x00", "\x01\x01\x00\x40\x20\x20", "RBH1",
                  "\x52\x42\x48\x31", "\x00\x00\x00\x02", "CREATE TABLE", "CREATE TRIGGER", "CREATE VIEW",
                  "CREATE INDEX", "runs", "errors", "verdicts", "costs", "work", "table", "trigger", "view", "index",
                  "WITHOUT ROWID", "PRIMARY KEY", "REFERENCES runs(id) ON DELETE CASCADE", "sqlite_autoindex"])
