"""easyAI 2.0.12: DUAL never returns on the game of repro_mt_leaf_shift.py, searched 3 plies.

Its driver (easyAI/AI/MTdriver.py, lines 100-111) stops only when the lower and upper bounds meet,
and DUAL's next test (easyAI/AI/DUAL.py, line 65) is always the last result plus 1. The leaf shift
makes the root's first result 3.02, a lower bound; the next test, at 4.02, fails low with 4.0; every
later test is at 5.0 and fails low with 4.0 again, so the bounds stay 3.02 and 4.0 forever. This
script prints the first passes (each test's gamma, the bound less easyAI's eps of 0.001) and stops
the search after 12.
"""

import easyAI.AI.MTdriver as driver
from easyAI import DUAL

from repro_mt_leaf_shift import Game

test, passes = driver.mt, []


def counted(game, gamma, depth, orig_depth, scoring, tt=None):
    result = test(game, gamma, depth, orig_depth, scoring, tt)
    if depth == orig_depth:
        passes.append((gamma, result))
        print(f"pass {len(passes):2}: test at {gamma:.3f} returned {result:.2f}")
        if len(passes) == 12:
            raise SystemExit("DUAL has not returned after 12 passes")
    return result


driver.mt = counted
DUAL(3)(Game())
