#!/usr/bin/python3
"""Headless Chromium renders the text/html part of board mails at a phone's
400 CSS pixels and at 800, and a script in the page measures the layout:

- no word and no command is broken in the middle: between two characters
  of a text that are not spaces (nor after a hyphen of prose) the line
  never changes; a line kept whole (a command to copy, a history row) is
  one line;
- nothing overflows that cannot be scrolled: the page is no wider than the
  window, and a block wider than its box (a preformatted one, the board)
  scrolls sideways (overflow-x auto or scroll);
- the HTML shows what the text part shows: the history rows of both parts
  are the same (show 104#3: turns 1 to 3, none later).

The mails: a move mail at White's first turn (move and swap commands), an
error with a command to send instead, a turn refused after its winning
capture (the position where it stopped), a past position (show 104#3), an
end mail with its history and a 25x25 board.

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

WIDTHS = (400, 800)
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
    if (sp.getClientRects().length > 1) out.multiline.push(sp.textContent);
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


def check_mail(tmp, name, path, save, want_rows=None):
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
        check("%s at %d px: each command and history row on one line" % (name, width), not d["multiline"],
                 "; ".join(d["multiline"][:5]))
        check("%s at %d px (window %d): the page is no wider than the window" % (name, width, d["innerWidth"]),
                 d["scrollWidth"] <= d["innerWidth"], "%d > %d" % (d["scrollWidth"], d["innerWidth"]))
        check("%s at %d px: whatever is wider than its box scrolls" % (name, width), not d["overflow"],
                 "; ".join(d["overflow"][:5]))
        squeezed = [st for st in d["stones"] if abs(st[0] - st[1]) > 1.5]
        check("%s at %d px: the board keeps its shape: %d stones, each round" % (name, width, len(d["stones"])),
              d["stones"] and not squeezed, "%d squeezed: %s" % (len(squeezed), squeezed[:3]))
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
            f.write("from_address = oust@example.net\ntemplates = %s\nmax_mails_per_hour = 0\n" % templates)
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

        # 106: a 25x25 board, wider than a phone
        h.mail(alice, "challenge alice pa bartholomew -size=25 -noswap")
        oustplay.play(h, 106, 25, 5, players, seed=106)
        last = newest_mail(home, bob) if played % 2 == 0 else newest_mail(home, alice)
        check_mail(tmp, "board-25x25", last, save)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures() else 0)


main()
