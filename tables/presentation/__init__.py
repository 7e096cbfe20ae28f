"""What the lobby and table pages show, built from the database and the engine.

Nothing here decides a rule: amounts, turns, pots and who may do what come
from the engine (``view_for``, ``legal_actions``); these modules only name,
arrange and label them for one viewer.
"""
