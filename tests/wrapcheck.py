"""wrapcheck: every line of the text/plain parts of the given mails is at
most 72 characters long (README: the replies' lines), unless it cannot be
broken: after its indentation it is one word (a URL, a Message-ID, one long
word), a row of a game's history ("   7  x alice  E5,F5", README: no history
line is broken) or a command set apart to be copied (four spaces, then a
mail command's keyword: "    challenge alice <password> bob -size=13 ...").
The board drawing is narrower than 72 columns at every size, so it
needs no exception here.  Prints one line per offending line; exits 1 if
there is one.

Usage: /usr/bin/python3 tests/wrapcheck.py MAIL...
"""
import email
import email.policy
import re
import sys

WIDTH = 72
# a history row: its number (or "-" for a note) right-aligned in four columns
HISTORY = re.compile(r"^ {0,3}(\d+|-)  \S")
# a command to copy: four spaces, a keyword, its arguments
COMMAND = re.compile(r"^    (move|swap|resign|challenge|accept|decline|show|chat|queue|preview) \S")


def unbreakable(line):
    return len(line.split()) <= 1 or HISTORY.match(line) or COMMAND.match(line)


def main(paths):
    bad = 0
    for path in paths:
        with open(path, "rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.default)
        for part in msg.walk():
            if part.get_content_type() != "text/plain":
                continue
            for n, line in enumerate(part.get_content().split("\n"), 1):
                if len(line) <= WIDTH or unbreakable(line):
                    continue
                bad += 1
                print("%s: line %d has %d characters: %s" % (path, n, len(line), line[:100]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
