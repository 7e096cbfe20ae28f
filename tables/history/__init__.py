"""Hand history: the hands a player played, a step-by-step replayer, the deck
reveal that proves a hand's fairness, and exports (PokerStars text, PHH).

Everything a page or an export shows goes through ``access.open_hand`` or
``access.own_complete_hands``, which decide who may see a hand and which of
its events they may see (``tables.engine.projection``).
"""
