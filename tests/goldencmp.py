#!/usr/bin/python3
"""The second half of tests/sh/golden.sh: for every case run, what came out
of it, read from the home it ran in, written to its actual out/ and compared
with the case's out/ (tests/golden/README.md).  One process for a whole part:
the dozen cp, mkdir, sed, tail, find, grep, cmp and diff processes a case
cost in the shell were about half of the runner's CPU time.

Usage: goldencmp.py LIST; LIST has one line per case run, TAB-separated:
NAME CASEDIR HOME ACT WORK LOGSIZE (ACT holding exit already, WORK
sum.before, sum.after and stderr).  Prints "ok - NAME" or "not ok - NAME"
with a diff (diff -ru, as before) for each, in LIST's order; exits 1 when
one failed.  UPDATE_GOLDEN=1 rewrites CASEDIR/out from ACT instead.
What each file holds, as golden.sh wrote it:
  store    changed or unchanged: sum.before and sum.after differ or not
  log      the log after LOGSIZE bytes, HOME's path shown as HOME and the
           queue id of an outbox line as QUEUEID
  games/   every HOME/games/*.game
  ratings, watchers, bounces   HOME's, when there
  users    HOME/users with the hashes masked and the since field left out
  mail/ADDRESS/1, 2...   HOME/mail/ADDRESS/new/*, in the order of their
           names (queue ids: the order written)"""
import os
import re
import shutil
import subprocess
import sys

QUEUEID = re.compile(rb"^([^ \n]* outbox )[^ \n]* ")
HASH = re.compile(rb"^([^#:\n][^:\n]*:[^:\n]*:)[^:\n]*:")
SINCE = re.compile(rb"\tsince=[-0-9T:]*Z$")
ERROR = re.compile(rb"^Subject: (Oust error|Oust Board [0-9]+ error)$", re.M)


def lines(data):
    """The lines of DATA with their newlines (the last one may have none), as sed reads them."""
    return data.splitlines(keepends=True) if data else []


def edit(data, fn):
    out = []
    for ln in lines(data):
        nl = b"\n" if ln.endswith(b"\n") else b""
        out.append(fn(ln[:len(ln) - len(nl)]) + nl)
    return b"".join(out)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def visible(names):
    """A glob's * (no dot-named entries), sorted bytewise as dash sorts it."""
    return sorted(n for n in names if not n.startswith(b"."))


def collect(home, act, logsize):
    log = os.path.join(home, b"log")
    if os.path.isfile(log):
        with open(log, "rb") as f:
            f.seek(logsize)
            data = f.read()
        write(os.path.join(act, b"log"),
              edit(data, lambda ln: QUEUEID.sub(rb"\1QUEUEID ", ln.replace(home, b"HOME"), count=1)))
    games = os.path.join(home, b"games")
    names = [n for n in visible(os.listdir(games)) if n.endswith(b".game")] if os.path.isdir(games) else []
    if names and os.path.isfile(os.path.join(games, names[0])):
        os.mkdir(os.path.join(act, b"games"))
        for n in names:
            shutil.copyfile(os.path.join(games, n), os.path.join(act, b"games", n))
    for n in (b"ratings", b"watchers", b"bounces"):
        if os.path.isfile(os.path.join(home, n)):
            shutil.copyfile(os.path.join(home, n), os.path.join(act, n))
    users = os.path.join(home, b"users")
    if os.path.isfile(users):
        write(os.path.join(act, b"users"),
              edit(read(users), lambda ln: SINCE.sub(b"", HASH.sub(rb"\1HASH:", ln, count=1), count=1)))
    mail = os.path.join(home, b"mail")
    if os.path.isdir(mail):
        for rcpt in visible(os.listdir(mail)):
            new = os.path.join(mail, rcpt, b"new")
            if not os.path.isdir(new):
                continue
            i = 0
            for n in visible(os.listdir(new)):
                f = os.path.join(new, n)
                if not os.path.isfile(f):
                    continue
                i += 1
                if i == 1:
                    os.makedirs(os.path.join(act, b"mail", rcpt))
                shutil.copyfile(f, os.path.join(act, b"mail", rcpt, str(i).encode()))


def files_under(top, subs):
    """Every regular file under TOP/SUB for each SUB (find -type f)."""
    found = []
    for s in subs:
        for d, _dirs, files in os.walk(os.path.join(top, s)):
            found += [os.path.join(d, f) for f in files if os.path.isfile(os.path.join(d, f))]
    return found


def tree(top):
    """{relative path: None for a folder, the bytes for a file} of everything under TOP."""
    t = {}
    for d, dirs, files in os.walk(top):
        rel = os.path.relpath(d, top)
        for n in dirs:
            t[os.path.normpath(os.path.join(rel, n))] = None
        for n in files:
            t[os.path.normpath(os.path.join(rel, n))] = read(os.path.join(d, n))
    return t


def show(text):
    sys.stdout.buffer.write(text)


def run_case(name, case, home, act, work):
    """Prints the case's line; returns whether it passed."""
    before, after = read(os.path.join(work, b"sum.before")), read(os.path.join(work, b"sum.after"))
    stored = b"unchanged" if before == after else b"changed"
    write(os.path.join(act, b"store"), stored + b"\n")
    if os.path.isdir(os.path.join(home, b"outbox")) and files_under(os.path.join(home, b"outbox"), (b"new", b"tmp")):
        show(b"not ok - %s: replies left in the outbox\n" % name)
        for f in files_under(home, (b"outbox",)):
            show(b"#   %s\n" % f)
        return False
    # an error reply means nothing changed, whatever out/ says
    if stored == b"changed":
        mail = os.path.join(act, b"mail")
        for rcpt in (os.listdir(mail) if os.path.isdir(mail) else []):
            if any(ERROR.search(read(os.path.join(mail, rcpt, f))) for f in os.listdir(os.path.join(mail, rcpt))):
                show(b"not ok - %s: an error reply, but the store changed\n" % name)
                sys.stdout.flush()
                subprocess.run(["diff", os.path.join(work, b"sum.before"), os.path.join(work, b"sum.after")])
                return False
    out = os.path.join(case, b"out")
    if os.environ.get("UPDATE_GOLDEN"):
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(act, out)
        show(b"ok - %s (updated)\n" % name)
        return True
    if os.path.isdir(out) and tree(out) == tree(act):
        show(b"ok - %s\n" % name)
        return True
    show(b"not ok - %s\n" % name)
    diff = subprocess.run(["diff", "-ru", out, act], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
    for ln in lines(diff)[:80]:
        show(b"#   " + ln.rstrip(b"\n") + b"\n")
    err = os.path.join(work, b"stderr")
    if os.path.isfile(err) and os.path.getsize(err) > 0:
        show(b"#   stderr:\n")
        for ln in lines(read(err)):
            show(b"#   " + ln.rstrip(b"\n") + b"\n")
    return False


def main():
    failed = 0
    for ln in lines(read(sys.argv[1])):
        name, case, home, act, work, logsize = ln.rstrip(b"\n").split(b"\t")
        try:
            collect(home, act, int(logsize))
            ok = run_case(name, case, home, act, work)
        except OSError as e:
            show(b"not ok - %s: %s\n" % (name, str(e).encode()))
            ok = False
        sys.stdout.flush()
        failed += 0 if ok else 1
    sys.exit(1 if failed else 0)


main()
