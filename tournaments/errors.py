class TournamentError(Exception):
    """A registration or staff request the tournament refused, with a message for the player."""
