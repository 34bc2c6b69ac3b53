"""A subtraction game served over nullwindow's line protocol, with its own search: a game whose
tokens do not say whose turn it is.

    nullwindow solve --engine 'python3 examples/protocol/takeaway.py'
    nullwindow fuzz --engine 'python3 examples/protocol/takeaway.py --bug table-side'
    nullwindow fuzz --engine 'python3 examples/protocol/takeaway.py --distance --bug mate-ply'

A heap holds eleven stones; the players take turns to take 1, 3 or 4 of them, and a player who
cannot take (the heap is empty) has lost. A position token is the number of stones left and
nothing else, so one token is reached with either side to move (after 1+3 stones or after 4): the
oracle keeps the token and the side as two nodes. A move is the number of stones taken: `1`, `3`
or `4`. The evaluation, from the side to move, is -10 on an empty heap (it has lost) and 0
anywhere else.

`search POS DEPTH [FILE]` is the engine's own search: a fail-soft negamax alpha-beta with a table
keyed by the heap and the depth left (an entry answers only a search to its own depth, so the
engine is exact), writing one record per node to FILE as the node returns. A token does not name
a node, so each record names it by its path: the child indices from POS, in the order of
`children` (the root is `"path": []`). With --bug NAME, one of the planted bugs of BUGS.

With --distance the engine scores a loss by its distance, as chess engines score mates, and
announces `distance`: an empty heap is -100 to the side to move, and reached p plies below the
searched heap -100 + p, so that the side that must lose loses as late as it can. Its search then
deepens iteratively, one table for every iteration (an entry still answers only its own depth
left), and a loss found p plies down is kept in the table as the node's own distance to it: stored
less the node's ply and read back plus the ply, as Stockfish's `value_to_tt` and `value_from_tt`
do. Each record names its node by its path, so its ply is the path's length; with --token-records
it names the node by its token and gives its ply, as an engine that does not keep paths would.
"""
import json
import sys

TAKES = (1, 3, 4)
INF = 10**6
# ANCHOR: bugs
BUGS = {
    "none": "no bug: the engine is exact",
    # A minimax engine's table in a negamax search: the entry does not say whose value it holds,
    # and neither does the heap it is keyed by.
    "table-side": "the table keeps results from the root's side (at odd plies negated, bounds "
    "swapped), but a probe takes them as the side to move's",
    # Only with --distance: the classic mate-score bug of a table shared across plies.
    "mate-ply": "the table keeps a loss as its distance from the searched heap, not from the "
    "node, so an entry read at another ply (in the next iteration) is a ply or more off",
}
# ANCHOR_END: bugs
SWAPPED = {"lower": "upper", "upper": "lower", "exact": "exact"}


def children(heap):
    return [(str(take), str(int(heap) - take)) for take in TAKES if take <= int(heap)]


def evaluate(heap, distance=False):
    if heap != "0":
        return 0
    return -100 if distance else -10


class Search:
    """One search: fail-soft negamax alpha-beta over a table of (heap, depth left)."""

    def __init__(self, bug, records, distance=False, by_token=False):
        self.bug, self.records, self.distance, self.by_token = bug, records, distance, by_token
        self.table, self.best_move = {}, None

    # ANCHOR: distance
    def from_table(self, value, ply):
        """An entry's value, kept as the node's own distance to a loss, as seen from the root."""
        if not self.distance or self.bug == "mate-ply":
            return value
        return value + ply if value < -50 else value - ply if value > 50 else value

    def to_table(self, value, ply):
        if not self.distance or self.bug == "mate-ply":
            return value
        return value - ply if value < -50 else value + ply if value > 50 else value
    # ANCHOR_END: distance

    def negamax(self, heap, depth, alpha, beta, path):
        window = (alpha, beta)
        entry = self.table.get((heap, depth))
        if entry:
            value, flag = entry
            value = self.from_table(value, len(path))
            if flag == "exact" or (flag == "lower" and value >= beta) or (flag == "upper" and value <= alpha):
                return self.record(heap, path, depth, window, value, None, "cutoff")
        moves = children(heap)
        if depth == 0 or not moves:
            value = evaluate(heap, self.distance)
            return self.record(heap, path, depth, window, value + len(path) if value < 0 and self.distance else value)
        best = -INF
        for index, (move, child) in enumerate(moves):
            value = -self.negamax(child, depth - 1, -beta, -max(alpha, best), path + [index])
            if value > best:
                best = value
                if not path:
                    self.best_move = move
            if best >= beta:
                break
        if best <= alpha:
            flag = "upper"
        else:
            flag = "lower" if best >= beta else "exact"
        if self.bug == "table-side" and len(path) % 2 == 1:
            self.table[(heap, depth)] = (-best, SWAPPED[flag])
        else:
            self.table[(heap, depth)] = (self.to_table(best, len(path)), flag)
        return self.record(heap, path, depth, window, best, flag)

    def record(self, heap, path, depth, window, result, stored=None, probe=None):
        if self.records:
            node = {"node": heap, "ply": len(path)} if self.by_token else {"path": path}
            line = {**node, "depth": depth, "alpha": window[0], "beta": window[1], "result": result}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.records.write(json.dumps(line) + "\n")
        return result


def search(heap, depth, file, bug, distance, by_token):
    """The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root."""
    records = open(file, "w") if file else None
    engine = Search(bug, records, distance, by_token)
    # With --distance, iterative deepening: the shallower iterations fill the table.
    for iteration in range(1 if distance and depth > 0 else depth, depth + 1):
        engine.best_move = None
        value = engine.negamax(heap, iteration, -INF, INF, [])
    if records:
        records.close()
    return f"{value} {engine.best_move}" if engine.best_move else str(value)


def main(args):
    bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
    distance = "--distance" in args
    if bug not in BUGS or (bug == "mate-ply" and not distance):
        sys.exit(
            "usage: takeaway.py [--distance] [--token-records] [--bug " + "|".join(BUGS) + "] (mate-ply with --distance)"
        )
    for line in sys.stdin:
        request = line.split()
        if request == ["quit"]:
            break
        if request[0] == "protocol":
            answer = "protocol 1 search records" + (" distance" if distance else "")
        elif request[0] == "root":
            answer = "11"
        elif request[0] == "children":
            answer = " ".join(f"{move} {child}" for move, child in children(request[1]))
        elif request[0] == "search":
            file = request[3] if len(request) > 3 else None
            answer = search(request[1], int(request[2]), file, bug, distance, "--token-records" in args)
        else:
            answer = str(evaluate(request[1], distance))
        print(answer, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
