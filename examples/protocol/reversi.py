"""Reversi on a 4x4 board served over nullwindow's line protocol, with its own search: a game
where a side that cannot place a disc passes.

    nullwindow solve --engine 'python3 examples/protocol/reversi.py'
    nullwindow fuzz --engine 'python3 examples/protocol/reversi.py --bug pass-window'
    nullwindow fuzz --engine 'python3 examples/protocol/reversi.py --decimals --bug cents'

A position token is the board, sixteen characters row by row ('x', 'o', or '.'), then the side to
move, 'x' or 'o': the start, with x to move, is `.....ox..xo.....x`. A move is the square it
places a disc on, `a1` to `d4` (column, then row), and it turns every line of the opponent's discs
that it closes against one of the mover's. A side that cannot place a disc while the other can
has the single move `pass`; the game ends when neither can place. The evaluation, from the side to
move, is the disc difference (its discs minus the other's), which at the end is the final score.

`search POS DEPTH [FILE]` is the engine's own search: a fail-soft negamax alpha-beta with a table
keyed by the position and the depth left (an entry answers only a search to its own depth, so the
engine is exact), writing one record per node to FILE as the node returns. A pass is a move and
counts one ply. With --bug NAME, one of the planted bugs of BUGS.

With --decimals the evaluation scores in points with two decimals, as engines that score in
floating point do: the disc difference plus a twentieth of a point for each move the side to move
has more than the other (mobility), `1.15` or `-0.85`, and the engine announces `decimals=2`. A
finished game still scores its disc difference: neither side has a move there.
"""
import json
import sys

NAMES = [column + str(row + 1) for row in range(4) for column in "abcd"]
OTHER = {"x": "o", "o": "x"}
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
INF = 10**6
# ANCHOR: bugs
BUGS = {
    "none": "no bug: the engine is exact",
    "pass-window": "a pass is searched with the window (alpha, beta), not negated to (-beta, -alpha)",
    "table-flag": "a result at or below alpha goes into the table as exact",
    # Only with --decimals: a float such as 0.29 is 0.28999... in binary, and int() truncates it.
    "cents": "the search cuts each leaf's value to cents with int(value * 100) / 100, a cent off "
    "(toward zero) wherever the binary float falls short of the decimal",
}
# ANCHOR_END: bugs


def turned(board, square, mover):
    """The other side's discs that a disc of mover's on square would turn."""
    if board[square] != ".":
        return []
    row, column = divmod(square, 4)
    discs = []
    for dr, dc in DIRECTIONS:
        line, r, c = [], row + dr, column + dc
        while 0 <= r < 4 and 0 <= c < 4 and board[4 * r + c] == OTHER[mover]:
            line.append(4 * r + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 4 and 0 <= c < 4 and board[4 * r + c] == mover:
            discs += line
    return discs


def placements(board, mover):
    """Each square where mover can place, and the board after it."""
    moves = []
    for square in range(16):
        discs = turned(board, square, mover)
        if discs:
            after = list(board)
            for disc in discs + [square]:
                after[disc] = mover
            moves.append((NAMES[square], "".join(after)))
    return moves


def children(token):
    board, mover = token[:16], token[16]
    moves = placements(board, mover)
    if moves:
        return [(name, after + OTHER[mover]) for name, after in moves]
    if placements(board, OTHER[mover]):
        return [("pass", board + OTHER[mover])]
    return []


def evaluate(token, decimals=False):
    board, mover = token[:16], token[16]
    discs = board.count(mover) - board.count(OTHER[mover])
    if not decimals:
        return discs
    return discs + 0.05 * (len(placements(board, mover)) - len(placements(board, OTHER[mover])))


def written(value, decimals):
    """A value as the engine writes it: two decimals with --decimals."""
    return f"{value:.2f}" if decimals else str(value)


class Search:
    """One search: fail-soft negamax alpha-beta over a table of (position, depth left)."""

    def __init__(self, bug, depth, records, decimals=False):
        self.bug, self.depth, self.records, self.decimals = bug, depth, records, decimals
        self.table, self.best_move = {}, None

    def negamax(self, token, depth, alpha, beta):
        window = (alpha, beta)
        entry = self.table.get((token, depth))
        if entry:
            value, flag = entry
            if flag == "exact" or (flag == "lower" and value >= beta) or (flag == "upper" and value <= alpha):
                return self.record(token, depth, window, value, None, "cutoff")
        moves = children(token)
        if depth == 0 or not moves:
            value = evaluate(token, self.decimals)
            if self.bug == "cents":
                value = int(value * 100) / 100
            return self.record(token, depth, window, value)
        best = -INF
        for move, child in moves:
            # ANCHOR: pass
            if move == "pass" and self.bug == "pass-window":
                value = -self.negamax(child, depth - 1, alpha, beta)
            else:
                value = -self.negamax(child, depth - 1, -beta, -max(alpha, best))
            # ANCHOR_END: pass
            if value > best:
                best = value
                if depth == self.depth:  # the root: the only node searched this deep
                    self.best_move = move
            if best >= beta:
                break
        if best <= alpha:
            flag = "exact" if self.bug == "table-flag" else "upper"
        else:
            flag = "lower" if best >= beta else "exact"
        self.table[(token, depth)] = (best, flag)
        return self.record(token, depth, window, best, flag)

    def record(self, token, depth, window, result, stored=None, probe=None):
        if self.records:
            alpha, beta, value = (round(number, 2) for number in (*window, result))
            line = {"node": token, "depth": depth, "alpha": alpha, "beta": beta, "result": value}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.records.write(json.dumps(line) + "\n")
        return result


def search(token, depth, file, bug, decimals):
    """The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root."""
    records = open(file, "w") if file else None
    engine = Search(bug, depth, records, decimals)
    value = written(engine.negamax(token, depth, -INF, INF), decimals)
    if records:
        records.close()
    return f"{value} {engine.best_move}" if engine.best_move else value


def main(args):
    bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
    decimals = "--decimals" in args
    if bug not in BUGS or (bug == "cents" and not decimals):
        sys.exit("usage: reversi.py [--decimals] [--bug " + "|".join(BUGS) + "] (cents with --decimals)")
    for line in sys.stdin:
        request = line.split()
        if request == ["quit"]:
            break
        if request[0] == "protocol":
            answer = "protocol 1 search records" + (" decimals=2" if decimals else "")
        elif request[0] == "root":
            answer = ".....ox..xo.....x"
        elif request[0] == "children":
            answer = " ".join(f"{move} {child}" for move, child in children(request[1]))
        elif request[0] == "search":
            file = request[3] if len(request) > 3 else None
            answer = search(request[1], int(request[2]), file, bug, decimals)
        else:
            answer = written(evaluate(request[1], decimals), decimals)
        print(answer, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
