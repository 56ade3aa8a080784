#!/usr/bin/python3
"""Headless Chromium renders oustpbm's web pages; the result is checked by
reading the DOM back (stones of each colour as many as in the game file,
each stone in the column and row its coordinates name) and by sampling the
screenshot's pixels (a black stone is dark, a white one light, an empty
point board-coloured).

Usage: browser.py OUSTPBM TEMPLATES [SAVE_DIR]; SAVE_DIR gets the reference
screenshots of the 5x5, 11x11 and 25x25 boards (doc/screenshots/).
Prints TAP-like "ok N - ..." lines."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oustplay  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]
BOARD_RGB = (0xdc, 0xb3, 0x5c)
WIDTH = 1280

n = 0
failed = 0


def check(desc, ok, why=""):
    global n, failed
    n += 1
    if ok:
        print("ok %d - %s" % (n, desc))
    else:
        failed += 1
        print("not ok %d - %s%s" % (n, desc, (": " + why) if why else ""))
    sys.stdout.flush()


def chromium(tmp, args, url):
    profile = tempfile.mkdtemp(dir=tmp, prefix="profile.")
    r = subprocess.run(["chromium"] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile] + args + [url],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    return r.stdout.decode("utf-8", "replace")


# Injected into a copy of a page (the pages themselves have no script): the
# boxes of the stones and of the coordinates, written back into the DOM.
PROBE_SVG = """<script>
(function () {
  var out = {stones: [], labels: [], svg: null};
  var svg = document.querySelector('svg.board');
  var r = svg.getBoundingClientRect();
  out.svg = [r.left + scrollX, r.top + scrollY, r.width, r.height];
  document.querySelectorAll('svg.board circle.b, svg.board circle.w').forEach(function (c) {
    var b = c.getBoundingClientRect();
    out.stones.push([c.getAttribute('class'), c.getAttribute('data-point'),
                     b.left + b.width / 2 + scrollX, b.top + b.height / 2 + scrollY, b.width]);
  });
  document.querySelectorAll('svg.board text.c').forEach(function (t) {
    var b = t.getBoundingClientRect();
    out.labels.push([t.textContent, b.left + b.width / 2 + scrollX, b.top + b.height / 2 + scrollY]);
  });
  out.scrollWidth = document.documentElement.scrollWidth;
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""

def probe(tmp, path, script, height):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    copy = path + ".probe.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", script + "\n</body>"))
    dom = chromium(tmp, ["--window-size=%d,%d" % (WIDTH, height), "--dump-dom"], "file://" + copy)
    os.unlink(copy)
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    if not m:
        return None
    txt = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return json.loads(txt)


def screenshot(tmp, path, height, png):
    chromium(tmp, ["--window-size=%d,%d" % (WIDTH, height), "--screenshot=" + png], "file://" + path)
    return Image.open(png).convert("RGB")


def game_stones(home, board):
    """Black and white stones in the drawing of the game file."""
    with open(os.path.join(home, "games", "%d.game" % board)) as f:
        text = f.read()
    rows = [ln for ln in text.split("\n") if re.match(r"^\s*\d+  ", ln)]
    black = white = 0
    pos = {}
    for ln in rows:
        parts = ln.split()
        y = int(parts[0])
        for x, c in enumerate(parts[1:-1]):
            col = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x]
            if c in "xX":
                black += 1
                pos[col + str(y)] = "b"
            elif c in "oO":
                white += 1
                pos[col + str(y)] = "w"
    return black, white, pos


def lum(p):
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]


def near(p, q, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def check_svg_page(tmp, home, board, size, page, save):
    black, white, pos = game_stones(home, board)
    height = 2600 if size > 11 else 1800
    d = probe(tmp, page, PROBE_SVG, height)
    check("board %d (%dx%d): the page renders and the probe reads its DOM" % (board, size, size), d is not None)
    if d is None:
        return
    nb = sum(1 for s in d["stones"] if s[0] == "b")
    nw = sum(1 for s in d["stones"] if s[0] == "w")
    check("board %d: %d black and %d white stones drawn, as in the game file" % (board, black, white),
          (nb, nw) == (black, white), "drawn %d and %d" % (nb, nw))
    drawn = {s[1]: s[0] for s in d["stones"]}
    check("board %d: each stone on the point the game file has it on" % board, drawn == pos)
    # the coordinates: each stone lies in the column of its letter and the row of its number
    cols, rows = {}, {}
    for t, x, y in d["labels"]:
        if t.isdigit():
            rows.setdefault(t, []).append(y)
        else:
            cols.setdefault(t, []).append(x)
    bad = []
    for cls, name, x, y, w in d["stones"]:
        letter, number = name[0], name[1:]
        if not all(abs(cx - x) < 1.5 for cx in cols.get(letter, [1e9])) or \
                not all(abs(ry - y) < 4 for ry in rows.get(number, [1e9])):
            bad.append(name)
    check("board %d: both coordinate labels of every stone line up with it" % board,
          not bad and len(cols) == size and len(rows) == size, "misplaced: %s" % bad[:5])
    letters = sorted(cols, key=lambda c: cols[c][0])
    check("board %d: columns A.. left to right, skipping I" % board,
          "".join(letters) == "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:size])
    numbers = sorted(rows, key=lambda r: -rows[r][0])
    check("board %d: rows 1.. bottom to top" % board, numbers == [str(i + 1) for i in range(size)])
    check("board %d: the page is no wider than the window" % board, d["scrollWidth"] <= WIDTH)
    png = os.path.join(tmp, "board%d.png" % board)
    img = screenshot(tmp, page, height, png)
    sb = [s for s in d["stones"] if s[0] == "b"]
    sw = [s for s in d["stones"] if s[0] == "w"]
    ok = True
    why = ""
    for s in sb:
        p = img.getpixel((int(s[2]) + 5, int(s[3]) + 5))  # off the last-turn mark at the centre
        if lum(p) > 60:
            ok, why = False, "black stone %s is %s" % (s[1], p)
    check("board %d: pixels: every black stone is dark" % board, ok and sb, why)
    ok = True
    for s in sw:
        p = img.getpixel((int(s[2]) + 5, int(s[3]) + 5))
        if lum(p) < 200:
            ok, why = False, "white stone %s is %s" % (s[1], p)
    check("board %d: pixels: every white stone is light" % board, ok and sw, why)
    # an empty point: a quarter of a cell off its centre, away from the grid lines
    x0, y0, w0, h0 = d["svg"]
    cell = w0 / (size + 2)
    empty = [(x, y) for x in range(size) for y in range(size)
             if "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x] + str(y + 1) not in pos]
    ex, ey = empty[len(empty) // 2]
    px = x0 + (ex + 1.5) * cell + cell / 4
    py = y0 + (size - ey + 0.5) * cell + cell / 4
    p = img.getpixel((int(px), int(py)))
    check("board %d: pixels: an empty point is board-coloured" % board, near(p, BOARD_RGB, 12), str(p))
    if save:
        crop = img.crop((int(x0), int(y0), int(x0 + w0), int(y0 + h0)))
        if size > 11:
            crop = crop.resize((crop.width * 2 // 3, crop.height * 2 // 3), Image.LANCZOS)
        crop = crop.convert("P", palette=Image.ADAPTIVE, colors=64)
        crop.save(os.path.join(save, "board-%dx%d.png" % (size, size)), optimize=True)


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    save = sys.argv[3] if len(sys.argv) > 3 else None
    tmp = tempfile.mkdtemp(prefix="oustpbm-browser.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\nweb_dir = site\nmax_mails_per_hour = 0\n"
                    % templates)
        h = oustplay.Home(binary, home)
        h.mail("alice@example.org", "register alice pa Alice")
        h.mail("bob@example.com", "register bob pb Bob")
        players = [("alice", "alice@example.org", "pa"), ("bob", "bob@example.com", "pb")]
        for board, size, turns in ((101, 5, 6), (102, 11, 40), (103, 25, 160)):
            h.mail("alice@example.org", "challenge alice pa bob -size=%d -noswap" % size)
            played = oustplay.play(h, board, size, turns, players, seed=board)
            check("board %d: %d turns played by mail" % (board, played), played > 0)
            check_svg_page(tmp, home, board, size, os.path.join(home, "site", "board", "%d.html" % board), save)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


main()
