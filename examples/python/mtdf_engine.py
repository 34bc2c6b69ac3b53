"""An engine as authors write one, in plain Python, for `nullwindow fuzz` to check: MTD(f) in
iterative deepening over a fail-soft negamax alpha-beta with a transposition table.

    nullwindow fuzz --values side-to-move \
        --command 'python3 examples/python/mtdf_engine.py {} {depth} --trace {trace}'

Usage: mtdf_engine.py TREE DEPTH [--trace FILE] [--bug NAME], or mtdf_engine.py --persistent
[--bug NAME] for `nullwindow fuzz --persistent` (one process, a `case FILE DEPTH TRACE` line a case,
records always written to TRACE). Reads a tree file (the parenthesis
format, or gtree when the name ends in .gtree), searches it DEPTH plies deep, prints the root's value
from the side to move and the index of the child it would play, and with --trace writes one record
per node as it returns (values from the side to move; "probe": "cutoff" where a table entry gave
the result). With --bug, one of the planted bugs of BUGS.
"""
import json
import re
import sys

INF = 10**6
# ANCHOR: bugs
BUGS = {
    "none": "no bug: the engine is exact",
    "sign": "at the horizon the evaluation is returned from MAX's side, not the mover's",
    "table-flag": "a result at or below alpha goes into the table as exact",
    "shallower-entry": "a table entry of a shallower search answers a deeper one",
    "driver-loop": "MTD(f) gives up after two passes and returns its last bound",
    "reported-move": "the root's move is kept from the first iteration, not updated by deeper ones",
}
# ANCHOR_END: bugs


def read_tree(text, gtree):
    """Nodes as {id: (evaluation from MAX's side, MAX to move, [child ids])}, and the root's id."""
    nodes = {}
    if gtree:
        for line in text.splitlines():
            words = line.split("#")[0].split()
            if words:
                nodes[words[0]] = (int(words[1]), words[2] == "W", words[3:])
        return nodes, text.split()[0]
    stack = []
    for token in re.findall(r"\(|\)|-?\d+", re.sub(r"#.*", "", text)):
        if token == ")":
            stack.pop()
            continue
        node = str(len(nodes))
        if stack:
            nodes[stack[-1]][2].append(node)
        nodes[node] = (0 if token == "(" else int(token), len(stack) % 2 == 0, [])
        if token == "(":
            stack.append(node)
    return nodes, "0"


class Engine:
    def __init__(self, nodes, bug, trace):
        self.nodes, self.bug, self.trace = nodes, bug, trace
        self.table, self.best_move = {}, None

    def negamax(self, node, depth, alpha, beta, path):
        window = (alpha, beta)
        entry = self.table.get(node)
        if entry and (entry[0] == depth or (self.bug == "shallower-entry" and entry[0] < depth)):
            _, value, flag = entry
            if flag == "exact":
                return self.record(path, depth, window, value, None, "cutoff")
            if flag == "lower":
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return self.record(path, depth, window, value, None, "cutoff")
        evaluation, max_to_move, children = self.nodes[node]
        if depth == 0 or not children:
            mover = evaluation if max_to_move else -evaluation
            horizon_bug = self.bug == "sign" and depth == 0
            return self.record(path, depth, window, evaluation if horizon_bug else mover, None)
        best, best_index = -INF, 0
        for index, child in enumerate(children):
            value = -self.negamax(child, depth - 1, -beta, -max(alpha, best), path + [index])
            if value > best:
                best, best_index = value, index
            if best >= beta:
                break
        if best <= alpha:
            flag = "exact" if self.bug == "table-flag" else "upper"
        else:
            flag = "lower" if best >= beta else "exact"
        if not path and best > alpha and (self.best_move is None or self.bug != "reported-move"):
            self.best_move = best_index
        self.table[node] = (depth, best, flag)
        return self.record(path, depth, window, best, flag)

    def record(self, path, depth, window, result, stored, probe=None):
        if self.trace:
            line = {"path": path, "depth": depth, "alpha": window[0], "beta": window[1], "result": result}
            if stored:
                line["stored"] = stored
            if probe:
                line["probe"] = probe
            self.trace.write(json.dumps(line) + "\n")
        return result

    def mtdf(self, root, depth, guess):
        lower, upper, passes = -INF, INF, 0
        while lower < upper:
            passes += 1
            if self.bug == "driver-loop" and passes > 2:
                break
            beta = max(guess, lower + 1)
            guess = self.negamax(root, depth, beta - 1, beta, [])
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return guess


def answer(tree_path, depth, trace_path, bug):
    """The engine's answer line on one case: the root's value, and its move when it has one."""
    with open(tree_path) as file:
        nodes, root = read_tree(file.read(), tree_path.endswith(".gtree"))
    trace = open(trace_path, "w") if trace_path else None
    engine, guess = Engine(nodes, bug, trace), 0
    for iteration in range(min(1, depth), depth + 1):
        guess = engine.mtdf(root, iteration, guess)
    if trace:
        trace.close()
    return str(guess) if engine.best_move is None else f"{guess} {engine.best_move}"


def main(args):
    trace_path = args.pop(args.index("--trace") + 1) if "--trace" in args else None
    bug = args.pop(args.index("--bug") + 1) if "--bug" in args else "none"
    persistent = "--persistent" in args
    args = [arg for arg in args if arg not in ("--trace", "--bug", "--persistent")]
    if bug not in BUGS or len(args) != (0 if persistent else 2):
        sys.exit("usage: mtdf_engine.py (TREE DEPTH [--trace FILE] | --persistent) [--bug " + "|".join(BUGS) + "]")
    if not persistent:
        print(answer(args[0], int(args[1]), trace_path, bug))
        return
    # One process for a whole run (`nullwindow fuzz --persistent`): a line `case FILE DEPTH TRACE`
    # per case, one answer line each, until `quit`.
    for line in sys.stdin:
        request = line.split()
        if not request or request[0] == "quit":
            break
        print(answer(request[1], int(request[2]), request[3], bug), flush=True)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main(sys.argv[1:])
