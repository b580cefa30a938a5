"""Benchmark: the server CPU and the SQL statements of one player's action (``hand_act``).

    DATABASE_URL=postgres://dashain:dashain@127.0.0.1:5432/dashain_bench \\
    .venv/bin/python benchmarks/act_cpu.py [--actions 2000] [--tables 20] [--game faras holdem] [--profile N] [--orm]
        [--socket] [--turn-timer SECONDS] [--rebuild]

In one process, with Django set up against the database ``DATABASE_URL`` names (created
if missing; SQLite when unset), it opens tables of 4 through the services and then plays
``--actions`` actions by calling ``tables.services.hand_act`` for whoever is to act, with
a seeded random legal action, the tables taken in turn (so, as on a busy server, no
table is acted at twice in a row). The after-commit work runs as on the server: the state
cache's update and the screens (``tables.what_viewers_see``) built for the broadcast; the broadcast
itself is handed to a stub that keeps nothing, as on the server a service thread hands it
to the event loop (``tables.broadcast.layer_send``) and that is not this thread's work.
Hands that end deal the next at once (``DASHAIN_NEXT_HAND_DELAY=0``, as in
``benchmarks/live_load.py``); a hold'em game that ends is replaced by a new table, outside
the measure.

It prints the CPU time (``time.process_time``: the machine is shared and busy, and CPU
time is what load hardly moves) and the SQL statements per action (all of them, then the
actions that ended a hand, which deal the next at once, and the others apart), and the ratio of the
CPU per action to a **reference measured in the same run**: one transaction that runs
``SELECT 1`` through Django's connection (``transaction.atomic`` + ``cursor.execute``),
interleaved with the actions in blocks. That is the least any write to the database can
cost through Django and psycopg (BEGIN, one round trip, COMMIT), so the ratio says how
many such floors an action costs, and it moves with the machine's speed, not with the
code of the write path. Compare two versions of the code by their ratios (or their CPU
per action) measured in one sitting. Statements are counted with
``connection.execute_wrapper`` (BEGIN and COMMIT are not statements Django runs, so they
are not counted).

``--orm`` sends every statement through the ORM (the hand-written SQL of ``tables.sql`` and
``ledger.invariant_sql`` falls back to it, as on a database it does not know): run it and a
plain run in one sitting to see what the hand-written SQL saves; ``--orm-ledger`` sends only
the chip invariant's statement (``ledger.invariant_sql``) through it.

``--socket`` plays each action as a table's socket writes it: inside ``services.writes_for``
for its seat, so the write also checks, under the table's lock, that the seat is still the
socket's (issue 34). ``--turn-timer SECONDS`` opens the tables with that turn timer, so each
turn stores a deadline on the table clock (``tables.services.clock_schedule``; the Celery
task goes to the in-memory broker, no worker runs it). ``--rebuild`` empties the state
cache before each action (outside the measure), so each action rebuilds its hand from the
log, as the first move after another process wrote (the Celery worker dealt) does.

``--profile N`` runs cProfile (timed by ``process_time``) over the actions and prints the N
functions with the most time of their own and the N with the most cumulative time;
``--profile-file PATH`` also keeps the stats in ``PATH.<game>`` for ``pstats``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from tables.models import Table

BLOCK = 50  # actions (and reference transactions) per interleaved block


def _setup_django() -> None:
    os.environ["DASHAIN_NEXT_HAND_DELAY"] = "0"
    os.environ["DASHAIN_INPROCESS_WORKER"] = "false"
    os.environ.setdefault("DEBUG", "false")
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.pop("REDIS_URL", None)  # in-memory layers: no broadcast leaves this process
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        _ensure_database(url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _ensure_database(url: str) -> None:
    import psycopg

    base = url.partition("?")[0]
    name = base.rsplit("/", 1)[1]
    with psycopg.connect(base.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def _open_table(game: str, players: int, rng: random.Random, turn_timer: int | None = None) -> Table:
    from django.contrib.auth import get_user_model

    from benchmarks.seated import seated_table

    stamp = f"{int(time.time())}-{rng.randrange(10**9)}"
    users = [get_user_model().objects.create_user(username=f"act-{stamp}-{p}", password=None) for p in range(players)]
    choices: dict[str, int] = {"buy_in_chips": 10_000_000, "boot": 10} if game != "holdem" else {}
    if turn_timer:
        choices["turn_timer"] = turn_timer
    table, _seats = seated_table(users, game, choices)
    table.refresh_from_db()
    return table


def _next_action(table: Table, rng: random.Random) -> tuple[int, str, int | None] | None:
    """(seat id, verb, amount) for whoever is to act at ``table``, or ``None`` when its game
    is over. Read from the state cache the actions keep warm (no query), else from the log."""
    from engine.games import get_game
    from tables import selectors
    from tables.models import Table
    from tables.state_cache import state_cache_get

    game = get_game(table.game)
    cached = state_cache_get(table)
    state = cached.state if cached is not None else None
    if state is None or game.is_finished(state):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return None
        _hand, state, _seq = selectors.live_hand_and_state(table=table)
        if state is None:
            return None
    player = game.to_act(state)
    if player is None:
        return None
    choice = rng.choice(game.legal_actions(state, player))
    amount = None
    if choice.min is not None and choice.max is not None:
        amount = rng.choice([choice.min, choice.max])
    elif choice.min is not None:
        amount = choice.min
    return int(player), choice.verb, amount


def _live_hand_number(table: Table) -> int | None:
    """The number of the table's live hand as the state cache holds it (no query; 0: no live
    hand), ``None`` while the cache knows nothing of the table (before its first action): an
    action after which it differs ended a hand (and dealt the next, or ended the game)."""
    from tables.state_cache import state_cache_get

    cached = state_cache_get(table)
    if cached is None:
        return None
    return cached.hand.number if cached.hand is not None else 0


class _Counter:
    """Counts the SQL statements Django runs (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.statements = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements += 1
        return execute(sql, params, many, context)


def _reference(count: int) -> float:
    """CPU seconds of ``count`` one-statement transactions (the module's reference)."""
    from django.db import connection, transaction

    started = time.process_time()
    for _ in range(count):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return time.process_time() - started


def run(
    game: str,
    tables: int,
    actions: int,
    seed: int,
    profile: int,
    profile_file: str = "",
    *,
    socket: bool = False,
    turn_timer: int | None = None,
    rebuild: bool = False,
) -> dict[str, float]:
    from contextlib import nullcontext

    from django.db import connection

    from tables import broadcast as news_module
    from tables import services
    from tables.services import hand_act
    from tables.state_cache import state_cache_clear

    rng = random.Random(seed)
    open_tables = [_open_table(game, 4, rng, turn_timer) for _ in range(tables)]
    news_module.layer_send = lambda group, message: None  # the event loop's work, not this thread's
    counter = _Counter()
    profiler = cProfile.Profile(time.process_time) if profile else None
    cpu = reference = hand_end_cpu = 0.0
    done = refused = hand_ends = hand_end_statements = 0
    statements = 0
    turn = 0
    gc.collect()
    gc.freeze()  # as config/asgi.py does once the server has started
    with connection.execute_wrapper(counter):
        while done < actions:
            block = min(BLOCK, actions - done)
            counter.statements = 0
            reference += _reference(block)
            ref_statements = counter.statements
            played = 0
            while played < block:
                table = open_tables[turn % len(open_tables)]
                turn += 1
                picked = _next_action(table, rng)
                if picked is None:  # the game is over (hold'em): a new table, outside the measure
                    open_tables[open_tables.index(table)] = _open_table(game, 4, rng, turn_timer)
                    continue
                seat_id, verb, amount = picked
                before = counter.statements
                hand_before = _live_hand_number(table)
                holder = services.SeatHolder(seat_id=seat_id, guest_token=None) if socket else None
                if rebuild:
                    state_cache_clear()
                if profiler is not None:
                    profiler.enable()
                started = time.process_time()
                try:
                    with services.writes_for(holder) if socket else nullcontext():
                        hand_act(table_id=table.pk, seat_id=seat_id, verb=verb, amount=amount)
                except services.ServiceError:
                    refused += 1
                spent = time.process_time() - started
                cpu += spent
                if profiler is not None:
                    profiler.disable()
                statements += counter.statements - before
                if hand_before is not None and _live_hand_number(table) != hand_before:  # it ended the hand
                    hand_ends += 1
                    hand_end_cpu += spent
                    hand_end_statements += counter.statements - before
                played += 1
            done += block
            assert ref_statements == block
    if profiler is not None:
        if profile_file:
            profiler.dump_stats(f"{profile_file}.{game}")
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(profile)
            print(out.getvalue())
    return {
        "cpu_ms": 1000 * cpu / actions,
        "reference_ms": 1000 * reference / actions,
        "statements": statements / actions,
        "refused": refused,
        "hand_end_ms": 1000 * hand_end_cpu / max(hand_ends, 1),
        "hand_ends": hand_ends,
        "hand_end_statements": hand_end_statements / max(hand_ends, 1),
        "other_ms": 1000 * (cpu - hand_end_cpu) / max(actions - hand_ends, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--game", nargs="+", default=["faras", "holdem"])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument(
        "--profile-file", default="", metavar="PATH", help="with --profile: also keep the stats in PATH.GAME"
    )
    parser.add_argument(
        "--orm",
        action="store_true",
        help="every statement through the ORM (tables.sql and ledger.invariant_sql as on an unknown database)",
    )
    parser.add_argument(
        "--orm-ledger",
        action="store_true",
        help="only the chip invariant's statement through the ORM (ledger.invariant_sql), tables.sql as it is",
    )
    parser.add_argument("--socket", action="store_true", help="each action inside services.writes_for, as a socket's")
    parser.add_argument("--turn-timer", type=int, default=None, metavar="SECONDS", help="the tables' turn timer")
    parser.add_argument("--rebuild", action="store_true", help="each action rebuilds its hand from the log")
    args = parser.parse_args()
    _setup_django()
    from django.db import connection

    if args.orm or args.orm_ledger:
        from ledger import invariant_sql
        from tables.sql import read, write

        for module in (invariant_sql,) if args.orm_ledger and not args.orm else (read, write, invariant_sql):
            module.SUPPORTED_VENDORS = frozenset()  # type: ignore[attr-defined]

    path = "the ORM" if args.orm else "tables.sql, the invariant through the ORM" if args.orm_ledger else "tables.sql"
    print(
        f"{connection.vendor} through {path}, {args.actions} actions a game over {args.tables} tables of 4, "
        f"seed {args.seed}{', as sockets' if args.socket else ''}"
        f"{f', turn timer {args.turn_timer} s' if args.turn_timer else ''}"
        f"{', each hand rebuilt from the log' if args.rebuild else ''}"
    )
    print(
        "game     CPU/action  reference  ratio  statements/action  refused"
        "  | hand ends  CPU/hand end  ratio  statements  | other actions' CPU"
    )
    for game in args.game:
        result = run(
            game,
            args.tables,
            args.actions,
            args.seed,
            args.profile,
            args.profile_file,
            socket=args.socket,
            turn_timer=args.turn_timer,
            rebuild=args.rebuild,
        )
        print(
            f"{game:8} {result['cpu_ms']:7.3f} ms  {result['reference_ms']:6.3f} ms  "
            f"{result['cpu_ms'] / result['reference_ms']:5.2f}  {result['statements']:17.2f}  {result['refused']:7}"
            f"  | {result['hand_ends']:9}  {result['hand_end_ms']:9.3f} ms  "
            f"{result['hand_end_ms'] / result['reference_ms']:5.1f}  {result['hand_end_statements']:10.2f}"
            f"  | {result['other_ms']:7.3f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
