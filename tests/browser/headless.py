"""What the browser tests share: headless Chromium run once on a page, and
the TAP lines ("ok N - ...") of their checks."""
import shutil
import subprocess
import sys
import tempfile

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]

_count = {"n": 0, "failed": 0}


def check(desc, ok, why=""):
    """One TAP line for ok; returns ok."""
    _count["n"] += 1
    if ok:
        print("ok %d - %s" % (_count["n"], desc))
    else:
        _count["failed"] += 1
        print("not ok %d - %s%s" % (_count["n"], desc, (": " + why) if why else ""))
    sys.stdout.flush()
    return ok


def checks():
    """How many checks ran."""
    return _count["n"]


def failures():
    """How many of them failed."""
    return _count["failed"]


def chromium(tmp, args, url):
    """Chromium's standard output for url, with args (--dump-dom, --screenshot=...), in a profile of its own under tmp."""
    profile = tempfile.mkdtemp(dir=tmp, prefix="profile.")
    r = subprocess.run(["chromium"] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile] + args + [url],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    return r.stdout.decode("utf-8", "replace")
