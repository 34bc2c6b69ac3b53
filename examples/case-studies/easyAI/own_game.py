"""easyAI's own games, TicTacToe and Nim, served over nullwindow's line protocol with easyAI's
search answering `search`: `nullwindow fuzz --engine 'python3 own_game.py GAME ALGO [--one-table]
[--sided]'`.

GAME is tictactoe or nim (easyAI's Nim, 5 piles of 5); ALGO is negamax, negamax-tt, sss or dual.
With --one-table, negamax-tt keeps one TranspositionTable for the whole run, as easyAI's own
examples keep one for a whole game; with --sided, Nim's table key holds the side to move as well
as the piles. Moves and evaluations are easyAI's own: `possible_moves`,
`make_move` and `scoring`, from the side to move.
"""

import sys

from easyAI import DUAL, SSS, Negamax, TranspositionTable
from easyAI.games import Nim, TicTacToe


class SidedNim(Nim):
    """Nim whose table key holds the side to move too (`--sided`)."""

    def ttentry(self):
        return tuple(self.piles), self.current_player


# ANCHOR: glue
def position(game, token):
    """easyAI's game object at TOKEN: a TicTacToe board of nine digits, or Nim's piles."""
    if game == "tictactoe":
        state = TicTacToe([None, None])
        state.board = [int(square) for square in token]
        state.current_player = 1 if state.board.count(1) == state.board.count(2) else 2
    else:
        state = (SidedNim if "--sided" in sys.argv else Nim)([None, None])
        state.piles = [int(pile) for pile in token.split("-")]
    return state


def token(game, state):
    if game == "tictactoe":
        return "".join(map(str, state.board))
    return "-".join(map(str, state.piles))


def children(game, pos):
    state = position(game, pos)
    if state.is_over():
        return ""
    words = []
    for move in state.possible_moves():
        child = position(game, pos)
        child.make_move(move)
        words += [str(move), token(game, child)]
    return " ".join(words)


def search(game, algo, pos, depth, table):
    state = position(game, pos)
    if depth == 0 or state.is_over():
        return "skip"  # easyAI's AIs choose a move and have none to choose here
    ai = {
        "negamax": lambda: Negamax(depth),
        "negamax-tt": lambda: Negamax(depth, tt=table or TranspositionTable()),
        "sss": lambda: SSS(depth),
        "dual": lambda: DUAL(depth),
    }[algo]()
    move = ai(state)
    return f"{round(ai.alpha)} {move}"


def main(args):
    game, algo = args[0], args[1]
    table = TranspositionTable() if "--one-table" in args else None
    start = TicTacToe([None, None]) if game == "tictactoe" else Nim([None, None])
    for line in sys.stdin:
        words = line.split()
        if words[0] == "protocol":
            answer = "protocol 1 search"
        elif words[0] == "root":
            answer = token(game, start)
        elif words[0] == "children":
            answer = children(game, words[1])
        elif words[0] == "eval":
            answer = str(position(game, words[1]).scoring())
        elif words[0] == "search":
            answer = search(game, algo, words[1], int(words[2]), table)
        else:
            break
        print(answer, flush=True)
# ANCHOR_END: glue


if __name__ == "__main__":
    main(sys.argv[1:])
