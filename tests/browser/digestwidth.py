#!/usr/bin/python3
"""A digest mail (services/digest.h) as a phone shows it: headless
Chromium renders its text/html part at 400 and 800 CSS pixels, and
mailwidth.py's probe measures the layout with its checks (no word or
command broken, nothing wider than its box that does not scroll, every
command of the text part kept whole on one line in the HTML, the boards'
stones round); then each board's section is there with its tap links.

Usage: digestwidth.py MAIL [SAVE_DIR]; SAVE_DIR gets the screenshots.
Prints TAP-like "ok N - ..." lines."""
import os
import re
import sys
import tempfile
import shutil

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from headless import check, failures  # noqa: E402

# mailwidth.py's functions without its main() (it runs its own mails when run)
src_path = os.path.join(here, "mailwidth.py")
with open(src_path, encoding="utf-8") as f:
    src = f.read()
ns = {"__file__": src_path, "__name__": "mailwidth"}
exec(compile(src[:src.rindex("\nmain()")], src_path, "exec"), ns)


def main():
    mail = sys.argv[1]
    save = sys.argv[2] if len(sys.argv) > 2 else None
    tmp = tempfile.mkdtemp(prefix="oustpbm-digestwidth.")
    try:
        ns["check_mail"](tmp, "digest-3-boards", mail, save)
        _plain, html, _msg = ns["html_part"](mail)
        sections = re.findall(r"<h2[^>]*>(Oust Board \d+ [^<]*)</h2>", html or "")
        check("the HTML has a section per board, titled with its token Subject (%d)" % len(sections),
              len(sections) == 3 and all(re.search(r"\[[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{5}\]$", s) for s in sections),
              "; ".join(sections))
        for s in sections:
            board = s.split()[2]
            links = re.findall(r'href="mailto:[^"]*subject=Oust%20Board%20' + board + r'%20', html)
            check("board %s: its tap links reply with its own Subject (%d)" % (board, len(links)), len(links) > 5)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures() else 0)


main()
