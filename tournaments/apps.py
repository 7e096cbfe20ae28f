from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Tournament tables run by the tournament's rules; the table clock drives starts,
        # levels, eliminations and balancing (tables.services.table_rules, the one seam).
        from tables.services import table_rules

        from .services import clock, play

        table_rules.register(play.TournamentTableRules())
        table_rules.on_clock(clock.tick)
