#!/usr/bin/python3
"""One conversation per game (issue 40): a whole 7x7 game between two
people played by taps (the reply a mail client makes from a board mail's
mailto: link, with and without In-Reply-To: a tapped link opens a new
mail, not a reply), then every mail each player received about the board
threaded as Gmail does (one normalised Subject, Re:/Fwd: stripped, and
Message-ID, In-Reply-To and References linking them) and as Thunderbird
does (References and In-Reply-To alone, missing parents kept as empty
containers, RFC 5256's REFERENCES): one conversation per player each way.
Also checked: the Subject never changes, every mail refers to the game's
first mail, and a tapped reply without In-Reply-To still carries the turn
(an old tap is refused, never played on the new position).

Usage: threadgame.py OUSTPBM TEMPLATES.  Prints TAP-like "ok N - ..." lines."""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless import check, checks, failures  # noqa: E402
from tapgame import Home, capture_links, field, links_parsed, mailto, parts  # noqa: E402

IDS = re.compile(r"<[^<>\s]+>")


def norm_subject(s):
    """Gmail's normalised Subject: reply and forward prefixes, repeated, stripped."""
    s = re.sub(r"\s+", " ", s or "").strip()
    while True:
        t = re.sub(r"^(re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*", "", s, flags=re.I)
        if t == s:
            return s
        s = t


def ids_of(m):
    own = IDS.findall(m["Message-Id"] or "")
    refs = IDS.findall(str(m["References"] or "")) + IDS.findall(str(m["In-Reply-To"] or ""))
    return own, refs


def components(nodes, edges):
    parent = {n: n for n in nodes}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in edges:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        parent[find(a)] = find(b)
    return parent, find


def thunderbird_threads(mails):
    """Threads by References/In-Reply-To (a missing parent is an empty container joining its children)."""
    edges = []
    for m in mails:
        own, refs = ids_of(m)
        for r in refs:
            edges.append((own[0], r))
    parent, find = components([ids_of(m)[0][0] for m in mails], edges)
    return len({find(ids_of(m)[0][0]) for m in mails})


def gmail_threads(mails):
    """Threads by normalised Subject, and within one Subject by shared ids."""
    by_subject = {}
    for m in mails:
        by_subject.setdefault(norm_subject(m["Subject"]), []).append(m)
    n = 0
    for group in by_subject.values():
        edges = []
        for m in group:
            own, refs = ids_of(m)
            for r in refs:
                edges.append((own[0], r))
        parent, find = components([ids_of(m)[0][0] for m in group], edges)
        n += len({find(ids_of(m)[0][0]) for m in group})
    return n


def tap_mail(sender, msg, href, as_reply, k):
    """The mail a client sends from a tapped link: a new mail (mailto:), or a reply to msg."""
    to, subject, body = mailto(href)
    head = "From: %s\nTo: %s\nSubject: %s\nMessage-ID: <threadtap.%d@example.org>\n" % (sender, to, subject, k)
    if as_reply:
        head += "In-Reply-To: %s\nReferences: %s\n" % (msg["Message-Id"], msg["Message-Id"])
    return head + "Content-Type: text/plain; charset=utf-8\n\n%s\n\n-- \nSent from my phone\n" % body


def main():
    binary, templates = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="oustpbm-threadgame.")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        with open(os.path.join(home, "oustpbm.conf"), "w") as f:
            f.write("from_address = oust@example.net\ntemplates = %s\npassword_cost = 1\n" % templates)
        h = Home(binary, home)
        addr = {"alice": "alice@example.org", "bob": "bob@example.com"}
        h.send(addr["alice"], "register alice pa Alice")
        h.send(addr["bob"], "register bob pb Bob")
        h.new_mails()
        h.send(addr["alice"], "challenge alice pa bob -size=7 -noswap")
        got = {a: [] for a in addr.values()}
        newest = {}
        rng = random.Random(7)
        steps = 0
        problems = []
        stale = None
        while field(h.game(101), "status") == "playing" and steps < 300:
            for a, m in h.new_mails():
                got.setdefault(a, []).append(m)
                newest[a] = m
            g = h.game(101)
            mover = field(g, "black" if field(g, "to-move") == "black" else "white")
            msg = newest[addr[mover]]
            page = parts(msg)[1]
            cells = [x for x in links_parsed(page) if mailto(x)[2].split("\n")[-1] not in ("resign yes", "swap")]
            if not cells:
                problems.append("step %d: no links for %s in %s" % (steps, mover, msg["Subject"]))
                break
            caps = capture_links(page)
            href = rng.choice(caps) if caps and rng.random() < 0.8 else rng.choice(cells)
            if stale is None and steps == 6:
                stale = (addr[mover], msg, href)
            rc, last = h.feed(tap_mail(addr[mover], msg, href, steps % 2 == 0, steps))
            steps += 1
            if rc != 0 or " ok: " not in last:
                problems.append("step %d: %s" % (steps, last))
                break
        for a, m in h.new_mails():
            got.setdefault(a, []).append(m)
        check("a whole 7x7 game between two people by %d taps, half of them new mails without In-Reply-To"
              % steps, not problems and field(h.game(101), "status") != "playing", "; ".join(problems))
        root = field(h.game(101), "thread")
        for u, a in addr.items():
            mails = [m for m in got[a] if "Board 101" in (m["Subject"] or "")]
            subjects = {m["Subject"] for m in mails}
            check("%s: %d mails of board 101, all under one Subject" % (u, len(mails)),
                  len(mails) > 5 and len(subjects) == 1, "; ".join(sorted(subjects)[:4]))
            check("%s: every mail refers to the game's first mail %s" % (u, root),
                  root is not None and all(root in str(m["References"] or "") or root == m["Message-Id"]
                                           for m in mails))
            check("%s: threaded as Gmail does: one conversation" % u, gmail_threads(mails) == 1,
                  "%d" % gmail_threads(mails))
            check("%s: threaded as Thunderbird does: one conversation" % u, thunderbird_threads(mails) == 1,
                  "%d" % thunderbird_threads(mails))
        # an old tap (a new mail, no In-Reply-To: the turn is in its body) on a position since changed
        if stale is not None:
            sender, msg, href = stale
            rc, last = h.feed(tap_mail(sender, msg, href, False, 999))
            check("an old tap without In-Reply-To is refused by its turn, not played on the new position",
                  rc == 0 and " refused: " in last, last)
        else:
            check("an old tap was kept", False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % checks())
    sys.exit(1 if failures() else 0)


if __name__ == "__main__":
    main()
