"""easyAI's searches on the oracle's cases: `nullwindow fuzz --values side-to-move --command
'python3 engine.py ALGO {} {depth}'`, or `engine.py ALGO --persistent` for `fuzz --persistent`.

ALGO is negamax, negamax-tt (with easyAI's TranspositionTable), sss or dual. The tree is an easyAI
TwoPlayerGame whose moves are child indices; it prints the root value from the side to move and
the index of easyAI's move.
"""

import sys

from easyAI import DUAL, SSS, Negamax, TranspositionTable, TwoPlayerGame


# ANCHOR: glue
def read_tree(text, gtree):
    """The case as {node: (evaluation from MAX's side, MAX to move, [children])}, and its root."""
    if not gtree:
        nodes, tokens = {}, text.replace("(", " ( ").replace(")", " ) ").split()

        def parse(at, max_to_move):
            node = len(nodes)
            if tokens[at] != "(":
                nodes[node] = (int(tokens[at]), max_to_move, [])
                return node, at + 1
            nodes[node], at = (0, max_to_move, []), at + 1
            while tokens[at] != ")":
                child, at = parse(at, not max_to_move)
                nodes[node][2].append(child)
            return node, at + 1

        return nodes, parse(0, True)[0]
    lines = [line.split() for line in text.splitlines() if line.split()]
    named = {word for line in lines for word in line[2:] if word not in ("W", "B")}
    root = next(line[0] for line in lines if line[0] not in named)
    by_id = {line[0]: line for line in lines}
    nodes = {}

    def visit(node, max_to_move):
        line = by_id[node]
        colour = line[2] if len(line) > 2 and line[2] in ("W", "B") else None
        max_to_move = max_to_move if colour is None else colour == "W"
        children = [word for word in line[2:] if word not in ("W", "B")]
        if node not in nodes:
            nodes[node] = (int(line[1]), max_to_move, children)
            for child in children:
                visit(child, not max_to_move)

    visit(root, True)
    return nodes, root


class TreeGame(TwoPlayerGame):
    """One node of the case; easyAI's moves are child indices."""

    def __init__(self, nodes, root):
        self.players = [None, None]
        self.current_player = 1
        self.nodes, self.path = nodes, [root]

    def possible_moves(self):
        return list(range(len(self.nodes[self.path[-1]][2])))

    def make_move(self, move):
        self.path.append(self.nodes[self.path[-1]][2][move])

    def unmake_move(self, move):
        self.path.pop()

    def is_over(self):
        return not self.nodes[self.path[-1]][2]

    def scoring(self):
        evaluation, max_to_move, _ = self.nodes[self.path[-1]]
        return evaluation if max_to_move else -evaluation

    def ttentry(self):
        return self.path[-1]


def answer(algo, tree_path, depth):
    with open(tree_path) as file:
        nodes, root = read_tree(file.read(), tree_path.endswith(".gtree"))
    game = TreeGame(nodes, root)
    if depth == 0 or game.is_over():
        # easyAI's AIs choose a move: with none to choose they raise AttributeError (see the book).
        return "skip"
    ai = {
        "negamax": lambda: Negamax(depth),
        "negamax-tt": lambda: Negamax(depth, tt=TranspositionTable()),
        "sss": lambda: SSS(depth),
        "dual": lambda: DUAL(depth),
    }[algo]()
    ai(game)
    # easyAI's values are floats (a bonus for quick wins, see the book): the oracle wants integers.
    value = round(ai.alpha)
    move = getattr(game, "ai_move", None)
    return str(value) if move is None else f"{value} {move}"
# ANCHOR_END: glue


def main(args):
    algo = args[0]
    if args[1:] == ["--persistent"]:
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["quit"]:
                break
            print(answer(algo, words[1], int(words[2])), flush=True)
    else:
        print(answer(algo, args[1], int(args[2])))


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main(sys.argv[1:])
