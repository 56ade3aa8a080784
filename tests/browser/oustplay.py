"""Plays Oust games through oustpbm's own mail path, for the browser tests
and the benchmarks: the turns come from `oustpbm engine` (random legal
placements, seeded by OUSTPBM_ENGINE_SEED), each sent as one mail."""
import os
import re
import subprocess


class Engine:
    def __init__(self, binary, size, seed, hexboard=False):
        env = dict(os.environ, OUSTPBM_ENGINE_SEED=str(seed))
        self.p = subprocess.Popen([binary, "engine", "--player", "random"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        if hexboard:
            self.cmd("oustpbm-board hex %d" % size)
        else:
            self.cmd("boardsize %d" % size)
        self.cmd("clear_board")

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            ln = self.p.stdout.readline()
            if ln == "":
                raise RuntimeError("engine died on " + line)
            if ln.strip() == "" and out:
                break
            if ln.strip() != "":
                out.append(ln.rstrip("\n"))
        if not out[0].startswith("="):
            raise RuntimeError("engine: %s: %s" % (line, out))
        return "\n".join([out[0][1:].strip()] + out[1:]).strip()

    def to_move(self):
        return self.cmd("gogui-rules_side_to_move")

    def over(self):
        return self.cmd("gogui-rules_final_result") not in ("", "?", "unknown")

    def turn(self):
        """One whole turn of the side to move: its placements."""
        side = self.to_move()
        pts = []
        while True:
            pts.append(self.cmd("genmove " + side))
            if self.over() or self.to_move() != side:
                return pts

    def close(self):
        self.p.stdin.close()
        self.p.wait()


REG_CODE = "R3G4STERED"  # the one-time code of the tests' registrations (tests/sh/lib.sh's REG_CODE)


class Home:
    def __init__(self, binary, home, t0=1700000000):
        self.bin = binary
        self.home = home
        self.t = t0
        self.k = 0

    def mail(self, sender, subject, body=""):
        """One mail, which must be accepted.  A register is confirmed at once
        from the same address with the fixed code (OUSTPBM_TEST_CODE), as
        tests/sh/lib.sh's deliver does: an account, as the games need."""
        self.t += 60
        register = subject.lower().startswith("register ")
        last = self.send(sender, subject, body, {"OUSTPBM_TEST_CODE": REG_CODE} if register else {})
        if register:
            m = re.search(r" ok: registration of (\S+) pending, ", last)
            if m:
                # the register's password with the code (confirm.c)
                self.send(sender, "confirm %s %s %s" % (m.group(1), REG_CODE, subject.split()[2]))

    def send(self, sender, subject, body="", extra_env=None):
        """One mail at the current time; its log line, which must say ok."""
        self.k += 1
        msg = "From: %s\nSubject: %s\nMessage-ID: <play.%d.%d@example.org>\n\n%s\n" % (
            sender, subject, self.k, self.t, body)
        env = dict(os.environ, OUSTPBM_TEST_TIME=str(self.t), **(extra_env or {}))
        r = subprocess.run([self.bin, "-d", self.home], input=msg.encode(), env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise RuntimeError("mail %r: exit %d %s" % (subject, r.returncode, r.stderr))
        with open(os.path.join(self.home, "log"), "rb") as f:
            f.seek(max(0, os.path.getsize(f.name) - 4096))
            last = f.read().decode("utf-8", "replace").rstrip("\n").split("\n")[-1]
        if " ok: " not in last:
            raise RuntimeError("mail %r was not accepted: %s" % (subject, last))
        return last


def play(home, board, size, turns, players, seed, stop_before_end=True, hexboard=False):
    """Play up to `turns` turns on board (already challenged, Black =
    players[0]; a hex-hex board of side `size` with hexboard); players maps
    colour to (userid, address, password)."""
    eng = Engine(home.bin, size, seed, hexboard)
    n = 0
    try:
        while n < turns and not eng.over():
            side = eng.to_move()
            pts = eng.turn()
            if stop_before_end and eng.over():
                break
            uid, addr, pw = players[0] if side.startswith("b") else players[1]
            home.mail(addr, "move %d %s %s %s" % (board, uid, pw, ",".join(pts)))
            n += 1
    finally:
        eng.close()
    return n
