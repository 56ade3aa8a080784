#!/usr/bin/python3
"""Headless Chromium renders oustpbm's web pages and the text/html part of
its board mails; the result is checked by reading the DOM back (stones of
each colour as many as in the game file, each stone in the column and row
its coordinates name) and by sampling the screenshot's pixels (a black
stone is dark, a white one light, an empty point board-coloured).

The hex-hex boards (sides 7 and 10) are checked against the game file's
ASCII drawing: every stone, empty cell, row letter and number of a line of
cells must be where the drawing has it (half a cell a character, a row a
line), which is what makes the rows hexagonal.

Usage: browser.py OUSTPBM TEMPLATES [SAVE_DIR]; SAVE_DIR gets the reference
screenshots of the 5x5, 11x11 and 25x25 boards and of the hex boards of
sides 7 and 10 (doc/screenshots/).
Prints TAP-like "ok N - ..." lines."""
import email
import email.policy
import json
import os
import re
import shutil
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oustplay  # noqa: E402
from headless import chromium, check, failures  # noqa: E402

BOARD_RGB = (0xdc, 0xb3, 0x5c)
WIDTH = 1280


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
  document.querySelectorAll('svg.board circle.gb, svg.board circle.gw').forEach(function (c) {
    out.gone = (out.gone || 0) + 1;
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

PROBE_TABLE = """<script>
(function () {
  var out = {cells: [], cols: [], rows: []};
  var table = document.querySelector('table[data-board]') || document.querySelectorAll('table')[1];
  var rows = table.rows;
  for (var i = 0; i < rows.length; i++) {
    for (var j = 0; j < rows[i].cells.length; j++) {
      var td = rows[i].cells[j], b = td.getBoundingClientRect();
      var cs = getComputedStyle(td);
      var rec = [i, j, td.textContent, cs.backgroundColor, b.left + b.width / 2 + scrollX,
                 b.top + b.height / 2 + scrollY, b.width, b.height, td.colSpan];
      out.cells.push(rec);
    }
  }
  out.scrollWidth = document.documentElement.scrollWidth;
  out.innerWidth = innerWidth;
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


# The standings page: each player row's cells as rendered, and whether it is visible.
PROBE_STANDINGS = """<script>
(function () {
  var out = {rows: [], tables: 0};
  out.tables = document.querySelectorAll('table.standings').length;
  document.querySelectorAll('table.standings tr.player').forEach(function (tr) {
    var b = tr.getBoundingClientRect();
    out.rows.push({cells: Array.prototype.map.call(tr.cells, function (td) { return td.textContent; }),
                   shown: b.width > 0 && b.height > 0,
                   link: (tr.cells[1].querySelector('a') || {}).getAttribute ? tr.cells[1].querySelector('a').getAttribute('href') : null});
  });
  out.scrollWidth = document.documentElement.scrollWidth;
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def check_standings(tmp, home):
    """standings.html read back from Chromium's DOM: one row per player of the ratings file."""
    want = {}
    with open(os.path.join(home, "ratings")) as f:
        for line in f:
            if line.startswith("player: "):
                _, cls, name, rating = line.split()[:4]
                want.setdefault(name, []).append(round(float(rating)))
    page = os.path.join(home, "site", "standings.html")
    check("standings: the page was written", os.path.exists(page))
    if not os.path.exists(page):
        return
    d = probe(tmp, page, PROBE_STANDINGS, 1400)
    check("standings: the page renders and the probe reads its DOM", d is not None)
    if d is None:
        return
    got = {}
    for r in d["rows"]:
        got.setdefault(r["cells"][1], []).append(int(r["cells"][2]))
    check("standings: one row per player and class of the ratings file (%d)" % sum(len(v) for v in want.values()),
          len(d["rows"]) == sum(len(v) for v in want.values()) and
          {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in want.items()},
          "rows %s, ratings file %s" % (got, want))
    check("standings: every row is shown", all(r["shown"] for r in d["rows"]))
    check("standings: each person links to the player's page",
          all(r["link"] == "player/%s.html" % r["cells"][1] for r in d["rows"] if ":" not in r["cells"][1]))
    check("standings: the page is no wider than the window", d["scrollWidth"] <= WIDTH)


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


HEX_HOLE_RGB = (0xeb, 0xcd, 0x86)


def hex_drawing(home, board):
    """The hex-hex drawing of the game file: each cell's name, character and
    place (column, line) in the text, the numbers of the lines of cells with
    their places, and the row letters with their lines.  The drawing is the reference the HTML
    and SVG boards must reproduce: a character is half a cell, a line a row."""
    with open(os.path.join(home, "games", "%d.game" % board)) as f:
        text = f.read()
    lines = text.split("\n\n", 2)[2].split("\nhistory:")[0].rstrip("\n").split("\n")
    cells, labels, right = {}, [], []
    for ln, line in enumerate(lines):
        toks = [(m.start(), m.group()) for m in re.finditer(r"\S+", line)]
        if toks and re.fullmatch(r"[a-s]", toks[0][1]):
            letter = toks[0][1]
            right.append((letter, ln))
            k = 0
            for col, t in toks[1:-1]:
                if t.isdigit():
                    labels.append((t, col, ln))
                else:
                    k += 1
                    cells[letter + str(k)] = (t, col, ln)
        else:
            for col, t in toks:
                labels.append((t, col, ln))
    return cells, labels, right


def check_hex_svg_page(tmp, home, board, side, page, save):
    cells, labels, right = hex_drawing(home, board)
    pos = {n: ("b" if c[0] in "xX" else "w") for n, c in cells.items() if c[0] in "xXoO"}
    d = probe(tmp, page, PROBE_SVG, 1800)
    check("board %d (hex side %d): the page renders and the probe reads its DOM" % (board, side), d is not None)
    if d is None:
        return
    nb = sum(1 for s in d["stones"] if s[0] == "b")
    nw = sum(1 for s in d["stones"] if s[0] == "w")
    black = sum(1 for v in pos.values() if v == "b")
    white = len(pos) - black
    check("board %d: %d black and %d white stones drawn, as in the game file" % (board, black, white),
          (nb, nw) == (black, white), "drawn %d and %d" % (nb, nw))
    check("board %d: each stone on the cell the game file has it on" % board,
          {s[1]: s[0] for s in d["stones"]} == pos)
    # the drawing's geometry: half a cell (32 px) a character, a row (28 px) a line
    name0, x0, y0 = d["stones"][0][1], d["stones"][0][2], d["stones"][0][3]
    ax, ay = x0 - 16 * cells[name0][1], y0 - 28 * cells[name0][2]
    bad = [s[1] for s in d["stones"] if abs(ax + 16 * cells[s[1]][1] - s[2]) > 1.5 or
           abs(ay + 28 * cells[s[1]][2] - s[3]) > 1.5]
    check("board %d: the stones lie as the hex drawing has them: rows offset by half a cell" % board, not bad,
          "misplaced: %s" % bad[:5])
    missing = [t for t, col, ln in labels
               if not any(lt == t and abs(lx - (ax + 16 * col)) < 3 and abs(ly - (ay + 28 * ln)) < 5
                          for lt, lx, ly in d["labels"])]
    check("board %d: the numbers of the lines of cells where the drawing has them" % board,
          not missing, "missing: %s" % missing[:8])
    def row_x(ln, f):
        return f(ax + 16 * c[1] for c in cells.values() if c[2] == ln)
    missing = [t for t, ln in right
               if not any(lt == t and lx > row_x(ln, max) and abs(ly - (ay + 28 * ln)) < 5
                          for lt, lx, ly in d["labels"]) or
               not any(lt == t and lx < row_x(ln, min) and abs(ly - (ay + 28 * ln)) < 5
                       for lt, lx, ly in d["labels"])]
    check("board %d: each row's letter on both sides, on its row" % board, not missing, "missing: %s" % missing)
    check("board %d: the page is no wider than the window" % board, d["scrollWidth"] <= WIDTH)
    png = os.path.join(tmp, "board%d.png" % board)
    img = screenshot(tmp, page, 1800, png)
    ok, why = True, ""
    for s in d["stones"]:
        p = img.getpixel((int(s[2]) + 5, int(s[3]) + 5))
        if (s[0] == "b" and lum(p) > 60) or (s[0] == "w" and lum(p) < 200):
            ok, why = False, "%s stone %s is %s" % (s[0], s[1], p)
    check("board %d: pixels: the black stones are dark, the white ones light" % board, ok and d["stones"], why)
    empty = sorted(n for n, c in cells.items() if c[0] == ".")
    n = empty[len(empty) // 2]
    p = img.getpixel((int(ax + 16 * cells[n][1]) + 4, int(ay + 28 * cells[n][2]) + 4))
    check("board %d: pixels: an empty cell (%s) is a light hexagon" % (board, n), near(p, HEX_HOLE_RGB, 12), str(p))
    sx, sy, sw, sh = d["svg"]
    p = img.getpixel((int(sx) + 6, int(sy) + 6))
    check("board %d: pixels: the corner outside the hexagon is board-coloured" % board, near(p, BOARD_RGB, 12), str(p))
    if save:
        crop = img.crop((int(sx), int(sy), int(sx + sw), int(sy + sh)))
        if side > 7:
            crop = crop.resize((crop.width * 2 // 3, crop.height * 2 // 3), Image.LANCZOS)
        crop = crop.convert("P", palette=Image.ADAPTIVE, colors=64)
        crop.save(os.path.join(save, "board-hex%d.png" % side), optimize=True)


def check_hex_mail(tmp, home, board, side, mailpath, save):
    cells, labels, right = hex_drawing(home, board)
    pos = {n: ("b" if c[0] in "xX" else "w") for n, c in cells.items() if c[0] in "xXoO"}
    plain, html, msg = html_part(mailpath)
    check("board %d: the hex move mail is multipart/alternative, text/plain first" % board,
          msg.get_content_type() == "multipart/alternative" and plain is not None and html is not None)
    if html is None:
        return
    check("board %d: the hex HTML part has no script, no SVG, no external image or font" % board,
          not re.search(r"<script|<svg|<img|<link|url\(|@import|@font-face", html, re.I))
    page = os.path.join(tmp, "mail%d.html" % board)
    with open(page, "w", encoding="utf-8") as f:
        f.write(html)
    d = probe(tmp, page, PROBE_TABLE, 1400)
    check("board %d: the hex mail renders and the probe reads its DOM (%.1f KB)" % (board, len(html) / 1024.0),
          d is not None)
    if d is None:
        return
    rows = {}
    for c in d["cells"]:
        rows.setdefault(c[0], []).append(c)
    found, points, nums, letters = {}, {}, [], []
    for i, r in rows.items():
        letter = r[0][2]
        if re.fullmatch(r"[a-s]", letter):
            k = 0
            letters.append((letter, r[0], r[-1]))
            for c in r[1:-1]:
                if c[8] == 2 and c[3] not in ("rgba(0, 0, 0, 0)", "transparent"):
                    k += 1
                    points[letter + str(k)] = c
                    if c[3] == "rgb(17, 17, 17)":
                        found[letter + str(k)] = "b"
                    elif c[3] == "rgb(238, 238, 238)":
                        found[letter + str(k)] = "w"
                elif c[2].strip().isdigit():
                    nums.append(c)
        else:
            nums.extend(c for c in r if c[2].strip().isdigit())
    black = sum(1 for v in pos.values() if v == "b")
    check("board %d: hex mail: %d black and %d white stones, each where the game file has it" %
          (board, black, len(pos) - black), found == pos and sorted(points) == sorted(cells))
    n0 = sorted(points)[0]
    ax, ay = points[n0][4] - 11 * cells[n0][1], points[n0][5] - 22 * cells[n0][2]
    bad = [n for n, c in points.items() if abs(ax + 11 * cells[n][1] - c[4]) > 1 or
           abs(ay + 22 * cells[n][2] - c[5]) > 1 or abs(c[6] - 22) > 1 or abs(c[7] - 22) > 1]
    check("board %d: hex mail: 22-pixel cells in rows offset by half a cell, as the drawing" % board, not bad,
          "misplaced: %s" % bad[:5])
    missing = [t for t, col, ln in labels
               if not any(c[2].strip() == t and abs(c[4] - (ax + 11 * col)) < 1.5 and abs(c[5] - (ay + 22 * ln)) < 1.5
                          for c in nums)]
    check("board %d: hex mail: the numbers of the lines of cells where the drawing has them" % board,
          not missing, "missing: %s" % missing[:8])
    lines = dict(right)
    bad = [t for t, a, b in letters if a[2] != b[2] or abs(a[5] - (ay + 22 * lines.get(t, -99))) > 1 or
           abs(b[5] - a[5]) > 1 or a[4] > min(c[4] for c in points.values()) or
           b[4] < max(c[4] for c in points.values())]
    check("board %d: hex mail: each row's letter on both sides, on its row" % board,
          not bad and len(letters) == len(right), "wrong: %s" % bad)
    check("board %d: hex mail: no wider than the window" % board, d["scrollWidth"] <= d["innerWidth"])
    img = screenshot(tmp, page, 1400, os.path.join(tmp, "mail%d.png" % board))
    ok, why = True, ""
    for n, v in found.items():
        c = points[n]
        p = img.getpixel((int(c[4]) + 5, int(c[5]) + 5))
        if (v == "b" and lum(p) > 60) or (v == "w" and lum(p) < 200):
            ok, why = False, "%s %s is %s" % (v, n, p)
    check("board %d: hex mail pixels: the black stones dark, the white ones light" % board, ok and found, why)
    empty = sorted(n for n, c in cells.items() if c[0] == ".")
    c = points[empty[len(empty) // 2]]
    p = img.getpixel((int(c[4]) + 4, int(c[5]) + 4))
    check("board %d: hex mail pixels: an empty cell is a light hole in the board" % board,
          near(p, HEX_HOLE_RGB, 12), str(p))
    if save:
        x0 = min(a[4] - a[6] / 2 for t, a, b in letters) - 4
        y0 = min(c[5] for c in nums) - 15
        x1 = max(b[4] + b[6] / 2 for t, a, b in letters) + 4
        y1 = max(c[5] for c in nums) + 15
        crop = img.crop((int(x0), int(y0), int(x1), int(y1))).convert("P", palette=Image.ADAPTIVE, colors=64)
        crop.save(os.path.join(save, "mail-hex%d.png" % side), optimize=True)


def html_part(path):
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    plain = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    return (plain.get_content() if plain else None), (html.get_content() if html else None), msg


def check_mail(tmp, home, board, size, mailpath, save):
    black, white, pos = game_stones(home, board)
    plain, html, msg = html_part(mailpath)
    check("board %d: the move mail is multipart/alternative, text/plain first" % board,
          msg.get_content_type() == "multipart/alternative" and plain is not None and html is not None and
          [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"])
    if html is None:
        return
    size_kb = len(html.encode()) / 1024
    check("board %d: the HTML part has no script, no SVG, no external image or font" % board,
          not re.search(r"<script|<svg|<img|<link|url\(|@import|@font-face", html, re.I))
    page = os.path.join(tmp, "mail%d.html" % board)
    with open(page, "w", encoding="utf-8") as f:
        f.write(html)
    height = 2000 if size > 11 else 1400
    d = probe(tmp, page, PROBE_TABLE, height)
    check("board %d: the mail's HTML renders and the probe reads its DOM (%.1f KB)" % (board, size_kb), d is not None)
    if d is None:
        return
    cells = d["cells"]
    letters = {c[1]: c for c in cells if c[0] == 0 and 1 <= c[1] <= size}
    numbers = {c[0]: c for c in cells if c[1] == 0 and 1 <= c[0] <= size}
    found = {}
    stones = []
    for i, j, text, bg, x, y, w, h, _span in cells:
        if 1 <= i <= size and 1 <= j <= size:
            name = letters[j][2] + numbers[i][2]
            if bg == "rgb(17, 17, 17)":
                found[name] = "b"
                stones.append(("b", name, x, y, text))
            elif bg == "rgb(238, 238, 238)":
                found[name] = "w"
                stones.append(("w", name, x, y, text))
    nb = sum(1 for v in found.values() if v == "b")
    nw = sum(1 for v in found.values() if v == "w")
    check("board %d: mail: %d black and %d white stones, as in the game file" % (board, black, white),
          (nb, nw) == (black, white), "drawn %d and %d" % (nb, nw))
    check("board %d: mail: each stone where the game file has it, by the coordinates on the table" % board,
          found == pos)
    # the letters above and below line up with the columns, the numbers on the left with the rows
    # (one column of numbers: the points take the width a phone has, html.h)
    bottom = {c[1]: c for c in cells if c[0] == size + 1 and 1 <= c[1] <= size}
    ok = len(letters) == size and len(numbers) == size and \
        all(j in bottom and bottom[j][2] == letters[j][2] and abs(bottom[j][4] - letters[j][4]) < 1 for j in letters)
    for i, j, text, bg, x, y, w, h, _span in cells:
        if 1 <= i <= size and 1 <= j <= size:
            ok = ok and abs(x - letters[j][4]) < 1 and abs(y - numbers[i][5]) < 1
    check("board %d: mail: letters above and below, numbers on the left, aligned with the points" % board, ok)
    check("board %d: mail: no wider than the window" % board, d["scrollWidth"] <= d["innerWidth"])
    png = os.path.join(tmp, "mail%d.png" % board)
    img = screenshot(tmp, page, height, png)
    plain_black = [s for s in stones if s[0] == "b" and s[4].strip() == ""]
    ok = bool(plain_black)
    for s in plain_black:
        p = img.getpixel((int(s[2]), int(s[3])))
        if lum(p) > 60:
            ok = False
    check("board %d: mail pixels: the black stones are dark" % board, ok)
    empty = [c for c in cells if 1 <= c[0] <= size and 1 <= c[1] <= size and
             c[3] in ("rgba(0, 0, 0, 0)", "transparent")]
    if empty:
        c = empty[len(empty) // 2]
        p = img.getpixel((int(c[4] + c[6] / 4 + 1), int(c[5] + c[7] / 4 + 1)))
        check("board %d: mail pixels: an empty point is board-coloured" % board, near(p, BOARD_RGB, 12), str(p))
    if save:
        tops = [c for c in cells if c[0] == 0]
        bots = [c for c in cells if c[0] == size + 1]
        x0 = min(c[4] - c[6] / 2 for c in tops) - 4
        y0 = min(c[5] - c[7] / 2 for c in tops) - 4
        x1 = max(c[4] + c[6] / 2 for c in bots) + 4
        y1 = max(c[5] + c[7] / 2 for c in bots) + 4
        crop = img.crop((int(x0), int(y0), int(x1), int(y1))).convert("P", palette=Image.ADAPTIVE, colors=64)
        crop.save(os.path.join(save, "mail-%dx%d.png" % (size, size)), optimize=True)


def newest_mail(home, addr):
    """The newest reply, by its queue id (time.M<usec>P<pid>Q<n>): file times tie within a clock tick."""
    d = os.path.join(home, "mail", addr, "new")

    def key(f):
        m = re.match(r"(\d+)\.M(\d+)P(\d+)Q(\d+)", f)
        return tuple(int(x) for x in m.groups()) if m else (0, 0, 0, 0)
    return os.path.join(d, max(os.listdir(d), key=key))


PARTS = [0]


def part():
    """Whether the next part's browser checks are this shard's (BROWSER_SHARD=K/N, from
    tests/sh/browser.sh --shard K/N): the games are played in every shard, as their board
    numbers follow one another, and Chromium, the costly part, looks at each in one."""
    k, n = (int(x) for x in os.environ.get("BROWSER_SHARD", "1/1").split("/"))
    PARTS[0] += 1
    return PARTS[0] % n == k % n


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
            if not part():
                continue
            check("board %d: %d turns played by mail" % (board, played), played > 0)
            check_svg_page(tmp, home, board, size, os.path.join(home, "site", "board", "%d.html" % board), save)
            last = "alice@example.org" if played % 2 == 0 else "bob@example.com"
            check_mail(tmp, home, board, size, newest_mail(home, last), save)
        for board, side, turns in ((104, 7, 40), (105, 10, 90)):
            h.mail("alice@example.org", "challenge alice pa bob -hex=%d -noswap" % side)
            played = oustplay.play(h, board, side, turns, players, seed=board, hexboard=True)
            if not part():
                continue
            check("board %d: %d turns played by mail on the hex board of side %d" % (board, played, side), played > 0)
            check_hex_svg_page(tmp, home, board, side, os.path.join(home, "site", "board", "%d.html" % board), save)
            # the player not to move: the mover's cells are links that tap (tests/browser/tapgame.py)
            last = "bob@example.com" if played % 2 == 0 else "alice@example.org"
            check_hex_mail(tmp, home, board, side, newest_mail(home, last), save)
        # two rated games end: the standings page, rewritten after each, read back
        # (a game is rated once each player has made 2 turns with placements)
        h.mail("alice@example.org", "challenge alice pa bob -size=5")
        for sender, cmd in (("alice@example.org", "move 106 alice pa C3"), ("bob@example.com", "move 106 bob pb A5"),
                            ("alice@example.org", "move 106 alice pa E1"), ("bob@example.com", "move 106 bob pb D3")):
            h.mail(sender, cmd)
        h.mail("bob@example.com", "resign 106 bob pb")
        h.mail("bob@example.com", "challenge bob pb alice -size=13")
        for sender, cmd in (("bob@example.com", "move 107 bob pb C3"), ("alice@example.org", "move 107 alice pa A5"),
                            ("bob@example.com", "move 107 bob pb E1"), ("alice@example.org", "move 107 alice pa D3")):
            h.mail(sender, cmd)
        h.mail("alice@example.org", "resign 107 alice pa")
        if part():
            check_standings(tmp, home)
        # a comment of one 2,000-character word: the mail still fits the window
        h.mail("alice@example.org", "challenge alice pa bob -size=5 -noswap")
        h.mail("alice@example.org", "move 108 alice pa C3", "w" * 2000)
        if part():
            plain, html, _msg = html_part(newest_mail(home, "bob@example.com"))
            page = os.path.join(tmp, "wide.html")
            with open(page, "w", encoding="utf-8") as f:
                f.write(html or "")
            d = probe(tmp, page, PROBE_TABLE, 1400)
            check("a 2,000-character word in a comment wraps: the mail is no wider than the window",
                  d is not None and d["scrollWidth"] <= d["innerWidth"] and "w" * 2000 in plain,
                  "scrollWidth %s" % (d and d["scrollWidth"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures() else 0)


main()
