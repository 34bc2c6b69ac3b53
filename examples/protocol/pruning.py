"""Connect Four on a board of five columns and four rows, served over nullwindow's line protocol,
with a selective search: late move reductions and null-move pruning, each switched on or off by
the oracle.

    nullwindow fuzz --engine 'python3 examples/protocol/pruning.py' --off all
    nullwindow fuzz --engine 'python3 examples/protocol/pruning.py' --selective
    nullwindow fuzz --engine 'python3 examples/protocol/pruning.py --bug swapped-bounds' --selective

A position token is the board, twenty characters from the bottom row up ('x', 'o', or '.'); a move
is a column, 1 to 5. X moves first. Four in a row, across, up or diagonally, wins. The evaluation,
from the side to move, is 1000 for a win (and -1000 for a loss) at a finished game, else the
number of lines of four its discs alone occupy less the other side's, each counted by its discs.

`search POS DEPTH [FILE]` is the engine's own search: a fail-soft principal variation search with
a table keyed by the position, the side to move and the depth left, writing one record per node
to FILE as the node returns. Its two selective features, named by `options`:

* `lmr`, late move reductions: from the third move on, a node three or more plies deep searches
  the move one ply shallower, and again at full depth if that beats alpha;
* `nullmove`, null-move pruning: a node three or more plies deep, not the root, whose evaluation
  is at least beta lets the other side move twice, two plies shallower; if even that fails high,
  the node is cut off with that value (a lower bound). The null move's search writes no records:
  no move of the game leads to its positions.

`symmetric POS` answers the mirrored board, which an exact search must value alike, but only with
every feature off: the reductions follow the order of the moves, so with them on the search keeps
no such relation, and the engine declares none.

With --bug NAME, one of the planted bugs of BUGS.
"""
import json
import sys

COLUMNS, ROWS = 5, 4
WIN, INF = 1000, 10**6
LINES = []
for row in range(ROWS):
    for column in range(COLUMNS):
        for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(row + k * d_row, column + k * d_column) for k in range(4)]
            if all(0 <= r < ROWS and 0 <= c < COLUMNS for r, c in cells):
                LINES.append([r * COLUMNS + c for r, c in cells])
OTHER = {"x": "o", "o": "x"}
# ANCHOR: bugs
BUGS = {
    "none": "no bug: exact with every feature off",
    "swapped-bounds": "the table's bound kinds are swapped: a fail-low result is stored as a lower bound, "
    "a fail-high one as an upper bound",
    "null-exact": "a null-move cut-off is stored in the table as an exact value",
    "lopsided": "the evaluation counts a disc in the bottom-left corner once more than elsewhere",
}
# ANCHOR_END: bugs
FEATURES = ["lmr", "nullmove"]


def to_move(board):
    return "x" if board.count("x") == board.count("o") else "o"


def winner(board):
    for line in LINES:
        first = board[line[0]]
        if first != "." and all(board[cell] == first for cell in line):
            return first
    return None


def moves(board, side):
    """Each legal move's name and the board after it, `side` placing the disc."""
    if winner(board):
        return []
    found = []
    for column in range(COLUMNS):
        for row in range(ROWS):
            cell = row * COLUMNS + column
            if board[cell] == ".":
                found.append((str(column + 1), board[:cell] + side + board[cell + 1:]))
                break
    return found


def mirror(board):
    return "".join(board[row * COLUMNS:(row + 1) * COLUMNS][::-1] for row in range(ROWS))


def evaluate(board, side, bug="none"):
    won = winner(board)
    if won:
        return WIN if won == side else -WIN
    score = 0
    if bug == "lopsided" and board[0] != ".":
        score += 1 if board[0] == side else -1
    for line in LINES:
        discs = [board[cell] for cell in line]
        if OTHER[side] not in discs:
            score += discs.count(side)
        if side not in discs:
            score -= discs.count(OTHER[side])
    return score


class Search:
    """One search: fail-soft PVS over a table of (board, side to move, depth left)."""

    def __init__(self, bug, features, depth, records):
        self.bug, self.features, self.depth, self.records = bug, features, depth, records
        self.table, self.best_move = {}, None

    def negamax(self, board, side, depth, alpha, beta, quiet=False):
        """The value of `board` with `side` to move; `quiet` inside a null move's search, whose
        positions are not the game's and get no records."""
        window = (alpha, beta)
        entry = self.table.get((board, side, depth))
        if entry:
            value, flag = entry
            if flag == "exact" or (flag == "lower" and value >= beta) or (flag == "upper" and value <= alpha):
                return self.record(board, depth, window, value, None, "cutoff", quiet)
        children = moves(board, side)
        if depth == 0 or not children:
            return self.record(board, depth, window, evaluate(board, side, self.bug), None, None, quiet)
        # ANCHOR: nullmove
        if ("nullmove" in self.features and depth >= 3 and depth < self.depth
                and evaluate(board, side, self.bug) >= beta):
            value = -self.negamax(board, OTHER[side], depth - 3, -beta, -beta + 1, quiet=True)
            if value >= beta:
                flag = "exact" if self.bug == "null-exact" else "lower"
                self.table[(board, side, depth)] = (value, flag)
                return self.record(board, depth, window, value, flag, None, quiet)
        # ANCHOR_END: nullmove
        best = -INF
        for index, (move, child) in enumerate(children):
            floor = max(alpha, best)
            if index == 0:
                value = -self.negamax(child, OTHER[side], depth - 1, -beta, -floor, quiet)
            else:
                # ANCHOR: lmr
                reduced = "lmr" in self.features and index >= 2 and depth >= 3
                value = -self.negamax(child, OTHER[side], depth - (2 if reduced else 1), -floor - 1, -floor, quiet)
                if reduced and value > floor:
                    value = -self.negamax(child, OTHER[side], depth - 1, -floor - 1, -floor, quiet)
                # ANCHOR_END: lmr
                if floor < value < beta:
                    value = -self.negamax(child, OTHER[side], depth - 1, -beta, -value, quiet)
            if value > best:
                best = value
                if depth == self.depth and not quiet:
                    self.best_move = move
            if best >= beta:
                break
        if best <= alpha:
            flag = "lower" if self.bug == "swapped-bounds" else "upper"
        elif best >= beta:
            flag = "upper" if self.bug == "swapped-bounds" else "lower"
        else:
            flag = "exact"
        self.table[(board, side, depth)] = (best, flag)
        return self.record(board, depth, window, best, flag, None, quiet)

    def record(self, board, depth, window, result, stored, probe, quiet):
        if self.records and not quiet:
            line = {"node": board, "depth": depth, "alpha": window[0], "beta": window[1], "result": result}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.records.write(json.dumps(line) + "\n")
        return result


def search(board, depth, file, bug, features):
    """The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root."""
    records = open(file, "w") if file else None
    engine = Search(bug, features, depth, records)
    value = engine.negamax(board, to_move(board), depth, -INF, INF)
    if records:
        records.close()
    return f"{value} {engine.best_move}" if engine.best_move else str(value)


def main(args):
    bug = args[args.index("--bug") + 1] if "--bug" in args else "none"
    if bug not in BUGS:
        sys.exit("usage: pruning.py [--bug " + "|".join(BUGS) + "]")
    features = set(FEATURES)
    for line in sys.stdin:
        request = line.split()
        if request == ["quit"]:
            break
        if request[0] == "protocol":
            answer = "protocol 1 search records options mover symmetric"
        elif request[0] == "root":
            answer = "." * (COLUMNS * ROWS)
        elif request[0] == "children":
            board = request[1]
            answer = " ".join(f"{move} {child}" for move, child in moves(board, to_move(board)))
        elif request[0] == "mover":
            # The board tells who moves: the oracle then needs no depth to place a record, which
            # a reduced search would throw off by a ply.
            answer = to_move(request[1])
        elif request[0] == "symmetric":
            mirrored = mirror(request[1])
            answer = mirrored if not features and mirrored != request[1] else ""
        elif request[0] == "options":
            answer = " ".join(FEATURES)
        elif request[0] == "set" and len(request) == 3 and request[1] in FEATURES:
            (features.add if request[2] == "on" else features.discard)(request[1])
            answer = "ok"
        elif request[0] == "search":
            file = request[3] if len(request) > 3 else None
            answer = search(request[1], int(request[2]), file, bug, features)
        else:
            answer = str(evaluate(request[1], to_move(request[1]), bug))
        print(answer, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
