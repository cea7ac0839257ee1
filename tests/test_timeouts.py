#!/usr/bin/python3
"""Every CTest test has a time limit (cmake/test_timeouts.cmake), read from CTest's own listing
(`ctest --show-only=json-v1`): a test without one could hold CI until its 90-minute limit.
usage: test_timeouts.py CTEST BUILD_DIR"""
import json
import subprocess
import sys


def main(argv):
    ctest, build = argv[1:3]
    listing = json.loads(subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                                        check=True).stdout)
    missing, limits = [], {}
    unbuilt = [t["name"] for t in listing["tests"] if "_NOT_BUILT" in t["name"]]
    if unbuilt:
        print(f"the tests are not all built (CTest lists {unbuilt[0]}): build the preset first", file=sys.stderr)
        return 1
    for t in listing["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        limit = props.get("TIMEOUT")
        if not limit or float(limit) <= 0:
            missing.append(t["name"])
        else:
            limits[t["name"]] = float(limit)
    too_long = [n for n, v in limits.items() if v > 3600]  # the CI job's 90 minutes hold several
    if too_long:
        print(f"a TIMEOUT above 3600 s: {', '.join(too_long[:10])}", file=sys.stderr)
        return 1
    if missing or not limits:
        print(f"{len(missing)} of {len(listing['tests'])} tests have no TIMEOUT: {', '.join(missing[:10])}",
              file=sys.stderr)
        return 1
    print(f"every one of the {len(limits)} tests has a time limit ({min(limits.values()):.0f} s to "
          f"{max(limits.values()):.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
