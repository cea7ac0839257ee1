#!/usr/bin/env python3
"""Validates rigidbench JSON files (reports, problem files) against a schema of reports/schema/.

Usage: validate_report.py SCHEMA FILE [FILE ...]; exit 0 when all are valid, 1 otherwise. The
schema's "$schema" picks the draft (reports: 2020-12; problem files: draft-07, what valijson reads).
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
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            report = json.load(f)
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:20]:
            print(f"{path}: /{'/'.join(str(p) for p in e.path)}: {e.message}", file=sys.stderr)
        bad += bool(errors)
        print(f"{path}: {'INVALID' if errors else 'valid'} ({len(report.get('results', [])) if isinstance(report, dict) else 0} results)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
