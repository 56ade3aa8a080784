#!/usr/bin/python3
"""Tappable everywhere (issue 40 item 4): from a fresh registration, a game
played only by replying to the mails the server sent, each reply made as
a phone's mail client makes it from a mailto: link of the mail's HTML part
(To, Subject and body from the link, In-Reply-To and References added,
the mail quoted below): a tap on the reminder (oustpbm cleanup), on the
answer to `show`, on the answer to `games <userid> next`, a stale tap
(an older mail of a turn already played, and of a turn begun in parts)
and a tap on its refusal's fresh links, then the game to its end, the
return game by the end mail's link (tapped again: no second game) and
the review by its link, mailed by oustpbm robot.

Usage: tapeverywhere.py OUSTPBM TEMPLATES.  Prints TAP-like "ok N - ..." lines."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless import check, checks, failures  # noqa: E402
from tapgame import Home, capture_links, field, links_parsed, mailto, parts, reply_to  # noqa: E402

A, B = "alice@example.org", "bob@example.com"
DAY = 86400


class Tapper:
    def __init__(self, h):
        self.h = h
        self.inbox = {A: [], B: []}

    def fetch(self):
        for addr, msg in self.h.new_mails():
            self.inbox.setdefault(addr, []).append(msg)

    def newest(self, addr, pred=lambda m: True):
        for m in reversed(self.inbox[addr]):
            if pred(m):
                return m
        return None

    def tap(self, addr, msg, href):
        """The reply a phone sends for a tap on href of msg; the log's last line."""
        rc, last = self.h.feed(reply_to(addr, msg, href))
        self.fetch()
        return rc, last

    def board(self, n=101):
        return self.h.game(n)


def cells(page):
    return [x for x in links_parsed(page) if mailto(x)[2].split("\n")[-1] not in ("resign yes", "swap")]


def subj(m):
    return m["Subject"] or ""


def mover(t, n=101):
    g = t.board(n)
    return A if field(g, "to-move") == "black" and field(g, "black") == "alice" or \
        field(g, "to-move") == "white" and field(g, "white") == "alice" else B


def tap_cell(t, addr, msg, rng, what, plain=True):
    """Tap a placement of msg (a non-capturing one when plain and there is one); True if it played."""
    page = parts(msg)[1]
    hrefs = cells(page)
    caps = set(capture_links(page))
    pick = [x for x in hrefs if x not in caps] if plain else hrefs
    if not pick:
        pick = hrefs
    if not pick:
        check(what, False, "no links in '%s'" % subj(msg))
        return False
    rc, last = t.tap(addr, msg, rng.choice(pick))
    check(what, rc == 0 and " ok: " in last, last)
    return rc == 0 and " ok: " in last


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    rng = random.Random(40)
    tmp = tempfile.mkdtemp(prefix="oustpbm-tapeverywhere.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\npassword_cost = 1\n" % templates)
        h = Home(binary, home)
        t = Tapper(h)
        h.send(A, "register alice pa Alice")
        h.send(B, "register bob pb Bob")
        h.send(A, "challenge alice pa bob -size=5 -noswap")
        t.fetch()

        # the reminder: alice, to move, idle 8 days (remind_days = 7)
        h.t += 8 * DAY
        r = subprocess.run([binary, "-d", home, "cleanup"], env=dict(os.environ, OUSTPBM_TEST_TIME=str(h.t)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        t.fetch()
        rem = t.newest(A, lambda m: " reminder alice" in subj(m))
        check("cleanup sends alice, to move, a reminder with her token in its Subject",
              r.returncode == 0 and rem is not None and re.search(r"\[[2-9A-Z-]{15}\]", subj(rem)) is not None,
              r.stderr.decode(errors="replace")[-200:])
        if rem is None:
            raise SystemExit(1)
        tap_cell(t, A, rem, rng, "a tap on the reminder's board plays alice's turn 1")

        # show: bob asks, taps the answer
        h.send(B, "show 101")
        t.fetch()
        shown = t.newest(B)
        tap_cell(t, B, shown, rng, "a tap on the answer to bob's show plays turn 2")
        old_bob = shown  # of turn 2, over now

        # games next: alice asks, taps the board of the answer
        h.send(A, "games alice next")
        t.fetch()
        listed = t.newest(A)
        check("the answer to games alice next has her board's links", len(cells(parts(listed)[1])) > 0,
              subj(listed))
        tap_cell(t, A, listed, rng, "a tap on the answer to games alice next plays turn 3")

        # a stale tap: bob taps his show answer of turn 2 again; the refusal has fresh links
        href = cells(parts(old_bob)[1])[0]
        rc, last = t.tap(B, old_bob, href)
        refusal = t.newest(B)
        check("a stale tap (the mail of turn 2, at turn 4) is refused", rc == 0 and " refused: " in last, last)
        check("... its refusal carries bob's token and the turn now (#4) in its Subject",
              re.search(r" #4 \[[2-9A-Z-]{15}\]$", subj(refusal)) is not None, subj(refusal))
        fresh = cells(parts(refusal)[1])
        check("... and links that play turn 4", fresh != [] and all(mailto(x)[2].startswith("#4\n") for x in fresh),
              str(fresh[:2]))
        tap_cell(t, B, refusal, rng, "a tap on the refusal's fresh link plays turn 4")

        # to the end by taps, captures taken; the first turn in parts gets a stale tap too
        parted = False
        steps = 0
        while field(t.board(), "status") == "playing" and steps < 300:
            steps += 1
            who = mover(t)
            msg = t.newest(who, lambda m: cells(parts(m)[1]) != [])
            before = msg
            page = parts(msg)[1]
            caps = capture_links(page)
            href = rng.choice(caps) if caps else rng.choice(cells(page))
            rc, last = t.tap(who, msg, href)
            if rc != 0 or " ok: " not in last:
                check("the game goes on by taps (step %d)" % steps, False, last)
                break
            if not parted and field(t.board(), "pending") is not None:
                parted = True
                # the reminder of a turn in parts: the board after the part, its links going on from it
                h.t += 8 * DAY
                r = subprocess.run([binary, "-d", home, "cleanup"],
                                   env=dict(os.environ, OUSTPBM_TEST_TIME=str(h.t)),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                t.fetch()
                rem = t.newest(who, lambda m: " reminder " in subj(m))
                rl = cells(parts(rem)[1]) if rem is not None else []
                check("the reminder of a turn in parts has the part in its Subject (#N.1) and links going on",
                      r.returncode == 0 and rem is not None and re.search(r" #\d+\.1 \[", subj(rem)) is not None
                      and rl != [] and all(re.match(r"#\d+\.1\n", mailto(x)[2]) for x in rl),
                      subj(rem) if rem is not None else r.stderr.decode(errors="replace")[-200:])
                rc, last = t.tap(who, before, cells(parts(before)[1])[0])
                refusal = t.newest(who)
                turn = field(t.board(), "turn") or ""
                check("a stale tap while a turn in parts waits is refused", " refused: " in last, last)
                fresh = cells(parts(refusal)[1])
                check("... its refusal shows the board after the part, its links going on from it (#N.1)",
                      re.search(r" #\d+\.1 \[", subj(refusal)) is not None and fresh != [] and
                      all(re.match(r"#\d+\.1\n", mailto(x)[2]) for x in fresh), subj(refusal))
                rc, last = t.tap(who, refusal, rng.choice(fresh))
                check("... and a tap on it goes on with the turn", rc == 0 and " ok: " in last, last)
        status = field(t.board(), "status")
        check("the game ended by taps (%d more, a turn in parts among them: %s)" % (steps, parted),
              status in ("black-won", "white-won", "drawn") and parted, status)

        # the end mail: the return game and the review, a tap each
        end = t.newest(B, lambda m: "mailto:" in parts(m)[1] and "Return game" in parts(m)[1])
        check("bob's end mail has the return game and review links", end is not None)
        if end is None:
            raise SystemExit(1)
        links = {}
        import html.parser

        class P(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.href = None

            def handle_starttag(self, tag, attrs):
                self.href = dict(attrs).get("href") if tag == "a" else None

            def handle_data(self, data):
                if self.href and data.strip() in ("Return game", "Review of the game"):
                    links[data.strip()] = self.href
        P().feed(parts(end)[1])
        again = links.get("Return game", "")
        check("... the return game's body is the challenge, colours reversed",
              mailto(again)[2].startswith("challenge alice -size=5") and "-noswap" in mailto(again)[2],
              mailto(again)[2])
        rc, last = t.tap(B, end, again)
        g2 = h.game(102) if os.path.exists(os.path.join(home, "games", "102.game")) else ""
        check("a tap on it starts board 102, bob against alice, colours reversed",
              " ok: new board 102" in last and field(g2, "black") == "bob" and field(g2, "white") == "alice", last)
        invited = t.newest(A)
        check("... alice gets its board mail", invited is not None and "Board 102" in subj(invited),
              subj(invited) if invited else "")
        rc, last = t.tap(B, end, again)
        check("the same tap again starts no second game",
              " refused: " in last and not os.path.exists(os.path.join(home, "games", "103.game")), last)
        rc, last = t.tap(B, end, links.get("Review of the game", ""))
        check("a tap on the review link queues the review of board 101", " ok: review queued" in last, last)
        r = subprocess.run([binary, "-d", home, "robot"],
                           env=dict(os.environ, OUSTPBM_TEST_TIME=str(h.t + 60), OUSTPBM_TEST_ROBOT_PLAYOUTS="300"),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        t.fetch()
        review = t.newest(B, lambda m: subj(m) == "Oust Board 101 review")
        check("oustpbm robot mails bob the review", r.returncode == 0 and review is not None,
              r.stderr.decode(errors="replace")[-300:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % checks())
    sys.exit(1 if failures() else 0)


if __name__ == "__main__":
    main()
