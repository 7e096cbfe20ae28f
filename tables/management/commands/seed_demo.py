from django.core.management.base import BaseCommand

from tables.models import Table

# The demo tables give every player a time bank: 30 s to start, 5 s more every 10 hands, up to 60 s.
TIME_BANK = {
    "time_bank_initial_seconds": 30,
    "time_bank_refill_seconds": 5,
    "time_bank_refill_hands": 10,
    "time_bank_cap_seconds": 60,
}
DEMO_TABLES = [
    {
        "name": "Limit 10/20",
        "variant": Table.Variant.LIMIT,
        "stake_small": 10,
        "stake_big": 20,
        "seat_count": 6,
        "min_buy_in": 200,
        "max_buy_in": 1000,
        **TIME_BANK,
    },
    {
        "name": "Pot Limit 1/2",
        "variant": Table.Variant.POT_LIMIT,
        "stake_small": 1,
        "stake_big": 2,
        "seat_count": 6,
        "min_buy_in": 40,
        "max_buy_in": 200,
        **TIME_BANK,
    },
    {
        "name": "Pot Limit 5/10 heads-up",
        "variant": Table.Variant.POT_LIMIT,
        "stake_small": 5,
        "stake_big": 10,
        "seat_count": 2,
        "min_buy_in": 200,
        "max_buy_in": 1000,
        **TIME_BANK,
    },
    {
        "name": "Limit 2/4 full ring",
        "variant": Table.Variant.LIMIT,
        "stake_small": 2,
        "stake_big": 4,
        "seat_count": 10,
        "min_buy_in": 40,
        "max_buy_in": 400,
        **TIME_BANK,
    },
]


class Command(BaseCommand):
    help = "Create the demo tables (idempotent): Limit and Pot Limit Omaha High."

    def handle(self, *args, **options):
        for spec in DEMO_TABLES:
            table, created = Table.objects.get_or_create(name=spec["name"], defaults=spec)
            if created:
                table.full_clean()
            self.stdout.write(f"{'created' if created else 'kept'} {table.name}")
