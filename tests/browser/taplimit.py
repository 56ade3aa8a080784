#!/usr/bin/python3
"""The limits against a game played by taps (issue 40): a whole 9x9 game
against the robot, from a fresh registration, by taps alone (the reply a
mail client makes from a board mail's mailto: link, as tapgame.py sends
them), every five seconds, under the default max_mails_per_hour (30):
never refused nor dropped, and a plain command after it within the same
hour is answered (the taps did not count).  Then a runaway client that
sends one tap's reply 500 times, each with a new Message-ID: it is
stopped (the old-turn guard refuses, then max_board_replies_per_hour
drops), the server's replies bounded by the per-board cap, and its one
notice says when the limit lifts (one time, "UTC" once).

Usage: taplimit.py OUSTPBM TEMPLATES.  Prints TAP-like "ok N - ..." lines."""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless import check, checks, failures  # noqa: E402
from tapgame import Home, capture_links, field, links_parsed, mailto, parts, reply_to  # noqa: E402

CAP = 150  # the default max_board_replies_per_hour (src/base/config.c)


def newest_board_mail(h, addr, newest):
    for a, m in h.new_mails():
        if "Oust Board" in (m["Subject"] or ""):
            newest[a] = m
    return newest.get(addr)


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    os.environ["OUSTPBM_TEST_ROBOT"] = "first"  # the robot's test player: fast, and the same on every run
    tmp = tempfile.mkdtemp(prefix="oustpbm-taplimit.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        # the default limits: max_mails_per_hour 30, max_board_replies_per_hour 150
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\npassword_cost = 1\n" % templates)
        h = Home(binary, home)
        h.step = 5
        start = h.t
        me = "alice@example.org"
        h.send(me, "register alice pa Alice")
        h.send(me, "challenge alice pa robot -size=9")
        rng = random.Random(40)
        newest = {}
        steps = 0
        refused = []
        while field(h.game(101), "status") == "playing" and steps < 400:
            msg = newest_board_mail(h, me, newest)
            page = parts(msg)[1] if msg is not None else ""
            cells = [x for x in links_parsed(page)
                     if mailto(x)[2].split("\n")[-1] not in ("resign yes", "swap")]
            if not cells:
                refused.append("step %d: no links in %s" % (steps, msg["Subject"] if msg else "no mail"))
                break
            caps = capture_links(page)
            href = rng.choice(caps) if caps and rng.random() < 0.7 else rng.choice(cells)
            rc, last = h.feed(reply_to(me, msg, href))
            steps += 1
            if rc != 0 or " ok: " not in last:
                refused.append("step %d (%s): %s" % (steps, mailto(href)[2], last))
                break
        check("a whole 9x9 game against the robot by %d taps from a fresh registration, none refused or dropped"
              % steps, not refused and field(h.game(101), "status") != "playing", "; ".join(refused))
        check("... more taps (%d) than max_mails_per_hour (30), all within the hour (%d s)" % (steps, h.t - start),
              steps > 30 and h.t - start < 3600)
        rc, last = h.feed("From: %s\nTo: oust@example.net\nSubject: whoami alice pa\nMessage-ID: <after@example.org>\n\n"
                          % me)
        check("... a command after it within the hour is answered: replies by token were not counted",
              rc == 0 and " ok: " in last, last)
        h.new_mails()

        # the runaway client: one tap's reply sent 500 times, a new Message-ID each time
        h.send(me, "challenge alice pa robot -size=9")
        msg = newest_board_mail(h, me, newest)
        href = links_parsed(parts(msg)[1])[0]
        mail = reply_to(me, msg, href)
        outcomes = {}
        for i in range(500):
            rc, last = h.feed("Message-ID: <runaway.%d@example.org>\n%s" % (i, mail))
            m = re.search(r"\) (\w+): |\" (\w+): ", last)
            word = (m.group(1) or m.group(2)) if m else last
            outcomes[word] = outcomes.get(word, 0) + 1
            if rc != 0:
                break
        replies = [m for a, m in h.new_mails() if a == me]
        check("the runaway's 500 mails: one played, the next refused (old turn), the rest dropped: %s" % outcomes,
              outcomes.get("ok") == 1 and outcomes.get("refused", 0) >= 1 and outcomes.get("dropped", 0) >= 500 - CAP - 1)
        check("... the server's replies to it are bounded by max_board_replies_per_hour (%d replies)" % len(replies),
              0 < len(replies) <= CAP + 2)
        texts = [re.sub(r"\s+", " ", parts(m)[0]) for m in replies]
        notice = [t for t in texts if "most this server answers for one board" in t]
        text = notice[0] if notice else ""
        check("... one notice, saying when the limit lifts, UTC written once",
              len(notice) == 1 and re.search(r"until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. ", text) is not None
              and "UTC UTC" not in text, text[:400] or "%d replies, none a notice" % len(replies))
        # the limit is per board: a tap on the first game's board later is still a mail of its own
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % checks())
    sys.exit(1 if failures() else 0)


if __name__ == "__main__":
    main()
