"""Reads: everything the room shows or decides from is read through here.

Services read through these as well as presentation, history, views and audits; nothing
here writes. ``hands`` (a hand's event log, its replay, the running hand), ``table_state``
(one table at one version, what every screen of it is made from), ``lobby`` (the lobby's
rows), ``chips`` (a player's chips at tables, for the cashier).
"""
