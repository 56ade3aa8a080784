#!/usr/bin/python3
"""Strength matches through GTP: `oustpbm engine` against itself and the test players.

For each board size and each level, the level plays the uniformly random player,
the greedy one-ply player and the level below, alternating colours, and the table
gives each level's win rate with a 95% interval (Wilson score).  A third engine
referees: every placement is played on it too, and a refused one is reported and
loses the game for the side that made it.  Every genmove is timed; one that takes
longer than the think time plus 10% plus 50 ms is counted as over time.

usage: strength.py OUSTPBM [--sizes 9,11,h7] [--levels 1-5] [--games N] [--seconds S]
                   [--playouts N | --fixed 1:200,2:1000,...] [--jobs N] [--chunk N]
                   [--first-seed N] [--progress] [--smoke]
                   [--opponents random,greedy,below,old,slower --against OTHER_OUSTPBM]
                   [--scaling F] [--rates 9:R9,11:R11] [--stats] [--calibrate]
Opponent "old" is the same level, budget and think time on the build OTHER_OUSTPBM
(an older one, to compare two builds interleaved in one run).
A size hN is the hex-hex board of side N.
Opponent "slower" is the same level with 1/F of the budget (--scaling F, default 4):
whether the level grows stronger with time.  On a shared machine a think time buys
a varying number of playouts: --rates gives level 5's playouts a second on one
thread for each board size (measured with --calibrate, which plays level 5 against
itself at --playouts a placement and prints the median over --games games of the
playouts per CPU second its searches took), and each side then searches the fixed
budget that its think time buys at that rate (95% of it, level 5's share), on one
thread.  --stats (with --progress) prints how full the first player's node pool
was in each game.
--fixed gives each level its own fixed playout budget per placement and no time
limit: on a loaded machine the think time buys a varying number of playouts, a
fixed budget gives the same games whatever the load (the "fixed-playout versions"
of the levels; level 5 then searches on one thread, so a seed gives the same game).
--chunk N plays a match as several engine pairs of at most N games each, each
pair with its own seeds, so that --jobs runs one long match on several cores
(by default a match is one pair; the first chunk has its seeds, each further
chunk its own, so a chunked match is the same games on every run).
--first-seed N adds N to every seed: new games to extend a match played before.
Chunk c adds 1,000,000 c to its seeds, so give N a multiple of 1,000,000 past the
chunks of the match it extends (--first-seed 10000000 after 10 chunks).
--smoke plays the given games and prints "ok"/"not ok" lines for tests/run-tests:
every placement legal, every game finished, every genmove within the time limit
(with --margin seconds more, for a loaded machine).
"""
import argparse
import itertools
import math
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor


class Engine:
    def __init__(self, program, options):
        self.p = subprocess.Popen([program, "engine"] + options, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def send(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise EOFError("engine closed its output after %r" % command)
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line != "" or lines:
                lines.append(line)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError("%s: %s" % (command, text[2:]))
        return text[2:] if len(text) > 1 else ""

    def close(self):
        try:
            self.send("quit")
        except (EOFError, RuntimeError, BrokenPipeError):
            pass
        self.p.stdin.close()
        return self.p.wait(timeout=30)


def player_options(name, args, seed, size="9", scale=1.0):
    """The engine's options for player name on board size; scale multiplies its
    budget (fixed playouts, or think time) for opponent "slower"."""
    if name.startswith("old"):
        if args.fixed and name in args.fixed:
            args = argparse.Namespace(**vars(args))
            args.fixed = dict(args.fixed)
            args.fixed[int(name[3:])] = args.fixed[name]
        name = name[3:]
    if name in ("random", "greedy"):
        return ["--player", name, "--seed", str(seed)]
    if args.rates:
        return ["--level", name, "--seconds", "86400", "--seed", str(seed),
                "--playouts", str(rate_budget(args, size, scale))]
    if args.fixed:
        return ["--level", name, "--seconds", "86400", "--seed", str(seed),
                "--playouts", str(int(round(args.fixed[int(name)] * scale)))]
    opts = ["--level", name, "--seconds", "%g" % (args.seconds * scale), "--seed", str(seed)]
    if args.playouts:
        opts += ["--playouts", str(int(round(args.playouts * scale)))]
    return opts


# Level 5 searches this share of its think time (ai.c, levels[]).
LEVEL5_TIME_SHARE = 0.95


def rate_budget(args, size, scale=1.0):
    """--rates: the fixed budget that scale * --seconds of level 5's think time buys at
    the board's measured rate (playouts a second on one thread)."""
    return int(round(args.rates[size] * args.seconds * scale * LEVEL5_TIME_SHARE))


def size_rates(text):
    """'9:60000,11:40000' -> {'9': 60000, '11': 40000}: playouts a second by board size."""
    out = {}
    for item in text.split(","):
        size, n = item.split(":")
        out[size] = float(n)
    return out


def board_name(size):
    """'9x9' for a square size, 'hex7' for a hex side ('h7')."""
    return "hex%s" % size[1:] if size.startswith("h") else "%sx%s" % (size, size)


def board_command(size):
    if size.startswith("h"):
        return "oustpbm-board hex %d" % int(size[1:])
    return "boardsize %d" % int(size)


def fixed_budgets(text):
    """'1:200,2:1000,old2:1500' -> {1: 200, 2: 1000, 'old2': 1500} (oldN: level N of --against)."""
    out = {}
    for item in text.split(","):
        level, n = item.split(":")
        out[level if level.startswith("old") else int(level)] = int(n)
    return out


def play_match(args, size, a, b, games, seed, first, tally):
    """Games first.. first+games-1 of a against b on board size (see board_name), a as
    Black in the even ones; returns (wins of a, draws, problems, times).  tally is
    the match's running count, shared by its chunks, for --progress."""
    # opponent "slower": the same level with 1 / --scaling of a's budget
    scale = args.scaling if b == "slower" else 1.0
    ea = Engine(args.program, player_options(a, args, seed, size, scale))
    eb = Engine(args.against if b.startswith("old") else args.program,
                player_options(a if b == "slower" else b, args, seed + 1, size))
    ref = Engine(args.program, ["--player", "random"])
    wins = draws = 0
    problems = []
    times = []
    # each side's think time plus 10% plus 50 ms (a's is scaled for opponent "slower")
    limits = {ea: args.seconds * scale * 1.1 + 0.05 + args.margin,
              eb: args.seconds * 1.1 + 0.05 + args.margin}
    for g in range(games):
        # a is Black in the even games
        black, white = (ea, eb) if (first + g) % 2 == 0 else (eb, ea)
        for e in (ea, eb, ref):
            e.send(board_command(size))
            e.send("clear_board")
        placements = 0
        fill = {"moves": 0, "half": 0, "full": 0, "most": 0.0, "playouts": 0}
        result = "unknown"
        loser = None
        while True:
            result = ref.send("gogui-rules_final_result")
            if result != "unknown":
                break
            side = ref.send("gogui-rules_side_to_move")
            mover, other = (black, white) if side == "black" else (white, black)
            t0 = time.monotonic()
            v = mover.send("genmove %s" % side)
            dt = time.monotonic() - t0
            if args.stats and mover is ea and a not in ("random", "greedy"):
                search_fill(ea, fill)
            if mover not in (ea, eb) or (a in ("random", "greedy") and mover is ea) or \
               (b in ("random", "greedy") and mover is eb):
                pass
            else:
                times.append(dt)
                if dt > limits[mover] and not args.fixed and not args.rates:
                    problems.append("%s game %d: genmove %s took %.3f s (limit %.3f)"
                                    % (board_name(size), first + g, side, dt, limits[mover]))
            try:
                ref.send("play %s %s" % (side, v))
                other.send("play %s %s" % (side, v))
            except RuntimeError as err:
                problems.append("%s game %d: %s placed %s: %s"
                                    % (board_name(size), first + g, side, v, err))
                loser = side
                break
            placements += 1
            if placements > 20 * RULES_MAX_POINTS:
                problems.append("%s game %d: no end after %d placements"
                                    % (board_name(size), first + g, placements))
                break
        a_black = (first + g) % 2 == 0
        if loser is not None:
            a_won = (loser == "white") == a_black
        elif result == "B+":
            a_won = a_black
        elif result == "W+":
            a_won = not a_black
        else:
            draws += 1
            a_won = None
        if a_won is not None:
            wins += a_won
        if args.progress:
            # a running tally, so that a long match cut short still tells something
            with tally["lock"]:
                tally["played"] += 1
                tally["won"] += a_won is True
                tally["drawn"] += a_won is None
                print("# %s level %s vs %s game %d: %s, %d won, %d drawn of %d" % (
                    board_name(size), a, b, first + g + 1,
                    "draw" if a_won is None else "won" if a_won else "lost",
                    tally["won"], tally["drawn"], tally["played"]))
                if args.stats and fill["moves"]:
                    print("#   level %s: %d genmoves, %.0f playouts each, the pool at most "
                          "%.0f%% full, over half full after %d, full after %d" % (
                              a, fill["moves"], fill["playouts"] / fill["moves"],
                              100 * fill["most"], fill["half"], fill["full"]))
                sys.stdout.flush()
    for e in (ea, eb, ref):
        rc = e.close()
        if rc != 0:
            problems.append("engine exited %d" % rc)
    return wins, draws, problems, times


def search_fill(engine, fill):
    """--stats: add the engine's last search (oustpbm-search) to fill: how full its node
    pool was (over half full the tree grows more slowly; full, not at all)."""
    f = engine.send("oustpbm-search").split()
    s = dict(zip(f[0::2], f[1::2]))
    used = int(s["nodes"]) / max(1, int(s["cap"]))
    fill["moves"] += 1
    fill["playouts"] += int(s["playouts"])
    fill["half"] += used > 0.5
    fill["full"] += used > 0.99
    fill["most"] = max(fill["most"], used)


RULES_MAX_POINTS = 625


def calibrate(args, size, game):
    """One game of level 5 against itself at the fixed budget args.playouts (one thread):
    its playouts over the process CPU seconds its searches took (oustpbm-search), and
    the most nodes a search left in use."""
    e = Engine(args.program, ["--level", "5", "--seconds", "86400", "--playouts",
                              str(args.playouts), "--seed", str(1000 * game + 7)])
    e.send(board_command(size))
    e.send("clear_board")
    playouts, cpu, nodes, cap = 0, 0.0, 0, 1
    while e.send("gogui-rules_final_result") == "unknown":
        e.send("genmove %s" % e.send("gogui-rules_side_to_move"))
        f = e.send("oustpbm-search").split()
        s = dict(zip(f[0::2], f[1::2]))
        playouts += int(s["playouts"])
        cpu += float(s["cpu"])
        nodes, cap = max(nodes, int(s["nodes"])), int(s["cap"])
    e.close()
    return playouts / cpu if cpu > 0 else 0.0, nodes, cap


def calibrate_all(args):
    """--calibrate: level 5's playouts a CPU second on one thread, median of the games."""
    for size in args.sizes.split(","):
        rates = []
        for g in range(args.games):
            rate, nodes, cap = calibrate(args, size, g)
            rates.append(rate)
            print("# %s game %d: %.0f playouts a CPU second, at most %d of %d nodes" % (
                board_name(size), g + 1, rate, nodes, cap))
            sys.stdout.flush()
        rates.sort()
        print("%-5s level 5, one thread: median %.0f playouts a CPU second (%d games, "
              "%.0f to %.0f)" % (board_name(size), rates[len(rates) // 2], len(rates),
                                 rates[0], rates[-1]))
        sys.stdout.flush()
    return 0


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def levels(text):
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("--sizes", default="9,11")
    ap.add_argument("--levels", default="1-5")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--playouts", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.0)
    ap.add_argument("--opponents", default="random,greedy,below")
    ap.add_argument("--fixed", type=fixed_budgets, default=None,
                    help="LEVEL:PLAYOUTS,...: each level's fixed playout budget, no time limit")
    ap.add_argument("--progress", action="store_true",
                    help="print each game's result and the running tally")
    ap.add_argument("--against", default=None,
                    help="another build of oustpbm: opponent 'old' is the same level on it")
    ap.add_argument("--chunk", type=int, default=0,
                    help="at most N games an engine pair, so one match runs on several jobs")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="added to every seed, to extend a match with new games")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--scaling", type=float, default=4.0,
                    help="opponent 'slower': the level at 1/F of the budget (default 4)")
    ap.add_argument("--rates", type=size_rates, default=None,
                    help="SIZE:PLAYOUTS,...: level 5's playouts a second on one thread by "
                    "board size (--calibrate); each side then gets the fixed budget its "
                    "think time buys at that rate")
    ap.add_argument("--stats", action="store_true",
                    help="with --progress: how full the node pool of the first player was")
    ap.add_argument("--calibrate", action="store_true",
                    help="measure level 5's playouts a CPU second (--playouts a placement)")
    args = ap.parse_args(argv[1:])
    if args.calibrate:
        if args.playouts <= 0:
            args.playouts = 20000
        return calibrate_all(args)
    matches = []
    for size in args.sizes.split(","):
        for level in levels(args.levels):
            for opp in args.opponents.split(","):
                if opp == "below":
                    if level == 1:
                        continue
                    opp = str(level - 1)
                elif opp == "old":
                    opp = "old%d" % level
                elif opp == "slower" and level < 5 and args.rates:
                    continue  # the rates are level 5's
                matches.append((size, str(level), opp))
    if args.rates:
        print("# %d games a match, %s s a placement as fixed playouts at %s, %d at once" % (
            args.games, args.seconds, ", ".join(
                "%s: %d (x%g: %d)" % (board_name(k), rate_budget(args, k), args.scaling,
                                      rate_budget(args, k, args.scaling))
                for k in args.sizes.split(",")), args.jobs))
    elif args.fixed:
        print("# %d games a match, fixed playouts a placement (%s), %d at once" % (
            args.games, ", ".join("level %s: %d" % (k, v) for k, v in
                                  sorted(args.fixed.items(), key=lambda kv: str(kv[0]))),
            args.jobs))
    else:
        print("# %d games a match, %s s a placement%s, %d at once" % (
            args.games, args.seconds,
            ", %d playouts a placement" % args.playouts if args.playouts else "", args.jobs))
    sys.stdout.flush()
    failed = 0

    chunk = args.chunk if args.chunk > 0 else args.games
    parts = []
    for m in matches:
        tally = {"lock": threading.Lock(), "played": 0, "won": 0, "drawn": 0}
        for c, first in enumerate(range(0, args.games, chunk)):
            parts.append((m, c, first, min(chunk, args.games - first), tally))

    def run(part):
        (size, a, b), c, first, games, tally = part
        # chunk 0 keeps the seeds of a match played in one piece
        seed = args.first_seed + 1000000 * c + \
            1000 * int(size.lstrip("h")) + 100 * size.startswith("h") + 10 * int(a)
        return play_match(args, size, a, b, games, seed, first, tally)

    def results():
        """Each match's chunks summed, in the order of matches."""
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            done = zip(parts, pool.map(run, parts))
            for m, chunks in itertools.groupby(done, key=lambda d: d[0][0]):
                wins = draws = 0
                problems, times = [], []
                for _, (w, d, p, t) in chunks:
                    wins, draws = wins + w, draws + d
                    problems += p
                    times += t
                yield m, (wins, draws, problems, times)

    for (size, a, b), (wins, draws, problems, times) in results():
        score = wins + 0.5 * draws
        lo, hi = wilson(score, args.games)
        who = b if b in ("random", "greedy") else \
            "old " + b[3:] if b.startswith("old") else \
            "%s at 1/%g" % (a, args.scaling) if b == "slower" else "level " + b
        tmax = max(times) if times else 0.0
        tmed = sorted(times)[len(times) // 2] if times else 0.0
        line = ("%-5s level %s vs %-8s %3d/%-3d %5.1f%%  95%% [%5.1f%%, %5.1f%%]  "
                "genmove median %.3f s, max %.3f s" % (
                    board_name(size), a, who, wins, args.games, 100.0 * score / args.games,
                    100 * lo, 100 * hi, tmed, tmax))
        if draws:
            line += ", %d draws" % draws
        if args.smoke:
            print("%s - %s" % ("not ok" if problems else "ok", line))
        else:
            print(line)
        for p in problems[:5]:
            print("# " + p)
        failed += len(problems) > 0
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
