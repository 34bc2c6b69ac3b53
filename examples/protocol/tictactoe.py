"""Tic-tac-toe served over nullwindow's line protocol: the oracle searches a game through this
program alone, as it would an engine's own game in any language.

    nullwindow solve --engine 'python3 examples/protocol/tictactoe.py'

A position token is the board, nine characters row by row ('x', 'o', or '.'); a move is its
square, 1 to 9. X moves first; the evaluation, from the side to move, is 1 for a win, -1 for a
loss, 0 otherwise. The book's "Your game, your engine" page gives the protocol.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


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


for line in sys.stdin:
    request = line.split()
    if request == ["quit"]:
        break
    if request[0] == "protocol":
        answer = "protocol 1"
    elif request[0] == "root":
        answer = "........."
    elif request[0] == "children":
        answer = " ".join(f"{move} {child}" for move, child in children(request[1]))
    else:
        answer = str(evaluate(request[1]))
    print(answer, flush=True)
