#!/usr/bin/env python3
"""Validates rigidbench report files against reports/schema/report-1.0.schema.json.

Usage: validate_report.py SCHEMA REPORT [REPORT ...]; exit 0 when all are valid, 1 otherwise.
Needs python3-jsonschema (Debian)."""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:20]:
            print(f"{path}: /{'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
        bad += bool(errors)
        print(f"{path}: {'INVALID' if errors else 'valid'} ({len(report.get('results', []))} results)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
