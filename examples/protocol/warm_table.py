"""A small game served with a table kept between searches, the way a real engine keeps its own
between moves, and wrong in two ways real ones are: the table holds one entry, always replaced,
and its key leaves out the first letter of a token, the piece that tells the game's two halves
apart (as a checkers hash that ignores kings does). Within one search no two positions it probes
share a key, so every search alone is right; a search just after one of the other half's
positions is not. nullwindow's own-game fuzz finds it, shrinks the searches before it to the one
that leaves the wrong entry, and saves them as a session:

    nullwindow fuzz --engine 'python3 examples/protocol/warm_table.py' --height 1..2 --cases 200
"""
import sys
G = {'S': 'k Kx m My', 'Kx': 'a Kza b Kzb', 'My': 'a Mza b Mzb',
     'Kza': 'a Kzaa b Kzab', 'Kzb': 'a Kzba b Kzbb', 'Mza': 'a Mzaa b Mzab', 'Mzb': 'a Mzba b Mzbb'}
E = {'S': 0, 'Kx': 1, 'My': -1, 'Kza': 2, 'Kzb': -3, 'Mza': 5, 'Mzb': 4,
     'Kzaa': 1, 'Kzab': -2, 'Kzba': 3, 'Kzbb': 0, 'Mzaa': 4, 'Mzab': 6, 'Mzba': -1, 'Mzbb': 2}
table = None
def children(t):
    w = G.get(t, '').split()
    return list(zip(w[0::2], w[1::2]))
def negamax(t, depth, root):
    global table
    kids = children(t)
    if depth == 0 or not kids: return E[t], None
    if not root and table is not None and table[0] == t[1:] and table[1] >= depth: return table[2], None
    best = None
    for mv, child in kids:
        v = -negamax(child, depth - 1, False)[0]
        if best is None or v > best[0]: best = (v, mv)
    table = (t[1:], depth, best[0])
    return best
for line in sys.stdin:
    r = line.split()
    if not r: continue
    if r[0] == 'quit': break
    if r[0] == 'protocol': a = 'protocol 1 search'
    elif r[0] == 'root': a = 'S'
    elif r[0] == 'children': a = G.get(r[1], '')
    elif r[0] == 'eval': a = str(E[r[1]])
    elif r[0] == 'search':
        v, mv = negamax(r[1], int(r[2]), True)
        a = str(v) + (' ' + mv if mv else '')
    print(a, flush=True)
