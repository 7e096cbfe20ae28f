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
        from .realtime import push
        from .services import clock, notify, play

        table_rules.register(play.TournamentTableRules())
        table_rules.on_clock(clock.tick)
        # Their hands' histories: tournament, buy-in, level and finishing places (tables/history/README.md).
        tournament_facts.register(tournament_hand_facts)
        # The tournament lobby's sockets and the start alerts (``tournaments.realtime``).
        notify.subscribe(push.on_tournament_change)
        notify.subscribe_started(push.on_tournament_started)
