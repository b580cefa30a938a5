"""``manage.py ledger_check``: reads the whole database and names every night settled twice or
nowhere, every closed season whose nets moved, every table whose chips do not balance; exit
status 1 when it finds something, 0 when not; it writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from homegames.models import HomeGame, Night, Season, SeasonTransfer
from homegames.services_members import home_game_add_table, home_game_create
from homegames.services_seasons import home_game_set_settle_by, season_close
from ledger.models import LedgerEntry, TableLedger, TransferPaid
from ledger.services import ledger_record_buy_in, ledger_record_cash_out
from tables.models import Seat
from tests.ledger.conftest import make_user
from tests.ledger.test_views import play_night

REPO = Path(__file__).resolve().parents[2]
NIGHTS = [
    {"Asha": 1850, "Bikash": 650, "Chandra": 500},
    {"Asha": 500, "Bikash": 1500, "Chandra": 1000},
]


def check() -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("ledger_check", stdout=out)
    except CommandError as error:
        assert error.returncode == 1
        return 1, out.getvalue()
    return 0, out.getvalue()


def row_counts() -> dict[str, int]:
    models = (LedgerEntry, TableLedger, Night, Season, SeasonTransfer, TransferPaid, Seat)
    return {model.__name__: model.objects.count() for model in models}


def season_game(host, *, settle_by=HomeGame.SettleBy.SEASON, nights=NIGHTS):
    friends = {name: make_user(f"{name.lower()}-{host.username}") for name in ("Bikash", "Chandra")}
    home_game = home_game_create(name="Friday Faras", host=host)
    home_game_set_settle_by(home_game=home_game, settle_by=settle_by, by=host)
    tables = []
    for results in nights:
        table, seats = play_night(host, results=results, others=friends)
        home_game_add_table(home_game=home_game, table=table, by=host)
        tables.append((table, seats))
    return home_game, tables


@pytest.mark.django_db
def test_a_sound_database_reports_nothing_and_exits_0(host):
    home_game, _tables = season_game(host)
    season_close(home_game=home_game, by=host)
    season_game(make_user("dipa"), settle_by=HomeGame.SettleBy.NIGHT)  # an open season, paid night by night
    before = row_counts()
    status, out = check()
    assert status == 0 and "every night is settled once" in out
    assert row_counts() == before  # read-only


@pytest.mark.django_db
def test_a_deliberately_double_counted_night_is_named(host):
    """A night of a season settled once a season whose transfers were also marked paid on the
    table itself (written below the services, which refuse it: ``settled_by_season``)."""
    home_game, tables = season_game(host)
    season = season_close(home_game=home_game, by=host)
    table, seats = tables[0]
    TransferPaid.objects.create(
        table=table,
        payer_seat=seats["Bikash"],
        payee_seat=seats["Asha"],
        payer_name="Bikash",
        payee_name="Asha",
        amount=Decimal("3.50"),
        marked_by=host,
    )
    before = row_counts()
    status, out = check()
    assert status == 1
    night = Night.objects.get(table=table)
    assert out.splitlines()[0] == (
        f"settled_twice: night {night.pk} (table {table.code}) of home game {home_game.pk} (Friday Faras) "
        f"is paid with season {season.number} and has transfers marked paid on its own too."
    )
    assert len(out.splitlines()) == 1 and row_counts() == before


@pytest.mark.django_db
def test_a_night_frozen_before_it_was_settled_and_the_season_whose_nets_moved_are_named(host):
    """The data issue 36 found: a table not yet played frozen into a closed season, then
    played. The night is settled nowhere, and the season's frozen transfers no longer settle
    its nets."""
    home_game, _tables = season_game(host)
    table, seats = play_night(host, results={"Asha": 1000, "Dipa": 1000}, ended=False)
    home_game_add_table(home_game=home_game, table=table, by=host)
    season = season_close(home_game=home_game, by=host)
    Night.objects.filter(table=table).update(season=season)  # as the old close did
    # Played after the close: Asha wins 300 chips of Dipa (3.00).
    ledger_record_buy_in(table=table, seat=seats["Asha"], chips=1000, price=Decimal("10.00"), is_buy_back=True)
    ledger_record_buy_in(table=table, seat=seats["Dipa"], chips=1000, price=Decimal("10.00"), is_buy_back=True)
    ledger_record_cash_out(table=table, seat=seats["Asha"], chips=1300)
    ledger_record_cash_out(table=table, seat=seats["Dipa"], chips=700)
    status, out = check()
    lines = out.splitlines()
    assert status == 1
    night = Night.objects.get(table=table)
    assert lines[0].startswith(f"settled_nowhere: night {night.pk} (table {table.code}) of home game {home_game.pk}")
    assert f"is in closed season {season.number} but is not settled" in lines[0]
    assert lines[1].startswith(f"season_moved: season {season.number} of home game {home_game.pk} (Friday Faras)")
    assert "guest:dipa" in lines[1] and f"user:{host.pk}" in lines[1]
    assert len(lines) == 2


@pytest.mark.django_db
def test_a_table_whose_chips_do_not_balance_is_named(host):
    _home_game, tables = season_game(host, settle_by=HomeGame.SettleBy.NIGHT)
    table, seats = play_night(host, results={"Asha": 1000, "Bikash": 1000}, ended=False)
    # Between hands everyone still seated: their stacks are the chips bought less cashed out.
    Seat.objects.filter(pk=seats["Asha"].pk).update(stack=0)
    assert check()[0] == 0  # nothing wrong yet: everyone cashed out, stacks 0
    Seat.objects.filter(pk=seats["Asha"].pk).update(stack=50)  # 50 chips from nowhere
    ended, _ = tables[0]
    TableLedger.objects.filter(table=ended).update(chips_bought=3001)  # totals that lie
    status, out = check()
    assert status == 1
    assert out.splitlines() == [
        f"chips_unbalanced: table {ended.code} (id {ended.pk}): its running totals differ from its entries.",
        f"chips_unbalanced: table {table.code} (id {table.pk}): its seats hold 50 chips but 0 were bought and "
        "not cashed out.",
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_a_database_built_through_the_pages_the_command_in_its_own_process(client):
    """As CI runs it: a database populated through the pages (a home game, nights, a closed
    season, a transfer marked paid), then ``manage.py ledger_check`` in a process of its own
    reports nothing; a night then double-counted is named, with exit status 1."""
    host = make_user("asha")
    client.force_login(host)
    client.post(reverse("ledger:home_game_new"), {"name": "Friday Faras"})
    home_game = HomeGame.objects.get(host=host)
    client.post(reverse("ledger:home_game_settle_by", kwargs={"home_game_id": home_game.pk}), {"settle_by": "season"})
    friends = {"Bikash": make_user("bikash"), "Chandra": make_user("chandra")}
    tables = []
    for results in NIGHTS:
        table, seats = play_night(host, results=results, others=friends)
        client.post(reverse("ledger:home_game_add_table", kwargs={"home_game_id": home_game.pk}), {"table": table.pk})
        tables.append((table, seats))
    client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    season = Season.objects.get(home_game=home_game)
    transfer = season.transfers.order_by("pk").first()
    client.post(
        reverse("ledger:season_transfer_paid", kwargs={"home_game_id": home_game.pk, "transfer_id": transfer.pk}),
        {"paid": "1"},
    )
    assert Night.objects.filter(season=season).count() == 2 and season.transfers.exists()
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
    }

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", "ledger_check"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    done = run()
    assert done.returncode == 0, done.stdout + done.stderr
    table, seats = tables[1]
    TransferPaid.objects.create(
        table=table,
        payer_seat=seats["Asha"],
        payee_seat=seats["Bikash"],
        payer_name="Asha",
        payee_name="Bikash",
        amount=Decimal("5.00"),
        marked_by=host,
    )
    done = run()
    assert done.returncode == 1
    assert f"settled_twice: night {Night.objects.get(table=table).pk} (table {table.code})" in done.stdout
