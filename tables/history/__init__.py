"""Hand history: the hands a player played, a step-by-step replayer, the deck
reveal that proves a hand's fairness, and exports (PokerStars text, PHH) of one
hand, a range, or the whole history (README.md beside this file).

Everything a page or an export shows goes through ``access.open_hand``,
``access.own_complete_hands`` or ``access.every_own_complete_hand``, which decide
who may see a hand and which of its events they may see (``tables.engine.projection``).
"""
