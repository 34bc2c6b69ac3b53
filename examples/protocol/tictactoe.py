"""Tic-tac-toe served over nullwindow's line protocol: the oracle searches a game through this
program alone, as it would an engine's own game in any language.

    nullwindow solve --engine 'python3 examples/protocol/tictactoe.py'
    nullwindow fuzz --engine 'python3 examples/protocol/tictactoe.py --bug table-flag'

A position token is the board, nine characters row by row ('x', 'o', or '.'); a move is its
square, 1 to 9. X moves first; the evaluation, from the side to move, is 1 for a win, -1 for a
loss, 0 otherwise. The book's "Your game, your engine" page gives the protocol.

The program also answers `search POS DEPTH [FILE]` with its own search: a fail-soft negamax
alpha-beta with a table keyed by the position and the depth left (an entry answers only a search
to its own depth, so the engine is exact), writing one record per node to FILE as the node
returns. With --bug NAME, one of the planted bugs of BUGS.
"""
import json
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
INF = 10**6
# ANCHOR: bugs
BUGS = {
    "none": "no bug: the engine is exact",
    "table-flag": "a result at or below alpha goes into the table as exact",
}
# ANCHOR_END: bugs


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def to_move(board):
    return "x" if board.count("x") == board.count("o") else "o"


def children(board):
    if winner(board):
        return []
    mover = to_move(board)
    return [(str(square + 1), board[:square] + mover + board[square + 1:])
            for square in range(9) if board[square] == "."]


def evaluate(board):
    won = winner(board)
    return 0 if won is None else (1 if won == to_move(board) else -1)


class Search:
    """One search: fail-soft negamax alpha-beta over a table of (position, depth left)."""

    def __init__(self, bug, depth, records):
        self.bug, self.depth, self.records = bug, depth, records
        self.table, self.best_move = {}, None

    def negamax(self, board, depth, alpha, beta):
        window = (alpha, beta)
        entry = self.table.get((board, depth))
        if entry:
            value, flag = entry
            if flag == "exact" or (flag == "lower" and value >= beta) or (flag == "upper" and value <= alpha):
                return self.record(board, depth, window, value, None, "cutoff")
        moves = children(board)
        if depth == 0 or not moves:
            return self.record(board, depth, window, evaluate(board))
        best = -INF
        for move, child in moves:
            value = -self.negamax(child, depth - 1, -beta, -max(alpha, best))
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
        self.table[(board, depth)] = (best, flag)
        return self.record(board, depth, window, best, flag)

    def record(self, board, depth, window, result, stored=None, probe=None):
        if self.records:
            line = {"node": board, "depth": depth, "alpha": window[0], "beta": window[1], "result": result}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.records.write(json.dumps(line) + "\n")
        return result


def search(board, depth, file, bug):
    """The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root."""
    records = open(file, "w") if file else None
    engine = Search(bug, depth, records)
    value = engine.negamax(board, depth, -INF, INF)
    if records:
        records.close()
    return f"{value} {engine.best_move}" if engine.best_move else str(value)


def main(args):
    bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
    if bug not in BUGS:
        sys.exit("usage: tictactoe.py [--bug " + "|".join(BUGS) + "]")
    for line in sys.stdin:
        request = line.split()
        if request == ["quit"]:
            break
        if request[0] == "protocol":
            answer = "protocol 1 search records new"
        elif request[0] == "root":
            answer = "........."
        elif request[0] == "children":
            answer = " ".join(f"{move} {child}" for move, child in children(request[1]))
        elif request[0] == "new":
            # Each search builds its own table, so nothing is kept between searches to forget.
            answer = "ok"
        elif request[0] == "search":
            answer = search(request[1], int(request[2]), request[3] if len(request) > 3 else None, bug)
        else:
            answer = str(evaluate(request[1]))
        print(answer, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
