"""Tournament hand histories read by fpdb's own PokerStars parser: stakes, levels, tournament,
buy-in and finishing places (tables/history/README.md, "Tournament hands").

``python -m bench.fpdb_check /tmp/fpdb --deps /tmp/fpdb-deps`` (from the repository root, in
.venv) recreates a database (default ``poker_bench_fpdb``), flushes a Redis database, and plays
sit & goes to the end through the tournaments' services (``tests/tournaments/support.py``: random
legal actions, one round a minute of the tournament clock, one-minute levels so that the big
blind ante levels come, RULES 8.3, 8.4): one Pot Limit and one Limit, four players each. Every
player then downloads their whole history as they would (``/hands/history.txt``), and each file
is parsed by fpdb's ``PokerStarsToFpdb.PokerStars`` the way fpdb's regression harness runs it
(``test/test_live_parser_regression.py``: ``PokerStars(config=Config(), in_path=..., autostart=True)``).
For every hand it checks what fpdb read against the database: the hand number, the tournament
number, the buy-in and fee (play chips, fpdb's hundredths), the level (Roman), the stakes, the
seats and their chips, the pot equation (collected + rake = total pot), and the finishing
places and prizes; and that every player's place is read, the same in every file that holds it.

fpdb is not a dependency of the room and is never committed: bring a checkout outside the
repository (``git archive`` of https://github.com/jejellyroll-fr/fpdb-3 into /tmp/fpdb) and its
parser's imports into a directory of their own (``pip install --target /tmp/fpdb-deps defusedxml
colorlog pytz PySide6``). Without the checkout the check says so and exits 0 (skipped). fpdb
writes its configuration under $HOME: the check points HOME at a temporary directory.
Exit status 1 when any hand is not parsed or read with a wrong value.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

VARIANTS = {
    # (small, big, ante, minutes) per level: Pot Limit small/big blind, Limit small/big bet (RULES 7.1, 7.2).
    "pot_limit": [(10, 20, 0, 1), (15, 30, 0, 1), (25, 50, 50, 1), (50, 100, 100, 1), (100, 200, 200, 1)],
    "limit": [(20, 40, 0, 1), (30, 60, 0, 1), (50, 100, 50, 1), (100, 200, 100, 1), (200, 400, 200, 1)],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fpdb_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("fpdb", nargs="?", help="an fpdb checkout (fpdb_3_legacy/PokerStarsToFpdb.py in it)")
    parser.add_argument("--deps", help="a directory holding fpdb's parser imports (pip install --target)")
    parser.add_argument("--db", default="poker_bench_fpdb", help="database name, dropped and recreated")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14", help="Redis database, flushed")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", help="a directory to keep the exported files in")
    args = parser.parse_args(argv)
    if not args.fpdb:
        print("SKIPPED: no fpdb checkout given; see python -m bench.fpdb_check --help")
        return 0
    if not (Path(args.fpdb) / "fpdb_3_legacy" / "PokerStarsToFpdb.py").is_file():
        print(f"SKIPPED: no fpdb checkout at {args.fpdb} (no fpdb_3_legacy/PokerStarsToFpdb.py in it)")
        return 0
    sys.path[:0] = [str(Path(args.fpdb).resolve()), *([str(Path(args.deps).resolve())] if args.deps else [])]
    os.environ["HOME"] = tempfile.mkdtemp(prefix="fpdb-home-")  # fpdb's ~/.fpdb and logs, not the user's

    from .load.stack import database_url, flush_redis_db, recreate_database

    os.environ.update(DATABASE_URL=database_url(args.db), REDIS_URL=args.redis, CACHE_URL=args.redis,
                      DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", HAND_PAUSE_SECONDS="0",
                      LOG_LEVEL="ERROR")  # fmt: skip
    os.environ.setdefault("SECRET_KEY", "bench-fpdb-check-secret-key-not-for-production-7a6b5c4d3e2f")
    recreate_database(args.db)
    flush_redis_db(args.redis)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    out = Path(args.keep or tempfile.mkdtemp(prefix="fpdb-check-"))
    out.mkdir(parents=True, exist_ok=True)
    parsed = right = written = 0
    problems: list[str] = []
    for variant, levels in VARIANTS.items():
        tournament, files = play_and_export(variant, levels, args.players, random.Random(args.seed), out)
        counts = check_with_fpdb(tournament, files, problems)
        written, parsed, right = written + counts[0], parsed + counts[1], right + counts[2]
    print(f"fpdb read {right} of {written} tournament hand texts with the right values ({parsed} parsed)")
    print(f"files: {out}")
    if problems or right != written:
        print("FAILED:\n  " + "\n  ".join(problems[:40]), file=sys.stderr)
        return 1
    print("PASSED")
    return 0


def play_and_export(variant: str, levels: list, players: int, rng: random.Random, out: Path):
    """A sit & go played to the end; each player's whole history as they download it."""
    from django.utils import timezone

    from tables.history.history_files import pokerstars_history
    from tests.tournaments.support import make_tournament, play_to_the_end, register

    from .load.world import make_user

    tournament = make_tournament(variant=variant, max_entrants=players, levels=levels, name=f"fpdb {variant}")
    users = [make_user(f"{variant[:2]}{name}") for name in ("alice", "bob", "carol", "dave", "erin", "fred")[:players]]
    for user in users:
        register(tournament, user)
    play_to_the_end(tournament, rng, timezone.now(), step=timedelta(seconds=20))
    files = {}
    for user in users:
        path = out / f"{variant}-{user.username}.txt"
        path.write_text("".join(pokerstars_history(user)), encoding="utf-8")
        files[user] = path
    return tournament, files


def check_with_fpdb(tournament, files: dict, problems: list[str]) -> tuple[int, int, int]:
    """(hand texts written, parsed by fpdb, read with every value right)."""
    from fpdb_3_legacy.Configuration import Config
    from fpdb_3_legacy.PokerStarsToFpdb import PokerStars

    from tables.history.numbering import exported_hand_number, exported_tournament_number, installation_number
    from tables.history.pokerstars_tournament import roman
    from tables.models import Hand, HandPlayer
    from tournaments.models import BlindLevel, Result

    installation = installation_number()
    config = Config()
    number = exported_tournament_number(installation, tournament.pk)
    levels = {level.number: level for level in BlindLevel.objects.filter(tournament=tournament)}
    hands = {exported_hand_number(installation, hand.pk): hand for hand in Hand.objects.filter(
        table__tournament_table__tournament=tournament, state=Hand.State.COMPLETE)}  # fmt: skip
    places = {r.player.username: (r.place, r.prize) for r in Result.objects.filter(tournament=tournament)}
    read_places: dict[str, list[tuple[int, int | None]]] = {}
    written = parsed = right = 0
    for path in files.values():
        text = path.read_text(encoding="utf-8")
        written += text.count("PokerStars Hand #")
        fpdb_hands = PokerStars(config=config, in_path=str(path), autostart=True).getProcessedHands()
        parsed += len(fpdb_hands)
        for read in fpdb_hands:
            before = len(problems)
            hand = hands.get(int(read.handid))
            if hand is None:
                problems.append(f"{path.name}: fpdb read a hand number we never wrote: {read.handid}")
                continue
            level = levels[hand.tournament_level]
            # fpdb files a Limit tournament's stakes as half the big bet / the big bet (its _adjustCurrencyAndBlinds),
            # Pot Limit's as the blinds.
            want_sb, want_bb = (
                (Decimal(level.big) / 2, level.big) if tournament.variant == "limit" else (level.small, level.big)
            )
            seats = {hp.player.username: (hp.seat, hp.starting_stack) for hp in HandPlayer.objects.filter(hand=hand)}
            expect(problems, path, read, "tournament number", int(read.tourNo), number)
            expect(problems, path, read, "buy-in", (read.buyin, read.fee, read.buyinCurrency),
                   (tournament.buy_in * 100, tournament.fee * 100, "play"))  # fmt: skip
            expect(problems, path, read, "level", read.level, roman(level.number))
            expect(problems, path, read, "game", (read.gametype["type"], read.gametype["category"],
                   read.gametype["limitType"]), ("tour", "omahahi", "fl" if tournament.variant == "limit" else "pl"))  # fmt: skip
            expect(problems, path, read, "stakes", (Decimal(read.gametype["sb"]), Decimal(read.gametype["bb"])),
                   (Decimal(want_sb), Decimal(want_bb)))  # fmt: skip
            expect(problems, path, read, "seats", {p[1]: (int(p[0]), int(Decimal(p[2]))) for p in read.players}, seats)
            collected = sum(Decimal(str(amount)) for amount in read.collectees.values())
            expect(problems, path, read, "pot", collected + Decimal(str(read.rake)), Decimal(str(read.totalpot)))
            for name, place in read.tourneyRanks.items():
                won = read.tourneyWinnings.get(name)
                read_places.setdefault(name, []).append((place, None if won is None else won // 100))
                want = places.get(name)
                if want is None or want[0] != place or (won or 0) != want[1] * 100:
                    problems.append(f"{path.name} #{read.handid}: {name} placed {place}, {won}; the room: {want}")
            right += len(problems) == before
    for name, (place, prize) in places.items():
        seen = set(read_places.get(name, []))
        if len(seen) != 1 or next(iter(seen))[0] != place:
            problems.append(f"{tournament.variant}: {name} finished {place} ({prize}); fpdb read {sorted(seen)}")
    return written, parsed, right


def expect(problems: list[str], path: Path, read, what: str, got, want) -> None:
    if got != want:
        problems.append(f"{path.name} #{read.handid}: {what}: fpdb read {got!r}, the room has {want!r}")


if __name__ == "__main__":
    sys.exit(main())
