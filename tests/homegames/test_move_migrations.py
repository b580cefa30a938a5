"""The migrations that moved the home game from ``ledger`` to ``homegames`` lose no row.

A database is taken back to the last migrations before the move, filled through the models
as they were then (every moved table: home games with members and co-hosts, nights, seasons,
their transfers, claimed seats; and the nights' templates, planned nights and feeds that
point at a home game), then migrated to the end; every row and relation is read back through
today's models. On SQLite by default, on PostgreSQL with ``DATABASE_URL`` set.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from homegames.models import CalendarFeed, HomeGame, Night, NightTemplate, Season, SeatClaim
from tests.ledger.conftest import make_seat, make_table

BEFORE_THE_MOVE = [("ledger", "0005_home_game_members"), ("homegames", "0006_answer_comments_and_digest")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: the graph as applied now


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_the_move_to_homegames_keeps_every_row_and_relation():
    host, friend, guest_claimer = (User.objects.create(username=name) for name in ("host", "friend", "claimer"))
    played, planned = make_table(host), make_table(host)
    guest_seat = make_seat(played, None, "Guest", 1)
    make_seat(played, friend, "Friend", 2)
    content_type = ContentType.objects.get_for_model(HomeGame)  # the admin's permissions hang on it

    old = _migrate(BEFORE_THE_MOVE).loader.project_state(BEFORE_THE_MOVE).apps
    assert old.get_model("contenttypes", "ContentType").objects.get(pk=content_type.pk).app_label == "ledger"
    old_home_game = old.get_model("ledger", "HomeGame")
    assert old_home_game._meta.db_table == "ledger_homegame"
    home_game = old_home_game.objects.create(
        name="Friday Faras", host_id=host.pk, invite_token="t" * 43, settle_by="season"
    )
    home_game.members.add(host.pk, friend.pk, guest_claimer.pk)
    home_game.co_hosts.add(friend.pk)
    other = old_home_game.objects.create(name="Other", host_id=friend.pk)
    season = old.get_model("ledger", "Season").objects.create(
        home_game=home_game, number=1, settle_by="season", currency="NPR", closed_by_id=host.pk
    )
    old.get_model("ledger", "HomeGameNight").objects.create(home_game=home_game, table_id=played.pk, season=season)
    old.get_model("ledger", "HomeGameNight").objects.create(home_game=other, table_id=planned.pk)
    transfer = old.get_model("ledger", "SeasonTransfer").objects.create(
        season=season,
        payer_key=f"user:{friend.pk}",
        payee_key=f"user:{host.pk}",
        payer_name="Friend",
        payee_name="Host",
        amount=Decimal("12.50"),
        paid_by_id=host.pk,
    )
    claim = old.get_model("ledger", "SeatClaim").objects.create(
        seat_id=guest_seat.pk, home_game=home_game, user_id=guest_claimer.pk
    )
    template = old.get_model("homegames", "NightTemplate").objects.create(
        home_game=home_game, name="our Faras", game="faras", choices={"buy_in_chips": 1000}
    )
    planned_night = old.get_model("homegames", "PlannedNight").objects.create(
        home_game=other,
        starts_at=played.created_at,
        place="Asha's",
        template=template,
        seat_limit=6,
        table_id=planned.pk,
        created_by_id=friend.pk,
    )
    feed = old.get_model("homegames", "CalendarFeed").objects.create(home_game=home_game, user_id=friend.pk)

    _migrate(_leaves())

    moved = HomeGame.objects.get(pk=home_game.pk)
    assert (moved.name, moved.host, moved.invite_token, moved.settle_by) == ("Friday Faras", host, "t" * 43, "season")
    assert set(moved.members.all()) == {host, friend, guest_claimer}
    assert list(moved.co_hosts.all()) == [friend]
    assert HomeGame.objects.count() == 2
    moved_night = Night.objects.get(table=played)  # a night of its own (no plan): ids are the nights'
    assert (moved_night.home_game, moved_night.table, moved_night.season_id) == (moved, played, season.pk)
    assert played.night == moved_night  # the reverse relations are today's
    moved_season = Season.objects.get(pk=season.pk)
    assert (moved_season.home_game, moved_season.number, moved_season.currency, moved_season.closed_by) == (
        moved,
        1,
        "NPR",
        host,
    )
    assert list(moved_season.nights.all()) == [moved_night]
    moved_transfer = moved_season.transfers.get()
    assert (moved_transfer.pk, moved_transfer.amount, moved_transfer.paid_by) == (transfer.pk, Decimal("12.50"), host)
    moved_claim = SeatClaim.objects.get(pk=claim.pk)
    assert (moved_claim.seat, moved_claim.home_game, moved_claim.user) == (guest_seat, moved, guest_claimer)
    assert NightTemplate.objects.get(pk=template.pk).home_game == moved
    merged = Night.objects.get(pk=planned_night.pk)  # the planned night and its table's night are one
    assert (merged.home_game.name, merged.table_id, merged.place) == ("Other", planned.pk, "Asha's")
    assert CalendarFeed.objects.get(pk=feed.pk).home_game == moved
    assert list(friend.home_games.order_by("pk")) == [moved]
    assert Night.objects.count() == 2
    ContentType.objects.clear_cache()
    assert ContentType.objects.get(pk=content_type.pk).model_class() is HomeGame
    assert not ContentType.objects.filter(app_label="ledger", model="homegame").exists()
