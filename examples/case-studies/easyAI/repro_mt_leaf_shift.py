"""easyAI 2.0.12: SSS and DUAL move a leaf's score 0.99 toward zero per ply of depth left
(easyAI/AI/MTdriver.py, lines 38-39), so a result reached early loses almost a point per ply.

The game: MAX moves first. Move "a" ends the game at once, worth 5 to MAX. Move "b" leads, after
two forced replies, to a position the search evaluates at its horizon, worth 4 to MAX. Searched 3
plies deep, the exact value is 5 by "a"; Negamax agrees; SSS scores "a" 5 - 2 * 0.99 = 3.02 and
plays "b", worth 4. (DUAL never returns on this game: repro_dual_loops.py.)
"""

from easyAI import SSS, Negamax, TwoPlayerGame

TREE = {"": ["a", "b"], "b": ["bc"], "bc": ["bcd"]}
SCORE_FOR_MAX = {"a": 5, "bcd": 4}


class Game(TwoPlayerGame):
    def __init__(self):
        self.players, self.current_player, self.node = [None, None], 1, ""

    def possible_moves(self):
        return [child[-1] for child in TREE.get(self.node, [])]

    def make_move(self, move):
        self.node += move

    def is_over(self):
        return self.node not in TREE

    def scoring(self):  # from the side to move: MAX (player 1) or MIN
        score = SCORE_FOR_MAX.get(self.node, 0)
        return score if self.current_player == 1 else -score


if __name__ == "__main__":
    for ai in (Negamax(3), SSS(3)):
        move = ai(Game())
        print(f"{type(ai).__name__:8} value {ai.alpha:6.2f} move {move}")
