"""easyAI 2.0.12: SSS and DUAL document a `scoring` argument ("A function f(game)-> score. If no
scoring is provided and the game object has a ``scoring`` method it ill be used", sic:
easyAI/AI/SSS.py lines 23-25, DUAL.py lines 22-24), but the search they run calls
`game.scoring()` and never the function (easyAI/AI/MTdriver.py, line 36). Negamax takes the same
argument and uses it.
"""

from easyAI import DUAL, SSS, Negamax
from easyAI.games import Nim


def scoring(game):
    return 100 if game.win() else 0


class NimWithoutScoring(Nim):
    scoring = None  # the function below is the only scoring there is


for make in (Negamax, SSS, DUAL):
    ai = make(2, scoring)
    try:
        move = ai(NimWithoutScoring(piles=(1, 2)))
        print(f"{make.__name__:8} move {move} value {ai.alpha}")
    except TypeError as error:
        print(f"{make.__name__:8} {type(error).__name__}: {error}")
