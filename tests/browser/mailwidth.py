#!/usr/bin/python3
"""Headless Chromium renders the text/html part of board mails at a phone's
360 and 400 CSS pixels and at 800, and a script in the page measures the
layout:

- no word and no command is broken in the middle: between two characters
  of a text that are not spaces (nor after a hyphen of prose) the line
  never changes; a command to copy and a history row are in view, wrapped
  at spaces where the screen is narrower (issue 40: the return game's
  command was cut off at 400 px), a drawing's row one line;
- nothing overflows that cannot be scrolled: the page is no wider than the
  window, and a block wider than its box (a preformatted one, the board)
  scrolls sideways (overflow-x auto or scroll);
- the HTML shows what the text part shows: the history rows of both parts
  are the same (show 104#3: turns 1 to 3, none later);
- a thumb can use the board (issue 40): a 9x9 board's points are square
  and at least 40 pixels at 400, a larger board fills the width; the
  stones the last turn captured are marked as taken on the next board
  mail, links or not, exactly those; a board mail with its links is under
  100 KB whole, as sent (Gmail clips past 102 KB), 9x9, 19x19 and 25x25.

The mails: a move mail at White's first turn (move and swap commands), an
error with a command to send instead, a turn refused after its winning
capture (the position where it stopped), a past position (show 104#3), an
end mail with its history, a 9x9 board after a capture and a 25x25 board.

Usage: mailwidth.py OUSTPBM TEMPLATES [SAVE_DIR]; SAVE_DIR gets each
rendering's screenshot, to look at.  Prints TAP-like "ok N - ..." lines."""
import email
import email.policy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oustplay  # noqa: E402
from headless import chromium, check, failures  # noqa: E402

WIDTHS = (360, 400, 800)
HEIGHT = 1600

# Injected into a copy of the mail's HTML (the mail itself has no script).
PROBE = r"""<script>
(function () {
  var out = {splits: [], rows: [], multiline: [], overflow: [], text: '',
             scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth};
  function kept(el) {
    for (; el && el !== document.body; el = el.parentElement)
      if (getComputedStyle(el).whiteSpace === 'pre' || getComputedStyle(el).whiteSpace === 'nowrap')
        return el;
    return null;
  }
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var node, range = document.createRange();
  while ((node = walker.nextNode())) {
    var s = node.data, prevTop = null, prevCh = null;
    if (node.parentElement.closest('table table')) continue;  /* the board's cells */
    for (var i = 0; i < s.length; i++) {
      var ch = s[i];
      if (ch === '\n') { prevTop = null; prevCh = null; continue; }
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      var rs = range.getClientRects();
      if (rs.length === 0) { continue; }
      var top = rs[0].top;
      if (prevTop !== null && top > prevTop + 2 && !/\s/.test(ch) && !/\s/.test(prevCh) &&
          !(prevCh === '-' && !kept(node.parentElement)))
        out.splits.push(s.slice(Math.max(0, i - 25), i) + '|' + s.slice(i, i + 25));
      prevTop = top;
      prevCh = ch;
    }
  }
  document.querySelectorAll('pre span').forEach(function (sp) {
    out.rows.push(sp.textContent);
    /* a row is in view: no line of it past the right edge of its box's content (issue 40: cut off at 400 px) */
    var pre = sp.closest('pre'), pb = pre.getBoundingClientRect();
    var edge = pb.right - parseFloat(getComputedStyle(pre).paddingRight) + 1;
    /* each character but a space (a wrapped line's last spaces hang past the edge, unseen) */
    var tw = document.createTreeWalker(sp, NodeFilter.SHOW_TEXT), tn, rg = document.createRange(), past = false;
    while (!past && (tn = tw.nextNode()))
      for (var k = 0; k < tn.data.length && !past; k++) {
        if (/\s/.test(tn.data[k])) continue;
        rg.setStart(tn, k);
        rg.setEnd(tn, k + 1);
        var cr = rg.getBoundingClientRect();
        if (cr.width > 0 && cr.right > edge) past = true;
      }
    if (past) out.multiline.push(sp.textContent);
    var rs = sp.getClientRects();
    /* a drawing's row is never wrapped */
    if (getComputedStyle(sp).whiteSpace === 'pre' && rs.length > 1) out.multiline.push(sp.textContent);
  });
  document.querySelectorAll('body *').forEach(function (el) {
    var cs = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && el.tagName !== 'TD' && el.tagName !== 'TR' &&
        el.tagName !== 'TBODY' && cs.overflowX !== 'auto' && cs.overflowX !== 'scroll')
      out.overflow.push(el.tagName + ' ' + el.scrollWidth + '>' + el.clientWidth);
  });
  out.stones = [];
  document.querySelectorAll('table table td').forEach(function (td) {
    var b = td.getBoundingClientRect();
    if (getComputedStyle(td).borderTopLeftRadius === '50%') out.stones.push([b.width, b.height]);
  });
  out.points = [];
  out.taken = [];
  out.board = null;
  var board = document.querySelector('table table');
  if (board) {
    var bb = board.getBoundingClientRect();
    out.board = [bb.left, bb.right, bb.width];
    board.querySelectorAll('tr').forEach(function (tr, i) {
      var tds = tr.querySelectorAll(':scope > td');
      for (var j = 1; j < tds.length; j++) {
        if (i === 0 || /^[A-Z]$/.test(tds[j].textContent.trim())) break;  /* the letters' rows */
        var b = tds[j].getBoundingClientRect();
        out.points.push([b.width, b.height]);
        var a = tds[j].querySelector('a');
        var el = a || tds[j];
        var t = el.getAttribute('title') || '';
        var m = /^([A-Z]\d+) taken/.exec(t);
        if (m) {
          var ab = el.getBoundingClientRect();
          out.taken.push([m[1], getComputedStyle(el).boxShadow, ab.width, ab.height, !!a]);
        }
      }
    });
  }
  out.text = document.body.innerText;
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def framed(html, width, height, probe=False):
    """A page holding html in an iframe width CSS pixels wide: headless
    Chromium's window is at least 500 pixels, a phone's screen is 400.  With
    probe, the frame's #probe is copied out to the page once it has loaded."""
    copy = ("var p = this.contentDocument.getElementById('probe'), o = document.createElement('pre'); "
            "o.id = 'probe'; o.textContent = p ? p.textContent : ''; document.body.appendChild(o);")
    esc = html.replace("&", "&amp;").replace('"', "&quot;")
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#888">'
            '<iframe width="%d" height="%d" style="border:0;display:block;background:#fff"%s srcdoc="%s"></iframe>'
            '</body></html>' % (width, height, ' onload="%s"' % copy if probe else "", esc))


def probe(tmp, path, script, height, width):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    copy = path + ".probe.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(framed(html.replace("</body>", script + "\n</body>"), width, height, True))
    dom = chromium(tmp, ["--window-size=%d,%d" % (max(width, 500) + 20, height + 20), "--dump-dom"],
                   "file://" + copy)
    os.unlink(copy)
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    if not m or not m.group(1):
        return None
    txt = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return json.loads(txt)


def screenshot(tmp, path, height, png, width):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    copy = path + ".shot.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(framed(html, width, height))
    chromium(tmp, ["--window-size=%d,%d" % (max(width, 500) + 20, height), "--screenshot=" + png], "file://" + copy)
    os.unlink(copy)


def html_part(path):
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    plain = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    return (plain.get_content() if plain else None), (html.get_content() if html else None), msg


def newest_mail(home, addr):
    """The newest reply, by its queue id (time.M<usec>P<pid>Q<n>): file times tie within a clock tick."""
    d = os.path.join(home, "mail", addr, "new")

    def key(f):
        m = re.match(r"(\d+)\.M(\d+)P(\d+)Q(\d+)", f)
        return tuple(int(x) for x in m.groups()) if m else (0, 0, 0, 0)
    return os.path.join(d, max(os.listdir(d), key=key))


# "   3  x alice  C3", "   3  2023-11-14 22:13 UTC  x alice  C3" (not a drawing's row, " 3  . x .")
HISTORY_ROW = re.compile(r"^ {0,3}\d+  (?:\S+ \S+ UTC  )?[xo] [a-z0-9][^ ]*  +\S.*$", re.M)


# "    move 101#2 bob <password> <placements>": a command the text part sets apart
COMMAND = re.compile(r"^    ((?:move|swap|resign|challenge|accept|decline|chat|show|unsubscribe|notify) .*)$", re.M)


def commands(text):
    return [c.strip() for c in COMMAND.findall(text)]


def refused(h, sender, subject):
    """A mail the server answers with an error (oustplay's Home.mail wants it accepted)."""
    h.k += 1
    h.t += 60
    msg = "From: %s\nSubject: %s\nMessage-ID: <refused.%d.%d@example.org>\n\n" % (sender, subject, h.k, h.t)
    env = dict(os.environ, OUSTPBM_TEST_TIME=str(h.t))
    r = subprocess.run([h.bin, "-d", h.home], input=msg.encode(), env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    with open(os.path.join(h.home, "log"), "rb") as f:
        last = f.read().decode("utf-8", "replace").rstrip("\n").split("\n")[-1]
    check("%r refused" % subject, r.returncode == 0 and " refused: " in last, last)


def history_rows(text):
    return [r.rstrip() for r in HISTORY_ROW.findall(text)]


# " 9  . . x O .   9": a row of a square board's drawing (board.h)
DRAWING_ROW = re.compile(r"^ {0,2}(\d+)  ((?:[.,xoXO] )*[.,xoXO])  +\d+$", re.M)
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def stones(plain):
    """The points holding a stone in the text part's drawing."""
    out = set()
    for row, cells in DRAWING_ROW.findall(plain):
        for x, c in enumerate(cells.split(" ")):
            if c in "xoXO":
                out.add("%s%s" % (COLUMNS[x], row))
    return out


def check_mail(tmp, name, path, save, want_rows=None, cell_min=None, taken=None, max_bytes=None, has_stones=True):
    """The checks above on the mail at path; cell_min: the least size of a
    point at 400 pixels (with the board filling the width at 360);
    taken: the points whose stones the last turn captured; max_bytes: the
    whole mail's size at most, as sent; has_stones: the board has stones."""
    if max_bytes is not None:
        size = os.path.getsize(path)
        check("%s: the whole mail, as sent, is %d bytes, under %d" % (name, size, max_bytes), size < max_bytes)
    plain, html, _msg = html_part(path)
    check("%s: the mail has a text/html part" % name, html is not None)
    if html is None:
        return
    page = os.path.join(tmp, name + ".html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(html)
    for width in WIDTHS:
        d = probe(tmp, page, PROBE, HEIGHT, width)
        check("%s at %d px: the probe reads the rendered DOM" % (name, width), d is not None)
        if d is None:
            continue
        check("%s at %d px: no word or command broken in the middle" % (name, width), not d["splits"],
                 "; ".join(d["splits"][:5]))
        check("%s at %d px: each command and history row in view, wrapped at spaces if at all" % (name, width),
              not d["multiline"], "; ".join(d["multiline"][:5]))
        check("%s at %d px (window %d): the page is no wider than the window" % (name, width, d["innerWidth"]),
                 d["scrollWidth"] <= d["innerWidth"], "%d > %d" % (d["scrollWidth"], d["innerWidth"]))
        check("%s at %d px: whatever is wider than its box scrolls" % (name, width), not d["overflow"],
                 "; ".join(d["overflow"][:5]))
        squeezed = [st for st in d["stones"] if abs(st[0] - st[1]) > 1.5]
        check("%s at %d px: the board keeps its shape: %d stones, each round" % (name, width, len(d["stones"])),
              (d["stones"] or not has_stones) and not squeezed, "%d squeezed: %s" % (len(squeezed), squeezed[:3]))
        pts = d["points"]
        check("%s at %d px: every point of the board is square (%d)" % (name, width, len(pts)),
              pts and all(abs(w - h) <= 1.5 for w, h in pts), str([p for p in pts if abs(p[0] - p[1]) > 1.5][:3]))
        if cell_min is not None and pts:
            least = min(min(w, h) for w, h in pts)
            if width == 400:
                check("%s at 400 px: the points are at least %d pixels (%.1f)" % (name, cell_min, least),
                      least >= cell_min)
            b = d["board"]
            check("%s at %d px: the board fills the width up to its largest (%d of %d px)" %
                  (name, width, b[2] if b else 0, width), b and (b[2] >= width - 24 or least >= 47.5), str(b))
        if taken is not None:
            marked = sorted(t[0] for t in d["taken"])
            check("%s at %d px: the stones the last turn took are marked as taken, those alone (%s)" %
                  (name, width, " ".join(sorted(taken))), marked == sorted(taken), "marked %s" % marked)
            check("%s at %d px: each taken mark a ring (box-shadow), links too (%d links)" %
                  (name, width, sum(1 for t in d["taken"] if t[4])),
                  d["taken"] and all("inset" in t[1] for t in d["taken"]), str(d["taken"][:3]))
        # every command the text part sets apart to be copied is one row of the HTML, on one line
        rows = [r.strip() for r in d["rows"]]
        lost = [c for c in commands(plain) if c not in rows]
        check("%s at %d px: each command to copy kept whole (%d)" % (name, width, len(commands(plain))), not lost,
              "; ".join(lost))
        if width == WIDTHS[0]:
            rows_html = history_rows(d["text"].replace("\u00a0", " "))
            rows_text = history_rows(plain)
            check("%s: the HTML's history rows are the text part's (%d)" % (name, len(rows_text)),
                     rows_html == rows_text, "html %s, text %s" % (rows_html, rows_text))
            if want_rows is not None:
                nums = [int(r.split()[0]) for r in rows_html]
                check("%s: the HTML lists turns %s" % (name, want_rows), nums == want_rows, str(nums))
        if save:
            screenshot(tmp, page, HEIGHT, os.path.join(save, "%s-%d.png" % (name, width)), width)


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    save = sys.argv[3] if len(sys.argv) > 3 else None
    tmp = tempfile.mkdtemp(prefix="oustpbm-mailwidth.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\nmax_mails_per_hour = 0\nweb_dir = site\n" % templates)
        h = oustplay.Home(binary, home)
        h.mail("alice@example.org", "register alice pa Alice")
        h.mail("bob@example.com", "register bartholomew pb Bartholomew")
        players = [("alice", "alice@example.org", "pa"), ("bartholomew", "bob@example.com", "pb")]
        bob = "bob@example.com"
        alice = "alice@example.org"

        # 101: White's first turn, the move and the swap to send
        h.mail(alice, "challenge alice pa bartholomew -size=5")
        h.mail(alice, "move 101 alice pa C3", "Your move, and the swap is yours to take if you like.")
        check_mail(tmp, "turn-2-move-or-swap", newest_mail(home, bob), save)

        # 102: a column I refused, the command to send instead
        h.mail(alice, "challenge alice pa bartholomew -size=11 -noswap")
        h.mail(alice, "move 102 alice pa F6")
        refused(h, bob, "move 102 bartholomew pb I3")
        check_mail(tmp, "error-send-instead", newest_mail(home, bob), save)

        # 103: placements after the winning capture (tests/golden/move-after-winning-capture)
        h.mail(alice, "challenge alice pa bartholomew -size=5 -noswap")
        for sender, cmd in ((alice, "move 103 alice pa A3"), (bob, "move 103 bartholomew pb D3"),
                            (alice, "move 103 alice pa C3"), (bob, "move 103 bartholomew pb A1")):
            h.mail(sender, cmd)
        refused(h, alice, "move 103#5 alice pa B3,A2,E5")
        check_mail(tmp, "after-winning-capture", newest_mail(home, alice), save)

        # 104: a past position: the turns up to it, none later
        h.mail(alice, "challenge alice pa bartholomew -size=7 -noswap")
        played = oustplay.play(h, 104, 7, 6, players, seed=104)
        check("board 104: %d turns played by mail" % played, played == 6)
        h.mail("carol@example.net", "show 104#3")
        check_mail(tmp, "show-104-3", newest_mail(home, "carol@example.net"), save, want_rows=[1, 2, 3])

        # 105: the end, the whole history with times; the return game's options
        h.mail(alice, "challenge alice pa bartholomew -size=13 -white -unrated -remind=3 -timeout=14")
        oustplay.play(h, 105, 13, 4, [players[1], players[0]], seed=105)
        h.mail(alice, "resign 105 alice pa", "Well played.")
        check_mail(tmp, "end-with-history", newest_mail(home, bob), save)

        # 106: a 9x9 game until a turn captures a group: the next board mail, to the player to move, marks what it took
        h.mail(alice, "challenge alice pa bartholomew -size=9 -noswap")
        eng = oustplay.Engine(h.bin, 9, 106)
        prev = stones(html_part(newest_mail(home, alice))[0])
        taken = set()
        try:
            for _ in range(80):
                side = eng.to_move()
                pts = eng.turn()
                if eng.over():
                    break
                uid, addr, pw = players[0] if side.startswith("b") else players[1]
                h.mail(addr, "move 106 %s %s %s" % (uid, pw, ",".join(pts)))
                mover = bob if side.startswith("b") else alice
                now = stones(html_part(newest_mail(home, mover))[0])
                taken = prev - now
                prev = now
                if len(taken) >= 2:
                    break
        finally:
            eng.close()
        check("board 106: a turn captured a group of %d stones" % len(taken), len(taken) >= 2)
        check_mail(tmp, "board-9x9-taken", newest_mail(home, mover), save, cell_min=40, taken=taken,
                   max_bytes=100 * 1024)

        # 107: a 19x19 board with its links
        h.mail(alice, "challenge alice pa bartholomew -size=19 -noswap")
        oustplay.play(h, 107, 19, 4, players, seed=107)
        check_mail(tmp, "board-19x19", newest_mail(home, alice), save, cell_min=0, max_bytes=100 * 1024)

        # 108: a 25x25 board, wider than a phone
        h.mail(alice, "challenge alice pa bartholomew -size=25 -noswap")
        n25 = oustplay.play(h, 108, 25, 5, players, seed=106)
        last = newest_mail(home, bob) if n25 % 2 == 1 else newest_mail(home, alice)
        check_mail(tmp, "board-25x25", last, save, cell_min=0, max_bytes=100 * 1024)
        # its first board, every point a link: the largest board mail there is
        h.mail(alice, "challenge alice pa bartholomew -size=25 -noswap")
        first = newest_mail(home, alice)
        with open(first, encoding="utf-8", errors="replace") as f:
            nlinks = f.read().count('<a href="mailto:')
        check("board-25x25-first: every point a link (%d)" % nlinks, nlinks >= 625)
        check_mail(tmp, "board-25x25-first", first, save, cell_min=0, max_bytes=100 * 1024, has_stones=False)
        # a tournament (issue 44): its page (the crosstable, the pairings) and the list, on a phone too
        for uid, addr, pw in (("carol", "carol@example.net", "pc"), ("dominique", "dom@example.net", "pd")):
            h.mail(addr, "register %s %s" % (uid, pw))
        h.mail(alice, "tournament alice pa roundrobin -size=5 -players=4-4 The long-named autumn round robin & co")
        for uid, addr, pw in (("alice", alice, "pa"), ("bartholomew", bob, "pb"), ("carol", "carol@example.net", "pc"),
                              ("dominique", "dom@example.net", "pd")):
            h.mail(addr, "join T1 %s %s" % (uid, pw))
        h.mail("carol@example.net", "seek carol pc 3")
        h.mail(alice, "challenge alice pa * -size=9 -noswap")
        pages = [os.path.join(home, "site", "tournament", "T1.html"), os.path.join(home, "site", "tournaments.html")]
        for page in pages:
            name = os.path.relpath(page, os.path.join(home, "site"))
            check("web %s was written" % name, os.path.exists(page))
            for width in WIDTHS:
                d = probe(tmp, page, PROBE, HEIGHT, width) if os.path.exists(page) else None
                check("web %s at %d px: no word broken in the middle" % (name, width), d is not None and not d["splits"],
                      d and "; ".join(d["splits"][:5]))
                check("web %s at %d px: no wider than the window" % (name, width),
                      d is not None and d["scrollWidth"] <= d["innerWidth"], d and "%d" % d["scrollWidth"])
                if save:
                    screenshot(tmp, page, HEIGHT, os.path.join(save, "web-%s-%d.png" % (name.replace("/", "-"), width)),
                               width)
        # the web pages' index (issue 40: "Bo ard"): no word broken on a phone either
        index = os.path.join(home, "site", "index.html")
        check("the web index was written", os.path.exists(index))
        for width in WIDTHS:
            d = probe(tmp, index, PROBE, HEIGHT, width) if os.path.exists(index) else None
            check("web index at %d px: no word broken in the middle" % width, d is not None and not d["splits"],
                  d and "; ".join(d["splits"][:5]))
            check("web index at %d px: no wider than the window" % width,
                  d is not None and d["scrollWidth"] <= d["innerWidth"], d and "%d" % d["scrollWidth"])
            if save:
                screenshot(tmp, index, HEIGHT, os.path.join(save, "web-index-%d.png" % width), width)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures() else 0)


main()
