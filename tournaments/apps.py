from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Tournament tables run by the tournament's rules; the table clock drives starts,
        # levels, eliminations and balancing (tables.services.table_rules, the one seam).
        from tables.history import tournament_facts
        from tables.services import table_rules

        from .hand_facts import tournament_hand_facts
        from .services import clock, play

        table_rules.register(play.TournamentTableRules())
        table_rules.on_clock(clock.tick)
        # Their hands' histories: tournament, buy-in, level and finishing places (tables/history/README.md).
        tournament_facts.register(tournament_hand_facts)
