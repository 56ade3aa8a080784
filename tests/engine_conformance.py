#!/usr/bin/python3
"""Replay the conformance games through `oustpbm engine` (GTP).

Usage: engine_conformance.py OUSTPBM TRACE.gz [GAMES]

TRACE.gz is a conformance trace (tests/data/public.trace.gz, square boards,
or tests/data/public-hex.trace.gz, hex-hex boards; the format is in
../shared/conformance/README.md).  Every game is replayed with boardsize (or
oustpbm-board hex S) and play in one engine process; before every placement
the engine's side to move and gogui-rules_legal_moves must equal the trace's
L line (square cells x.y become vertices: column x from the left, letters
skipping I; row y from the bottom; hex cells are already in hex-hex
notation), and at the END line gogui-rules_final_result must give its result.
An "L <side> -" line (the turn ended after a capture that left no placement)
and a PASS line need the engine to have moved on to the other side.

Then a few whole games are played with genmove, answer by answer: every
vertex answered must have been legal, and each game must end.

Prints one "ok - ..." or "not ok - ..." line per game (tests/run-tests
counts them); exits 1 if any failed.  Standard library only.
"""

import gzip
import os
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SIDE = {"b": "black", "w": "white"}
RESULT = {"b": "B+", "w": "W+", "draw": "0"}


def vertex(cell):
    if "." not in cell:
        return cell  # a hex cell, "g13"
    x, y = cell.split(".")
    return "%s%d" % (COLUMNS[int(x) - 1], int(y))


def read_games(path):
    """The trace as a list of games, each a dict with its size and lines."""
    games = []
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "game":
                attrs = dict(w.split("=", 1) for w in words[1:])
                if attrs.get("shape") == "hex":
                    board = "oustpbm-board hex %d" % int(attrs["side"])
                else:
                    board = "boardsize %d" % int(attrs["size"])
                games.append({"title": line.strip(), "board": board, "lines": []})
            else:
                games[-1]["lines"].append(words)
    return games


class Script:
    """Commands for one engine run, each with what its answer must be."""

    def __init__(self):
        self.commands = []  # (id, command, game index, check)

    def add(self, game, command, check):
        ident = len(self.commands) + 1
        self.commands.append((ident, command, game, check))

    def text(self):
        return "".join("%d %s\n" % (i, c) for i, c, _, _ in self.commands)


def expect(want):
    return lambda got: got == want


def build(games):
    s = Script()
    for k, g in enumerate(games):
        s.add(k, g["board"], expect("="))
        for words in g["lines"]:
            kind = words[0]
            if kind == "L" and words[2] == "-":
                # The turn is over: the engine has moved on (or the game ended).
                other = SIDE["w" if words[1] == "b" else "b"]
                s.add(k, "gogui-rules_side_to_move", expect("= " + other))
            elif kind == "L":
                s.add(k, "gogui-rules_side_to_move", expect("= " + SIDE[words[1]]))
                want = " ".join(vertex(c) for c in words[2].split(","))
                s.add(k, "gogui-rules_legal_moves", expect("= " + want))
                s.add(k, "gogui-rules_final_result", expect("= unknown"))
            elif kind == "P":
                s.add(k, "play %s %s" % (words[1], vertex(words[2])), expect("="))
            elif kind == "PASS":
                other = SIDE["w" if words[1] == "b" else "b"]
                s.add(k, "gogui-rules_side_to_move", expect("= " + other))
            elif kind == "END":
                s.add(k, "gogui-rules_final_result", expect("= " + RESULT[words[1]]))
                s.add(k, "gogui-rules_legal_moves", expect("="))
            else:
                raise ValueError("unknown trace line: %r" % " ".join(words))
    return s


def answers(text):
    """Split GTP output into {id: "= text" or "? text"}."""
    out = {}
    for block in text.split("\n\n"):
        if not block:
            continue
        head, _, rest = block.partition(" ")
        status, ident = head[0], head[1:]
        body = (status + " " + rest).rstrip(" ") if rest else status
        out[int(ident)] = body
    return out


def replay(engine, trace, limit):
    games = read_games(trace)
    if limit is not None:
        games = games[:limit]
    script = build(games)
    proc = subprocess.run([engine, "engine"], input=script.text(), capture_output=True,
                          text=True, timeout=120)
    got = answers(proc.stdout)
    failures = {}
    for ident, command, game, check in script.commands:
        answer = got.get(ident)
        if answer is None or not check(answer):
            failures.setdefault(game, (command, answer))
    failed = 0
    if proc.returncode != 0:
        print("not ok - engine exited %d: %s" % (proc.returncode, proc.stderr.strip()))
        failed += 1
    for k, g in enumerate(games):
        nl = sum(1 for w in g["lines"] if w[0] == "L")
        end = [w[1] for w in g["lines"] if w[0] == "END"]
        what = "%s: %d legal sets, result %s" % (g["title"], nl, end[0] if end else "?")
        if k in failures:
            command, answer = failures[k]
            print("not ok - %s" % what)
            print("#   first mismatch: %s -> %r" % (command, answer))
            failed += 1
        else:
            print("ok - %s" % what)
    return failed


class Engine:
    """One engine process, spoken to one command at a time."""

    def __init__(self, engine, env, options=()):
        self.p = subprocess.Popen([engine, "engine"] + list(options), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)

    def send(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise EOFError("engine closed its output after %r" % command)
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("? "):
            raise RuntimeError("%s -> %s" % (command, text))
        return text[2:] if text.startswith("= ") else text[1:]

    def close(self):
        self.send("quit")
        self.p.stdin.close()
        return self.p.wait(timeout=10)


def genmove_games(engine, hex_boards):
    env = dict(os.environ, OUSTPBM_ENGINE_SEED="conformance")
    # The computer player at level 2 with a small fixed budget: whole games in seconds.
    e = Engine(engine, env, ["--level", "2", "--playouts", "300"])
    failed = 0
    boards = [("hex side %d" % s, "oustpbm-board hex %d" % s, 3 * s * (s - 1) + 1) for s in (3, 7, 10)] \
        if hex_boards else [("%dx%d" % (s, s), "boardsize %d" % s, s * s) for s in (5, 7, 9, 11)]
    for name, board, cells in boards:
        placements, problem = 0, None
        try:
            e.send(board)
            while e.send("gogui-rules_final_result") == "unknown":
                side = e.send("gogui-rules_side_to_move")
                legal = e.send("gogui-rules_legal_moves").split()
                v = e.send("genmove %s" % side)
                placements += 1
                if v not in legal:
                    problem = "genmove %s answered %s, not legal" % (side, v)
                    break
                if placements > 20 * cells:
                    problem = "no end after %d placements" % placements
                    break
            result = e.send("gogui-rules_final_result")
        except (RuntimeError, EOFError) as err:
            problem = str(err)
        if problem:
            print("not ok - genmove game on %s: %s" % (name, problem))
            failed += 1
        else:
            print("ok - genmove game on %s: %d placements, result %s"
                  % (name, placements, result))
    rc = e.close()
    if rc != 0:
        print("not ok - genmove engine exited %d" % rc)
        failed += 1
    return failed


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: engine_conformance.py OUSTPBM TRACE.gz [GAMES]\n")
        return 2
    limit = int(argv[3]) if len(argv) > 3 else None
    failed = replay(argv[1], argv[2], limit)
    failed += genmove_games(argv[1], "hex" in os.path.basename(argv[2]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
