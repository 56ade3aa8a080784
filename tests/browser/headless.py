"""What the browser tests share: headless Chromium rendering pages, and the
TAP lines ("ok N - ...") of their checks.

One Chromium serves every page of a script: it is started on the first
page and driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: JSON messages ending in a NUL byte, on its fds 3
and 4), one tab whose viewport is set to each page's window size before it
loads.  Starting Chromium was most of the CPU time of a page when each page
had a Chromium of its own (make check's browser tests)."""
import atexit
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]
# how long one page may take to load (Chromium's own start included)
PAGE_TIMEOUT = 120

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


class Session:
    """A headless Chromium and one tab of it, spoken to over the DevTools pipe."""

    def __init__(self, tmp):
        self.profile = tempfile.mkdtemp(dir=tmp, prefix="profile.")
        # the pipe on the fds Chromium reads (3) and writes (4): our stdin and stdout to it, moved there
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec "$@" 3<&0 4>&1 </dev/null >/dev/null', "sh", "chromium"] + CHROMIUM_FLAGS +
            ["--user-data-dir=" + self.profile, "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def send(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        self.proc.stdin.write(json.dumps(msg).encode() + b"\0")
        self.proc.stdin.flush()
        return self.next_id

    def read(self, deadline):
        """The next message from Chromium."""
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in %d s" % PAGE_TIMEOUT)
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if r:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    raise EOFError("Chromium closed its DevTools pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False, deadline=None):
        """method's result; the events read meanwhile are kept in events."""
        want = self.send(method, params, session)
        deadline = deadline or time.monotonic() + PAGE_TIMEOUT
        while True:
            msg = self.read(deadline)
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_event(self, method, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == method and e.get("sessionId") == self.session:
                    del self.events[:i + 1]
                    return e
            self.events = []
            msg = self.read(deadline)
            if "method" in msg:
                self.events.append(msg)

    def render(self, width, height, url, dom=False, png=None):
        """Loads url in a viewport width x height CSS pixels (as --window-size); returns the DOM
        after the load event (as --dump-dom) when dom, writes a screenshot of the viewport to png
        (as --screenshot) when png is given."""
        deadline = time.monotonic() + PAGE_TIMEOUT
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True, deadline=deadline)
        self.events = []
        self.call("Page.navigate", {"url": url}, session=True, deadline=deadline)
        self.wait_event("Page.loadEventFired", deadline)
        out = ""
        if dom:
            r = self.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                               "returnByValue": True}, session=True, deadline=deadline)
            out = r.get("result", {}).get("value", "")
        if png:
            r = self.call("Page.captureScreenshot", {"format": "png"}, session=True, deadline=deadline)
            with open(png, "wb") as f:
                f.write(base64.b64decode(r["data"]))
        return out

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


_session = {}


def chromium(tmp, args, url):
    """What Chromium's command line with args (--window-size=W,H, --dump-dom, --screenshot=PNG) gives
    for url: the DOM for --dump-dom, the screenshot written for --screenshot; rendered in the
    script's one Chromium (its profile under the first tmp)."""
    width, height, dom, png = 800, 600, False, None
    for a in args:
        if a.startswith("--window-size="):
            width, height = (int(v) for v in a.split("=", 1)[1].split(","))
        elif a == "--dump-dom":
            dom = True
        elif a.startswith("--screenshot="):
            png = a.split("=", 1)[1]
        else:
            raise ValueError("headless.chromium: unknown argument " + a)
    s = _session.get("s")
    if s is None or s.proc.poll() is not None:
        s = _session["s"] = Session(tmp)
        atexit.register(s.close)
    try:
        return s.render(width, height, url, dom, png)
    except (TimeoutError, EOFError, RuntimeError, OSError) as e:
        # one page's failure shows as that page's check failing; the next page gets a new Chromium
        print("# chromium: %s: %s" % (url, e))
        s.proc.kill()
        s.proc.wait()
        _session.pop("s", None)
        return ""
