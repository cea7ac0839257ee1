#!/usr/bin/python3
"""card.page (ci label): `rigidbench card` writes cards.json, cards.md and index.html, and the page
works in a browser (docs/card.md, "The page"): Debian's headless Chromium loads it with the table
sorted from the URL, the DOM after its script ran has one row and one detail view (with its plots) per
card, the rows are in the order asked for, nothing is logged to the console as an error, and the page
is small (no inline images of megabytes).

Usage: card_page.py RIGIDBENCH CHROMIUM OUT_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def dom(chromium, url):
    profile = tempfile.mkdtemp()
    try:
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", "--dump-dom", url],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    errors = [line for line in r.stderr.splitlines() if "CONSOLE" in line and re.search(r"Uncaught|Error", line)]
    return r.stdout, errors


def column(page, col_index):
    """The data-v of a column in the table's row order."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r'<td data-v="([^"]*)"', tr)
        out.append(json.loads(cells[col_index].replace("&quot;", '"')))
    return out


def main(argv):
    exe, chromium, out = argv[1:4]
    shutil.rmtree(out, ignore_errors=True)
    schemes = ["rk4_quat", "lie_euler", "bullet_gyro_none"]
    r = subprocess.run([exe, "card", "--integrator", *schemes, "--quiet", "--out", out], capture_output=True, text=True)
    check(r.returncode == 0, f"rigidbench card: exit {r.returncode}: {r.stderr[-2000:]}")
    if r.returncode != 0:
        return 1
    for f in ("cards.json", "cards.md", "index.html"):
        check(os.path.isfile(os.path.join(out, f)), f"{f} not written")
    page_file = os.path.join(out, "index.html")
    size = os.path.getsize(page_file)
    check(size < 400_000, f"the page is {size} bytes: more than a page of text and small plots")
    cards = json.load(open(os.path.join(out, "cards.json")))["cards"]
    check([c["scheme"] for c in cards] == schemes, "cards.json does not hold one card per scheme asked for")
    url = "file://" + os.path.realpath(page_file)
    # Sorted by the largest safe step, descending (column 5), and by cost, ascending (column 7).
    for query, col, descending in (("?sort=safe&dir=desc", 5, True), ("?sort=cost&dir=asc", 7, False)):
        page, errors = dom(chromium, url + query)
        check(not errors, f"console errors with {query}: {errors}")
        check('<table id="cards"' in page and 'data-sorted=' in page, f"{query}: the script did not sort the table")
        keys = column(page, col)
        check(len(keys) == len(schemes), f"{query}: {len(keys)} rows, expected {len(schemes)}")
        check(keys == sorted(keys, reverse=descending), f"{query}: rows not in order: {keys}")
        for s in schemes:
            section = re.search(rf'<section class="card" id="card-{s}">(.*?)</section>', page, re.S)
            check(section is not None, f"no detail view of {s}")
            if section:
                # Three plots, each drawn or saying there is nothing to draw (no flip, no interval).
                drawn = section.group(1).count('class="plot"')
                check(drawn >= 2 and drawn + section.group(1).count('class="noplot"') == 3,
                      f"the detail view of {s} lacks its plots")
    print(f"card.page: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
