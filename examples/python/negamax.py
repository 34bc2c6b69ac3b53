"""A fail-soft negamax alpha-beta in plain Python that writes one audit record per node.

    python3 examples/python/negamax.py testdata/trees/teaching.tree \
        | nullwindow audit testdata/trees/teaching.tree --trace - --values side-to-move

Reads a tree in the parenthesis format, e.g. ((3 17) (2 12)); leaves are values from the first
player's side. Each record is written when its node returns, values from the side to move.
"""
import json
import re
import sys

INF = 10**6


def parse(text):
    """The tree as nested lists of ints; # starts a comment."""
    tokens = re.findall(r"\(|\)|-?\d+", re.sub(r"#.*", "", text))
    stack = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            node = stack.pop()
            stack[-1].append(node)
        else:
            stack[-1].append(int(token))
    return stack[0][0]


def negamax(node, depth, alpha, beta, sign, path, out):
    """The value of node from the side to move (sign = +1 for the first player, -1 for the other)."""
    if isinstance(node, int) or depth == 0:
        value = sign * (node if isinstance(node, int) else 0)
    else:
        value = -INF
        for index, child in enumerate(node):
            score = -negamax(child, depth - 1, -beta, -max(alpha, value), -sign, path + [index], out)
            value = max(value, score)
            if value >= beta:
                break
    out.write(json.dumps({"path": path, "depth": depth, "alpha": alpha, "beta": beta, "result": value}) + "\n")
    return value


def height(node):
    return 0 if isinstance(node, int) else 1 + max(height(child) for child in node)


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        tree = parse(file.read())
    value = negamax(tree, height(tree), -INF, INF, 1, [], sys.stdout)
    print(f"value {value}", file=sys.stderr)
