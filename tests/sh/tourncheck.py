#!/usr/bin/python3
"""tourncheck.py FILE: checks a finished tournament file (tournaments/<n>,
doc/game-file.md) against the issue's rules, computed here on their own:
prints one line per problem and exits 1 if there is any, else prints the
expected standings, one user id a line, best first.

  round robin: every pair of a division once (twice with double, colours
    reversed), one game or bye a round each, a bye a round when odd, each
    player's Blacks within one of anyone's; standings by score, then
    Sonneborn-Berger, then the direct game, then rating
  swiss: no pair twice, nobody two byes, the bye to the lowest ranked
    without one (checked for round 1: the lowest rated); standings by
    score, Buchholz, Sonneborn-Berger, rating
  knockout: byes to the top seeds; standings by the round reached, seed
"""
import sys
from itertools import combinations

def parse(path):
    head, players, games = {}, [], []
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        k, v = line.split(': ', 1)
        if k == 'player':
            f = v.split()
            p = {'id': f[0], 'rating': int(f[1]), 'left': 'left' in f[2:], 'annulled': 'annulled' in f[2:]}
            for x in f[2:]:
                if '=' in x:
                    a, b = x.split('=', 1)
                    p[a] = b
            players.append(p)
        elif k == 'game':
            r, d, s, b, w, board, res = v.split()
            games.append({'round': int(r), 'div': int(d), 'slot': int(s), 'black': b,
                          'white': None if w == '-' else w, 'board': board, 'res': res})
        else:
            head[k] = v
    return head, players, games

def points(g, p):
    """half points of p in g, None if it does not count"""
    if g['white'] is None or g['res'] in ('*', 'annulled'):
        return None
    if g['res'] == '1/2':
        return 1
    bw = g['res'] in ('1-0', '+-')
    return 2 if (g['black'] == p) == bw else 0

def main():
    head, players, games = parse(sys.argv[1])
    fmt = head['format']
    bad = []
    rating = {p['id']: p['rating'] for p in players}
    annulled = {p['id'] for p in players if p['annulled']}
    score = {p['id']: 0 for p in players}
    for g in games:
        if g['white'] is None:
            if fmt == 'swiss':
                score[g['black']] += 2
            continue
        for p in (g['black'], g['white']):
            x = points(g, p)
            if x is not None:
                score[p] += x
    def opp_games(p):
        for g in games:
            if g['white'] is not None and p in (g['black'], g['white']) and points(g, p) is not None:
                yield (g['white'] if g['black'] == p else g['black']), points(g, p)
    sb = {p: sum(x * score[o] for o, x in opp_games(p)) for p in score}
    buch = {p: sum(2 * score[o] for o, _ in opp_games(p)) for p in score}
    if head['status'] != 'finished':
        bad.append('status is %s, not finished' % head['status'])
    if fmt == 'roundrobin':
        twice = head.get('double') == 'yes'
        divs = sorted({int(p.get('division', 1)) for p in players})
        for d in divs:
            ids = [p['id'] for p in players if int(p.get('division', 1)) == d]
            dg = [g for g in games if g['div'] == d]
            for a, b in combinations(ids, 2):
                n = [g for g in dg if {g['black'], g['white']} == {a, b}]
                if len(n) != (2 if twice else 1):
                    bad.append('%s and %s meet %d times' % (a, b, len(n)))
                if twice and len(n) == 2 and n[0]['black'] == n[1]['black']:
                    bad.append('%s and %s: colours not reversed' % (a, b))
            rounds = sorted({g['round'] for g in dg})
            for r in rounds:
                rg = [g for g in dg if g['round'] == r]
                seen = [g['black'] for g in rg] + [g['white'] for g in rg if g['white']]
                if sorted(seen) != sorted(ids):
                    bad.append('division %d round %d: not one game or bye each' % (d, r))
                byes = sum(1 for g in rg if g['white'] is None)
                if byes != len(ids) % 2:
                    bad.append('division %d round %d: %d byes' % (d, r, byes))
            blacks = [sum(1 for g in dg if g['black'] == p and g['white']) for p in ids]
            if max(blacks) - min(blacks) > 1:
                bad.append('division %d: Blacks from %d to %d' % (d, min(blacks), max(blacks)))
        order = []
        for d in divs:
            ids = [p['id'] for p in players if int(p.get('division', 1)) == d]
            def direct(p, group):
                return sum(x for o, x in opp_games(p) if o in group)
            ids.sort(key=lambda p: (p in annulled, -score[p], -sb[p]))
            out, i = [], 0
            while i < len(ids):
                j = i
                while j < len(ids) and (score[ids[j]], sb[ids[j]], ids[j] in annulled) == \
                        (score[ids[i]], sb[ids[i]], ids[i] in annulled):
                    j += 1
                group = ids[i:j]
                group.sort(key=lambda p: (-direct(p, group), -rating[p], p))
                out += group
                i = j
            order += out
    elif fmt == 'swiss':
        pairs = [frozenset((g['black'], g['white'])) for g in games if g['white']]
        if len(pairs) != len(set(pairs)):
            bad.append('a pair met twice')
        byes = [g['black'] for g in games if g['white'] is None]
        if len(byes) != len(set(byes)):
            bad.append('someone had two byes')
        r1 = [g for g in games if g['round'] == 1 and g['white'] is None]
        if r1 and r1[0]['black'] != min(players, key=lambda p: (p['rating'], p['id'][::-1]))['id'] and \
                rating[r1[0]['black']] != min(rating.values()):
            bad.append('round 1: the bye is not the lowest rated')
        order = sorted(score, key=lambda p: (p in annulled, -score[p], -buch[p], -sb[p], -rating[p], p))
    else:
        seed = {p['id']: int(p.get('seed', 0)) for p in players}
        n = len(players)
        size = 1
        while size < n:
            size *= 2
        byes = sorted(seed[g['black']] for g in games if g['round'] == 1 and g['white'] is None)
        if byes != list(range(1, size - n + 1)):
            bad.append('byes to seeds %s, not the top %d' % (byes, size - n))
        def reached(p):
            r = 1
            for g in games:
                if p in (g['black'], g['white']):
                    won = (g['white'] is None) or (g['res'] in ('1-0', '+-')) == (g['black'] == p) and g['res'] not in ('1/2', '*')
                    if won:
                        r = max(r, g['round'] + 1)
            return r
        for g in games:
            if g['res'] == '1/2':
                later = [h for h in games if h['round'] == g['round'] and h['slot'] == g['slot'] and
                         games.index(h) > games.index(g)]
                if not later or later[0]['black'] != g['white']:
                    bad.append('round %d table %d: a draw not replayed with colours reversed' % (g['round'], g['slot']))
        order = sorted(score, key=lambda p: (-reached(p), seed[p]))
    for b in bad:
        print('bad: ' + b)
    if not bad:
        for p in order:
            print(p)
    return 1 if bad else 0

sys.exit(main())
