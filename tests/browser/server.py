"""The real site for the browser tests: daphne (HTTP + WebSockets through Channels) on a test database.

Run as subprocesses by ``tests/browser/conftest.py``::

    python -m tests.browser.server PORT WORKDIR      the web server
    python -m tests.browser.server worker WORKDIR    its Celery worker (only with REDIS_URL)
    python -m tests.browser.server scenario NAME WORKDIR
                                                     data for a page, made through the services
    python -m tests.browser.server scenarios WORKDIR the same for each name read from stdin, one
                                                     a line, each answered by one line on stdout
                                                     (the harness keeps one such process: Django
                                                     starts once, not once a scenario)

The services are the ones the fixture passes in the environment, as in production:

- ``DATABASE_URL``: a database made for this run (under CI, a PostgreSQL database
  ``test_<name>_browser`` that the fixture creates and drops); a SQLite file under
  WORKDIR when it is not set.
- ``REDIS_URL`` set: channels-redis and Celery on Redis, and turn reminders and the next
  hand run in the separate worker process, as production's ``celery -A config worker``.
  ``DASHAIN_BROWSER_RUN`` names this run's channel-layer prefix and Celery queue, so no
  other run on the same Redis sees its messages or takes its tasks.
  Without REDIS_URL: the in-memory channel layer and the worker thread in the web process
  (README's default setup).

The server migrates, creates the test users with a logged-in session each (their session
keys go to WORKDIR/sessions.json, so a browser context can start signed in without
depending on the login page), makes new tables' secret seeds fixed (so every deal is the
same on every run), writes the backends it runs on to WORKDIR/services.json, then serves
until killed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

#: Users the browser tests sign in as (username -> display name).
TEST_USERS = {"hostuser": "Asha", "bikash": "Bikash", "chandra": "Chandra", "deepa": "Deepa"}
#: The seed every table gets in the browser tests (32 bytes), so deals repeat exactly.
FIXED_SEED = bytes(range(32))


def _prepare_environment(workdir: Path) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'browser.sqlite3'}")
    os.environ["DEBUG"] = "0"  # as scripts/serve runs: the site's own error pages, static files by WhiteNoise
    os.environ["HTTPS_ONLY"] = "0"
    os.environ["DASHAIN_INPROCESS_WORKER"] = "0" if os.environ.get("REDIS_URL") else "1"
    # Computers act after a short pause in every browser test (the host's own choice is 1 to
    # 5 seconds): their turns still go through the table clock, only sooner.
    os.environ.setdefault("DASHAIN_COMPUTER_PAUSE", "0.2")
    # The host's "End the game" during a hand: the hand is played out, each turn limited to
    # this (the clock plays the away action for whoever does not act), then the game ends.
    os.environ.setdefault("DASHAIN_ENDING_TURN_SECONDS", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # This run's own names on Redis: the channel layer's and the cache's (docs/deployment.md).
    os.environ["DASHAIN_REDIS_PREFIX"] = _queue_name() + "."


def _queue_name() -> str:
    return f"dashain-browser-{os.environ.get('DASHAIN_BROWSER_RUN', 'manual')}"


def _isolate_redis() -> None:
    """With Redis: this run's own Celery queue (web server and worker alike); its own names on
    Redis come from DASHAIN_REDIS_PREFIX (``_prepare_environment``)."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return
    from config.celery import app

    settings.CELERY_TASK_DEFAULT_QUEUE = _queue_name()
    app.conf.task_default_queue = _queue_name()


def _write_services(workdir: Path) -> None:
    """What the server runs on, for the harness test to check against the configured services."""
    from django.conf import settings
    from django.db import connection

    services = {
        "database": connection.vendor,
        "database_name": connection.settings_dict["NAME"],
        "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
        "broker": settings.CELERY_BROKER_URL.split(":", 1)[0],
        "inprocess_worker": settings.DASHAIN_INPROCESS_WORKER,
    }
    (workdir / "services.json").write_text(json.dumps(services))


def _create_users_and_sessions(workdir: Path) -> None:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

    user_model = get_user_model()
    # Hashed once for the four (the site's hasher takes 0.6 to 0.9 s a hash on a loaded 2-core
    # machine, on purpose): each user still has the same usable password.
    password = make_password("browser-test-pass")
    sessions = {}
    for username, display_name in TEST_USERS.items():
        user = user_model.objects.create(
            username=username,
            password=password,
            display_name=display_name,
            email=f"{username}@example.test",  # the home game's e-mails reach the test's SMTP server
        )
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[username] = session.session_key
    (workdir / "sessions.json").write_text(json.dumps(sessions))


def _fix_table_seeds() -> None:
    """Every new table gets FIXED_SEED as its secret seed (the services draw it from ``secrets``)."""
    from django.db.models.signals import pre_save

    from tables.models import Table

    def fixed_seed(sender, instance, **kwargs):
        if instance.pk is None:
            instance.secret_seed = FIXED_SEED
            import hashlib

            instance.seed_commitment = hashlib.sha256(FIXED_SEED).hexdigest()

    pre_save.connect(fixed_seed, sender=Table, weak=False)


def _control_next_hand_delay(workdir: Path, *, reset: bool = True) -> None:
    """The pause before the next deal is read from WORKDIR/next_hand_delay (seconds) at each hand's end.

    By default the next hand waits an hour, so a finished hand's result stays on the pages
    for the test to read; a test that plays on writes a shorter pause first. (The worker
    reads the same file: a hand it deals may end at once.)
    """
    from tables.services import between_hands as hands

    delay_file = workdir / "next_hand_delay"
    if reset or not delay_file.exists():
        delay_file.write_text("3600")
    hands.next_hand_delay = lambda table=None: float(delay_file.read_text().strip() or "3600")


def _control_table_codes(workdir: Path) -> None:
    """A new table takes the code the test wrote to WORKDIR/next_table_code (used once).

    Each hand's deck is derived from the table's secret seed *and its code*, so a fixed
    seed alone would still deal differently under the random codes; with both fixed, every
    test deals the same cards whatever runs before it. Without a code asked for, codes are
    numbered (TEST001, ...).
    """
    import itertools

    from tables.services import hosting

    code_file = workdir / "next_table_code"
    numbers = itertools.count(1)

    def next_code() -> str:
        if code_file.exists():
            code = code_file.read_text().strip()
            code_file.unlink()
            if code:
                return code
        return f"TEST{next(numbers):03d}"

    hosting._new_code = next_code


def serve(port: int, workdir: Path) -> None:
    _prepare_environment(workdir)
    import django

    django.setup()
    from django.core.management import call_command

    from tests.high_ids import start_all_ids_high

    _isolate_redis()
    _control_next_hand_delay(workdir)
    _control_table_codes(workdir)
    call_command("migrate", verbosity=0, interactive=False)
    start_all_ids_high()
    _create_users_and_sessions(workdir)
    _fix_table_seeds()
    _write_services(workdir)
    call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, use_threading=True, skip_checks=True)


def work(workdir: Path) -> None:
    """The Celery worker process beside the server (with REDIS_URL), on this run's queue only."""
    _prepare_environment(workdir)
    import django

    django.setup()
    _isolate_redis()
    _control_next_hand_delay(workdir, reset=False)
    import tables.celery_tasks  # noqa: F401  (registers the tasks)
    from config.celery import app

    app.worker_main(
        [
            "worker",
            "--pool",
            "solo",
            "--queues",
            _queue_name(),
            "--hostname",
            f"{_queue_name()}@localhost",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel",
            "INFO",
        ]
    )


def _play_hands(table, seats, *, hands: int, seed: int) -> None:
    """Random legal play through the services until ``hands`` hands have finished (next deal at once)."""
    import random

    from engine.games import get_game
    from tables import selectors
    from tables.models import Hand
    from tables.services import hand_act

    rng = random.Random(seed)
    by_name = {seat.engine_name: seat for seat in seats}
    game = get_game(table.game)
    for _step in range(2000):
        table.refresh_from_db()
        hand = selectors.hand_live(table=table)
        if hand is None or Hand.objects.filter(table=table, ended_at__isnull=False).count() >= hands:
            return
        state, _seq = selectors.hand_state(table=table, hand=hand)
        player = game.to_act(state)
        legal = game.legal_actions(state, player)
        # Lean away from packing at once, so hands reach a show now and then.
        choice = rng.choices(
            legal, weights=[0.3 if option.verb in ("pack", "fold", "allin") else 1.0 for option in legal]
        )[0]
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=choice.verb, amount=choice.min)
    raise RuntimeError("random play did not finish the hands")


#: A long name a guest may give (names are at most 40 characters: accounts.names).
LONG_NAME = "Guest {number:02d} Ramchandra Bahadur Shrestha Thapa"


def _full_table(host, game: str, count: int, *, long_names: bool = False) -> str:
    import secrets

    from engine.games import get_game
    from tables import selectors
    from tables.services import hand_act, seat_take, table_create, table_join, table_start

    table = table_create(host=host, game=game, choices={"seats": count})
    seats = [table_join(code=table.code, invite_token=table.invite_token, user=host)]
    seats += [
        table_join(
            code=table.code,
            invite_token=table.invite_token,
            guest_name=LONG_NAME.format(number=number)[:40] if long_names else f"Guest {number:02d}",
            guest_token=secrets.token_urlsafe(24),
        )
        for number in range(1, count)
    ]
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    rules = get_game(game)
    for _turn in range(count):
        hand = selectors.hand_live(table=table)
        state, _seq = selectors.hand_state(table=table, hand=hand)
        player = rules.to_act(state)
        if player == str(seats[0].pk):
            break
        verbs = [option.verb for option in rules.legal_actions(state, player)]
        verb = next(verb for verb in ("chaal", "call", "check") if verb in verbs)
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb)
    return table.code


def _blind_limit_table(host, friend) -> dict[str, str]:
    """A Faras table of two (the host and ``friend``) where both bet blind until one has used
    up the blind turns (book 000: four by default): that player is to act, with See and Pack left."""
    from engine.games import get_game
    from tables import selectors
    from tables.services import hand_act, seat_take, table_create, table_join, table_start

    table = table_create(host=host, game="faras", choices={})
    seats = [table_join(code=table.code, invite_token=table.invite_token, user=user) for user in (host, friend)]
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    rules = get_game("faras")
    by_name = {seat.engine_name: seat for seat in seats}
    for _turn in range(20):
        hand = selectors.hand_live(table=table)
        state, _seq = selectors.hand_state(table=table, hand=hand)
        player = rules.to_act(state)
        if "chaal" not in [option.verb for option in rules.legal_actions(state, player)]:
            return {"code": table.code, "username": by_name[player].user.username}
        hand_act(table_id=table.pk, seat_id=int(player), verb="chaal")
    raise RuntimeError("the blind turns were never used up")


def _phone_between_hands(host) -> dict[str, str]:
    """hostuser hosts a Faras table (1,000 chips for 10.00) played on the host's phone by Bina
    and Kiran: one hand played (the first to act packs), and the next deal an hour away. Prints
    the code and who is short (below one buy-in) and who is not."""
    from engine.games import get_game
    from tables import selectors
    from tables.models import Seat
    from tables.services import between_hands as hand_services
    from tables.services import hand_act, local_player_add, table_create, table_join, table_start

    hand_services.next_hand_delay = lambda table=None: 3600.0
    table = table_create(host=host, game="faras", choices={})
    owner = table_join(code=table.code, invite_token=table.invite_token, user=host)
    local = [local_player_add(table_id=table.pk, seat_id=owner.pk, name=name) for name in ("Bina", "Kiran")]
    table_start(table_id=table.pk, seat_id=owner.pk)
    hand = selectors.hand_live(table=table)
    state, _seq = selectors.hand_state(table=table, hand=hand)
    hand_act(table_id=table.pk, seat_id=int(get_game("faras").to_act(state)), verb="pack")
    stacks = {seat.display_name: seat.stack for seat in Seat.objects.filter(pk__in=[seat.pk for seat in local])}
    return {
        "code": table.code,
        "short": min(stacks, key=lambda name: stacks[name]),
        "full": max(stacks, key=lambda name: stacks[name]),
    }


def _season(host, users) -> dict[str, object]:
    """``season``: hostuser, bikash, chandra and deepa play three Faras nights (a few hands
    each, fixed seeds) of a home game settled once a season; prints its id."""
    from homegames.models import HomeGame
    from homegames.services_members import home_game_add_table, home_game_create, home_game_join
    from homegames.services_seasons import home_game_set_settle_by
    from tables.services import seat_take, table_create, table_join, table_start
    from tests.tables.conftest import end_game

    home_game = home_game_create(name="Season cards", host=host)
    for username in ("bikash", "chandra", "deepa"):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=users[username])
    home_game_set_settle_by(home_game=home_game, settle_by=HomeGame.SettleBy.SEASON, by=host)
    for night in range(3):
        table = table_create(host=host, game="faras", choices={"buy_in_price": "10.00", "buy_in_chips": 1000})
        seats = [table_join(code=table.code, invite_token=table.invite_token, user=host)]
        seats += [
            table_join(code=table.code, invite_token=table.invite_token, user=users[username])
            for username in ("bikash", "chandra", "deepa")
        ]
        for seat in seats:
            seat_take(table_id=table.pk, seat_id=seat.pk)
        table_start(table_id=table.pk, seat_id=seats[0].pk)
        seats = [type(seat).objects.get(pk=seat.pk) for seat in seats]
        _play_hands(table, seats, hands=3, seed=11 + night)
        end_game(table, seats[0].pk)
        home_game_add_table(home_game=home_game, table=table, by=host)
    return {"home_game": home_game.pk}


def _planned_night(host, users) -> dict[str, object]:
    """``planned-night``: hostuser's home game "Kitchen friends" with bikash, a Faras template
    of 1,000 chips for 10.00 USD and a night planned tonight with it (three hours ahead: its
    table may be opened); returns the night's page."""
    from datetime import timedelta

    from django.utils import timezone

    from homegames.services import night_schedule, night_template_save
    from homegames.services_members import home_game_create, home_game_join

    home_game = home_game_create(name="Kitchen friends", host=host)
    home_game_join(home_game=home_game, token=home_game.invite_token, user=users["bikash"])
    choices = {"seats": 6, "boot": 10, "buy_in_chips": 1000, "buy_in_price": "10.00", "currency": "USD"}
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=choices, by=host)
    night = night_schedule(
        home_game=home_game,
        template=template,
        starts_at=timezone.now() + timedelta(hours=3),
        time_zone="UTC",
        place="Asha's kitchen",
        seat_limit=6,
        by=host,
    )
    return {"page": f"/home-games/{home_game.pk}/nights/{night.pk}/"}


def _guest_night(host, users) -> dict[str, object]:
    """``guest-night``: hostuser's home game "Guest night" with bikash and chandra; one night
    (a Faras table, a few hands, ended) where hostuser and bikash sat with their accounts and
    Gita as a guest; returns the home game's id."""
    import secrets

    from homegames.services_members import home_game_add_table, home_game_create, home_game_join
    from tables.services import seat_take, table_create, table_join, table_start
    from tests.tables.conftest import end_game

    home_game = home_game_create(name="Guest night", host=host)
    for username in ("bikash", "chandra"):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=users[username])
    table = table_create(host=host, game="faras", choices={"buy_in_price": "10.00", "buy_in_chips": 1000})
    seats = [
        table_join(code=table.code, invite_token=table.invite_token, user=user) for user in (host, users["bikash"])
    ]
    seats.append(
        table_join(
            code=table.code, invite_token=table.invite_token, guest_name="Gita", guest_token=secrets.token_urlsafe(24)
        )
    )
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    seats = [type(seat).objects.get(pk=seat.pk) for seat in seats]
    _play_hands(table, seats, hands=2, seed=21)
    end_game(table, seats[0].pk)
    home_game_add_table(home_game=home_game, table=table, by=host)
    return {"home_game": home_game.pk}


#: The start of the line on stdout that answers a scenario (``scenarios``): the JSON follows.
SCENARIO_ANSWER = "scenario-answer: "


def _scenario_setup(workdir: Path) -> None:
    _prepare_environment(workdir)
    import django

    django.setup()
    _isolate_redis()
    from tables.services import between_hands as hand_services

    hand_services.next_hand_delay = lambda table=None: 0.0


def scenario(workdir: Path, name: str) -> None:
    """Build a page's data in the server's own database (``scenario_data``) and print it as JSON."""
    _scenario_setup(workdir)
    print(json.dumps(scenario_data(name)))


def scenarios(workdir: Path) -> None:
    """``scenario_data`` for each name read from stdin, one a line, until stdin closes. Each is
    answered by one line on stdout, ``SCENARIO_ANSWER`` and its JSON: the data, or
    ``{"error": traceback}``. Each starts as in a process of its own: a fresh database
    connection, an empty cache of live hands."""
    import traceback

    _scenario_setup(workdir)
    from django.db import connection

    from tables.state_cache import state_cache_clear

    for line in sys.stdin:
        try:
            answer = scenario_data(line.strip())
        except Exception:
            answer = {"error": traceback.format_exc()}
        finally:
            connection.close()
            state_cache_clear()
        print(SCENARIO_ANSWER + json.dumps(answer), flush=True)


def scenario_data(name: str) -> dict[str, object]:
    """Build a page's data in the server's own database, through the services; return it.

    ``played``: hostuser hosts a Faras table where Asha, Bikash and Chandra played a few
    hands; the game ended; it is a night of the home game "Friday cards". Used by the
    page-layout tests for the settlement, history, replayer and home-game pages.
    ``english``: the test users' accounts go back to no chosen language (the browser's).
    ``full:GAME:COUNT``: hostuser hosts a GAME table with every one of its COUNT seats
    taken (guests besides the host), the first hand dealt and played on until it is the
    host's turn. Used by the table-layout test for a crowded table. ``full:GAME:COUNT:long``:
    the same, the guests with names of 40 characters. ``fulls:GAME:LOW:HIGH[:long]``: one
    such table for each count from LOW to HIGH (prints ``{"codes": {count: code}}``).
    ``blind-limit``: hostuser and bikash at a Faras table, both blind until one of them has
    used up the blind turns and is to act (prints the code and that player's username).
    ``phone-between-hands``: Bina and Kiran on the host's phone at a Faras table, between
    the first hand and the next (``_phone_between_hands``). ``season``: three nights of a
    home game settled once a season (``_season``). ``planned-night``: a home game's night
    planned from a template (``_planned_night``). ``guest-night``: a home game's played
    night with a guest's seat (``_guest_night``).
    """
    from django.contrib.auth import get_user_model

    from homegames.services_members import home_game_add_table, home_game_create
    from tables.services import seat_take, table_create, table_join, table_start
    from tests.tables.conftest import end_game

    users = {user.username: user for user in get_user_model().objects.all()}
    host = users["hostuser"]
    if name == "english":
        # A test that switched a user's language keeps it on the account: start from English.
        get_user_model().objects.filter(username__in=TEST_USERS).update(language="")
        return {"reset": sorted(TEST_USERS)}
    if name.startswith("fulls:"):
        # ``fulls:GAME:LOW:HIGH[:long]``: one ``full`` table for each seat count from LOW to
        # HIGH, made in one process (a process's start is most of a table's cost).
        _, game, low, high, *names = name.split(":")
        codes = {
            count: _full_table(host, game, count, long_names=names == ["long"])
            for count in range(int(low), int(high) + 1)
        }
        return {"codes": codes}
    if name.startswith("full:"):
        _, game, count, *names = name.split(":")
        return {"code": _full_table(host, game, int(count), long_names=names == ["long"])}
    if name == "blind-limit":
        return _blind_limit_table(host, users["bikash"])
    if name == "phone-between-hands":
        return _phone_between_hands(host)
    if name == "season":
        return _season(host, users)
    if name == "planned-night":
        return _planned_night(host, users)
    if name == "guest-night":
        return _guest_night(host, users)
    if name != "played":
        raise ValueError(f"no scenario {name!r}")
    table = table_create(host=host, game="faras", choices={})
    seats = [table_join(code=table.code, invite_token=table.invite_token, user=host)]
    seats += [
        table_join(code=table.code, invite_token=table.invite_token, user=users[username])
        for username in ("bikash", "chandra")
    ]
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    seats = [type(seat).objects.get(pk=seat.pk) for seat in seats]
    _play_hands(table, seats, hands=4, seed=7)
    end_game(table, seats[0].pk)
    home_game = home_game_create(name="Friday cards", host=host)
    home_game_add_table(home_game=home_game, table=table, by=host)
    return {"code": table.code, "invite": table.invite_token, "home_game": home_game.pk}


def main() -> None:
    if sys.argv[1] == "worker":
        work(Path(sys.argv[2]))
    elif sys.argv[1] == "scenario":
        scenario(Path(sys.argv[3]), sys.argv[2])
    elif sys.argv[1] == "scenarios":
        scenarios(Path(sys.argv[2]))
    else:
        serve(int(sys.argv[1]), Path(sys.argv[2]))


if __name__ == "__main__":
    main()
