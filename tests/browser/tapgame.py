#!/usr/bin/python3
"""Whole games played by tapping only: each step opens the newest board
mail of the player to move (its text/html part), collects the mailto:
links of its board, picks one at random (capturing placements often, so
that turns are played in parts, and swap when offered), and sends the
reply a mail client makes from the link: RFC 6068 decoded, "Re: " before
the Subject, the board mail quoted below the body, In-Reply-To set.  The
first links of each game, and every tenth step, are read from the DOM
that headless Chromium renders; the others with html.parser.

Checked at every step: the reply is played (the log says ok), exactly the
player to move has links in the newest mail, nobody but the mover
receives a mail while a part of a turn is pending (an observer watches
too), and no mail to anyone else carries the mover's token.  At the end:
the game is over, `oustpbm fsck` replays the game file to the same
result, and the last board mail names the winner.

Usage: tapgame.py OUSTPBM TEMPLATES.  Prints TAP-like "ok N - ..." lines."""
import email
import email.policy
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless import chromium, check, checks, failures  # noqa: E402

TOKEN = re.compile(r"\[[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{5}\]")


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("mailto:") and "body=" in href:
            self.hrefs.append(href)


def links_parsed(page):
    p = Links()
    p.feed(page)
    return p.hrefs


def links_chromium(tmp, page):
    """The mailto: links as headless Chromium's DOM has them (its parser, not ours)."""
    path = os.path.join(tmp, "mail.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return links_parsed(chromium(tmp, ["--window-size=400,900", "--dump-dom"], "file://" + path))


def mailto(href):
    """RFC 6068: the address and the decoded subject and body."""
    u = urllib.parse.urlsplit(href)
    q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
    return urllib.parse.unquote(u.path), q.get("subject", [""])[0], q.get("body", [""])[0]


REG_CODE = "R3G4STERED"  # the one-time code of the tests' registrations (tests/sh/lib.sh's REG_CODE)


class Home:
    def __init__(self, binary, home):
        self.bin = binary
        self.home = home
        self.t = 1700000000
        self.k = 0
        self.step = 60  # seconds between two mails
        self.seen = {}

    def feed(self, msg, extra_env=None):
        self.k += 1
        self.t += self.step
        env = dict(os.environ, OUSTPBM_TEST_TIME=str(self.t), **(extra_env or {}))
        r = subprocess.run([self.bin, "-d", self.home], input=msg.encode(), env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with open(os.path.join(self.home, "log"), encoding="utf-8", errors="replace") as f:
            last = f.read().rstrip("\n").split("\n")[-1]
        return r.returncode, last

    def send(self, sender, subject, body=""):
        """One mail, which must be accepted; a register is confirmed at once
        with the tests' fixed code, as tests/sh/lib.sh's deliver does."""
        register = subject.lower().startswith("register ")
        rc, last = self.feed("From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <tap.%d@example.org>\n\n%s\n"
                             % (sender, subject, self.k, body), {"OUSTPBM_TEST_CODE": REG_CODE} if register else None)
        if rc != 0 or " ok: " not in last:
            raise RuntimeError("%s: %s" % (subject, last))
        m = re.search(r" ok: registration of (\S+) pending, ", last) if register else None
        if m:
            # the register's password with the code (confirm.c)
            self.send(sender, "confirm %s %s %s" % (m.group(1), REG_CODE, subject.split()[2]))

    def new_mails(self):
        """The mails delivered since the last call: (address, message) in order."""
        out = []
        top = os.path.join(self.home, "mail")
        for addr in sorted(os.listdir(top)) if os.path.isdir(top) else []:
            d = os.path.join(top, addr, "new")
            for f in sorted(os.listdir(d), key=queue_key):
                if (addr, f) in self.seen:
                    continue
                self.seen[(addr, f)] = True
                with open(os.path.join(d, f), "rb") as fh:
                    out.append((addr, email.message_from_binary_file(fh, policy=email.policy.default)))
        return out

    def game(self, board):
        with open(os.path.join(self.home, "games", "%d.game" % board), encoding="utf-8") as f:
            return f.read()


def queue_key(f):
    m = re.match(r"(\d+)\.M(\d+)P(\d+)Q(\d+)", f)
    return tuple(int(x) for x in m.groups()) if m else (0, 0, 0, 0)


def parts(msg):
    plain = html = None
    for p in msg.walk():
        if p.get_content_type() == "text/plain" and plain is None:
            plain = p.get_content()
        elif p.get_content_type() == "text/html" and html is None:
            html = p.get_content()
    return plain or "", html or ""


def reply_to(addr, msg, href):
    """The reply a mail client makes from a mailto: link under the board mail msg."""
    to, subject, body = mailto(href)
    plain, _ = parts(msg)
    quoted = "".join("> " + ln + "\n" for ln in plain.split("\n"))
    return ("From: %s\nTo: %s\nSubject: Re: %s\nIn-Reply-To: %s\nReferences: %s\n"
            "Content-Type: text/plain; charset=utf-8\n\n%s\n\nOn Tue, 14 Nov 2023, Oust test server wrote:\n%s"
            % (addr, to, subject, msg["Message-Id"], msg["Message-Id"], body, quoted))


def field(text, key):
    m = re.search(r"^%s: (.*)$" % key, text, re.M)
    return m.group(1) if m else None


def play(h, tmp, board, players, observer, seed, label):
    rng = random.Random(seed)
    addr_of = dict(players)
    newest = {}
    for addr, msg in h.new_mails():
        newest[addr] = msg
    steps = parts_played = swaps = 0
    half_leaks = []
    chromium_reads = 0
    while True:
        g = h.game(board)
        if field(g, "status") != "playing":
            break
        to_move = field(g, "to-move")
        mover = field(g, "black" if to_move == "black" else "white")
        other = [u for u in addr_of if u != mover][0]
        msg = newest.get(addr_of[mover])
        _, page = parts(msg) if msg is not None else ("", "")
        if steps == 0 or steps % 10 == 0:
            hrefs = links_chromium(tmp, page)
            chromium_reads += 1
        else:
            hrefs = links_parsed(page)
        if not hrefs:
            check("%s: step %d: the newest mail of %s, to move, has links" % (label, steps, mover), False,
                  msg["Subject"] if msg else "no mail")
            return False
        other_msg = newest.get(addr_of[other])
        if other_msg is not None and links_parsed(parts(other_msg)[1]):
            check("%s: step %d: no links in the newest mail of %s, not to move" % (label, steps, other), False)
            return False
        cells = [x for x in hrefs if mailto(x)[2].split("\n")[-1] not in ("resign yes", "swap")]
        captures = capture_links(page)
        swap = [x for x in hrefs if mailto(x)[2].split("\n")[-1] == "swap"]
        if swap and rng.random() < 0.5:
            href = swap[0]
            swaps += 1
        elif captures and steps > 8 and rng.random() < 0.8:
            href = rng.choice(captures)
        else:
            href = rng.choice(cells)
        rc, last = h.feed(reply_to(addr_of[mover], msg, href))
        steps += 1
        if rc != 0 or " ok: " not in last:
            check("%s: step %d: the reply %r of %s is played" % (label, steps, mailto(href)[2], mover), False, last)
            return False
        pending = field(h.game(board), "pending")
        if pending is not None:
            parts_played += 1
        for addr, m in h.new_mails():
            newest[addr] = m
            mine = addr == addr_of[mover]
            if not mine and (pending is not None or re.search(r"#\d+\.\d+", m["Subject"] or "")):
                half_leaks.append("%s got %s" % (addr, m["Subject"]))
            if not mine:
                # the mover's token never goes to anyone else
                tok = TOKEN.search(msg["Subject"] or "")
                if tok and tok.group(0) in m.as_string():
                    half_leaks.append("%s got the token of %s" % (addr, mover))
        if steps > 2000:
            break
    check("%s: the game was played to its end by tapping, %d replies (%d parts of turns, %d swaps, %d read "
          "by Chromium)" % (label, steps, parts_played, swaps, chromium_reads),
          field(h.game(board), "status") in ("black-won", "white-won", "drawn") and chromium_reads > 0)
    check("%s: some turns were played in parts" % label, parts_played > 0)
    check("%s: nobody but the mover received a half turn or the mover's token" % label, not half_leaks,
          "; ".join(half_leaks[:3]))
    r = subprocess.run([h.bin, "-d", h.home, "fsck", str(board)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check("%s: oustpbm fsck replays the game file to the same result" % label, r.returncode == 0,
          r.stdout.decode(errors="replace")[-300:])
    status = field(h.game(board), "status")
    winner = field(h.game(board), "black" if status == "black-won" else "white")
    last = newest.get(observer)
    check("%s: the observer's last mail tells the result (%s, %s)" % (label, status, winner),
          last is not None and (re.search(r"is over: %s won" % winner, " ".join(parts(last)[0].split())) is not None
                                or status == "drawn"),
          parts(last)[0][:300] if last else "no mail")
    return True


def capture_links(page):
    """The links the board marks as captures (their title says so)."""
    out = []

    class P(html.parser.HTMLParser):
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "a" and (a.get("href") or "").startswith("mailto:") and "captures" in (a.get("title") or ""):
                out.append(a["href"])
    P().feed(page)
    return out


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="oustpbm-tapgame.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        # a home without token.secret: it is made on first use
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\nweb_dir = site\nmax_mails_per_hour = 0\n"
                    "password_cost = 1\n" % templates)
        h = Home(binary, home)
        h.send("alice@example.org", "register alice pa Alice")
        h.send("bob@example.com", "register bob pb Bob")
        h.send("carol@example.net", "register carol pc Carol")
        players = [("alice", "alice@example.org"), ("bob", "bob@example.com")]
        games = [(101, "-size=7", 1), (102, "-size=9", 2), (103, "-hex=5", 3)]
        for board, opts, seed in games:
            h.send("alice@example.org", "challenge alice pa bob %s" % opts)
            h.send("carol@example.net", "subscribe %d carol pc" % board)
            play(h, tmp, board, players, "carol@example.net", seed, "board %d (%s)" % (board, opts))
        secret = os.path.join(home, "token.secret")
        check("a home made before tokens got its secret on first use, mode 0600",
              os.path.exists(secret) and (os.stat(secret).st_mode & 0o777) == 0o600)
        site = os.path.join(home, "site")
        leaked = []
        for root, _dirs, files in os.walk(site):
            for f in files:
                with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                if TOKEN.search(text) or "mailto:oust@example.net?" in text:
                    leaked.append(f)
        check("no web page holds a token or a link that plays", os.path.isdir(site) and not leaked,
              ", ".join(leaked[:3]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % checks())
    sys.exit(1 if failures() else 0)


if __name__ == "__main__":
    main()
