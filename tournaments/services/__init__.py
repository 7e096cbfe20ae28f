"""Tournament writes (RULES 8): registration, the start, play between hands, prizes, cancellation.

Lock order, everywhere: the tournament's tables (by primary key), then the tournament's row.
A hand at a tournament table locks only its table (tables.services), so nothing waits in a
circle.
"""
