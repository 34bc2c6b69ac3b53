"""Reversi on a 4x4 board served over nullwindow's line protocol, with its own search: a game
where a side that cannot place a disc passes.

    nullwindow solve --engine 'python3 examples/protocol/reversi.py'
    nullwindow fuzz --engine 'python3 examples/protocol/reversi.py --bug pass-window'

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


def evaluate(token):
    board, mover = token[:16], token[16]
    return board.count(mover) - board.count(OTHER[mover])


class Search:
    """One search: fail-soft negamax alpha-beta over a table of (position, depth left)."""

    def __init__(self, bug, depth, records):
        self.bug, self.depth, self.records = bug, depth, records
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
            return self.record(token, depth, window, evaluate(token))
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
            line = {"node": token, "depth": depth, "alpha": window[0], "beta": window[1], "result": result}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.records.write(json.dumps(line) + "\n")
        return result


def search(token, depth, file, bug):
    """The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root."""
    records = open(file, "w") if file else None
    engine = Search(bug, depth, records)
    value = engine.negamax(token, depth, -INF, INF)
    if records:
        records.close()
    return f"{value} {engine.best_move}" if engine.best_move else str(value)


def main(args):
    bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
    if bug not in BUGS:
        sys.exit("usage: reversi.py [--bug " + "|".join(BUGS) + "]")
    for line in sys.stdin:
        request = line.split()
        if request == ["quit"]:
            break
        if request[0] == "protocol":
            answer = "protocol 1 search records"
        elif request[0] == "root":
            answer = ".....ox..xo.....x"
        elif request[0] == "children":
            answer = " ".join(f"{move} {child}" for move, child in children(request[1]))
        elif request[0] == "search":
            answer = search(request[1], int(request[2]), request[3] if len(request) > 3 else None, bug)
        else:
            answer = str(evaluate(request[1]))
        print(answer, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
