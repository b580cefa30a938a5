"""The migrations that make one night model (``homegames`` 0009-0011) keep every row.

A database is taken back to ``homegames.0008`` (a planned night and a table counted as a
night were two models), filled through the models as they were then, migrated to the end and
read back through today's ``Night``; then taken back again and read through the old models.
The rows: a planned night whose table was opened (both rows, merged into one night), a table
added after the fact (no plan), a cancelled night and a night ahead (no table), a planned
night whose table was counted in another home game; with answers and notices. On SQLite by
default, on PostgreSQL with ``DATABASE_URL`` set.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from homegames.models import Answer, HomeGame, Night, Notice, Season
from tests.ledger.conftest import make_table

BEFORE = [("homegames", "0008_season_payments")]
AT = datetime(2026, 3, 6, 18, 30, tzinfo=UTC)
ADDED = datetime(2026, 2, 27, 20, 0, tzinfo=UTC)


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: the graph as applied now


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_rows(old, host: User, friend: User) -> dict[str, int]:
    """Both kinds of night as they were: returns the ids the checks need."""
    home_game_model = old.get_model("homegames", "HomeGame")
    planned_model = old.get_model("homegames", "PlannedNight")
    counted_model = old.get_model("homegames", "HomeGameNight")
    friday = home_game_model.objects.create(name="Friday", host_id=host.pk, settle_by="season")
    friday.members.add(host.pk, friend.pk)
    other = home_game_model.objects.create(name="Other", host_id=friend.pk)
    season = old.get_model("homegames", "Season").objects.create(
        home_game=friday, number=1, settle_by="season", closed_by_id=host.pk
    )
    template = old.get_model("homegames", "NightTemplate").objects.create(
        home_game=friday, name="our Faras", game="faras", choices={"buy_in_chips": 1000}
    )
    opened, added, elsewhere = make_table(host), make_table(host), make_table(host)

    def plan(home_game, **fields):
        return planned_model.objects.create(
            home_game=home_game, template=template, seat_limit=6, created_by_id=host.pk, **fields
        )

    merged = plan(friday, starts_at=AT, place="Asha's", time_zone="Asia/Kathmandu", version=2, table_id=opened.pk)
    counted = counted_model.objects.create(home_game=friday, table_id=opened.pk, season=season)
    counted_model.objects.filter(pk=counted.pk).update(added_at=ADDED)
    unplanned = counted_model.objects.create(home_game=friday, table_id=added.pk)
    counted_model.objects.filter(pk=unplanned.pk).update(added_at=ADDED)
    cancelled = plan(friday, starts_at=AT, place="Bikash's", status="cancelled")
    ahead = plan(friday, starts_at=AT, place="Chandra's")
    crossed = plan(other, starts_at=AT, place="Dipa's", table_id=elsewhere.pk)
    counted_model.objects.create(home_game=friday, table_id=elsewhere.pk)

    answer_model, notice_model = old.get_model("homegames", "Answer"), old.get_model("homegames", "Notice")
    answer_model.objects.create(night=merged, user_id=friend.pk, reply="yes", yes_at=AT, comment="late")
    answer_model.objects.create(night=cancelled, user_id=friend.pk, reply="no")
    answer_model.objects.create(night=ahead, user_id=host.pk, reply="maybe")
    notice_model.objects.create(night=merged, user_id=friend.pk, kind="invitation", version=1, due_at=AT, sent_at=AT)
    notice_model.objects.create(night=merged, user_id=friend.pk, kind="moved", version=2, due_at=AT, moved_from=ADDED)
    notice_model.objects.create(night=cancelled, user_id=friend.pk, kind="cancelled", version=1, due_at=AT)
    return {
        "friday": friday.pk,
        "other": other.pk,
        "season": season.pk,
        "template": template.pk,
        "opened": opened.pk,
        "added": added.pk,
        "elsewhere": elsewhere.pk,
        "merged": merged.pk,
        "cancelled": cancelled.pk,
        "ahead": ahead.pk,
        "crossed": crossed.pk,
    }


def _plan(night: Night) -> tuple[object, ...]:
    return (night.home_game_id, night.starts_at, night.place, night.template_id, night.seat_limit, night.status)


@pytest.mark.django_db(transaction=True)
def test_one_night_model_keeps_every_row_forwards_and_backwards():
    host, friend = (User.objects.create(username=name) for name in ("host", "friend"))
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    ids = _old_rows(old, host, friend)
    answers_before = sorted(old.get_model("homegames", "Answer").objects.values_list("pk", "night_id", "reply"))
    notices_before = sorted(old.get_model("homegames", "Notice").objects.values_list("pk", "night_id", "kind"))

    try:
        _migrate(_leaves())

        friday, season = HomeGame.objects.get(pk=ids["friday"]), Season.objects.get(pk=ids["season"])
        # The merged pair: one night with the plan, its table, its season and when it was added.
        merged = Night.objects.get(pk=ids["merged"])
        assert _plan(merged) == (friday.pk, AT, "Asha's", ids["template"], 6, "scheduled")
        assert (merged.time_zone, merged.version, merged.created_by) == ("Asia/Kathmandu", 2, host)
        assert (merged.table_id, merged.season, merged.added_at) == (ids["opened"], season, ADDED)
        assert list(season.nights.all()) == [merged]
        # The table added after the fact: a night with no plan, created when it was added.
        unplanned = Night.objects.get(table_id=ids["added"])
        assert (unplanned.home_game, unplanned.is_planned, unplanned.season) == (friday, False, None)
        assert (unplanned.added_at, unplanned.created_at, unplanned.place, unplanned.template) == (
            ADDED,
            ADDED,
            "",
            None,
        )
        # Nights with no table keep their plan.
        assert _plan(Night.objects.get(pk=ids["cancelled"]))[1:] == (AT, "Bikash's", ids["template"], 6, "cancelled")
        assert Night.objects.get(pk=ids["ahead"]).table is None
        # A table counted in Friday but opened from Other's night: both kept, the table Friday's.
        crossed = Night.objects.get(pk=ids["crossed"])
        assert (crossed.home_game_id, crossed.table, crossed.place) == (ids["other"], None, "Dipa's")
        assert Night.objects.get(table_id=ids["elsewhere"]).home_game == friday
        assert (
            Night.objects.count() == 6 and Night.objects.planned().count() == 4 and Night.objects.played().count() == 3
        )
        # Answers and notices still point at their nights, whose ids did not change.
        assert sorted(Answer.objects.values_list("pk", "night_id", "reply")) == answers_before
        assert sorted(Notice.objects.values_list("pk", "night_id", "kind")) == notices_before
        assert Notice.objects.get(kind="moved").moved_from == ADDED
        assert Answer.objects.get(reply="yes").comment == "late"

        back = _migrate(BEFORE).loader.project_state(BEFORE).apps
        planned = back.get_model("homegames", "PlannedNight").objects
        counted = back.get_model("homegames", "HomeGameNight").objects
        assert sorted(planned.values_list("pk", flat=True)) == sorted(
            ids[name] for name in ("merged", "cancelled", "ahead", "crossed")
        )
        assert planned.get(pk=ids["merged"]).table_id == ids["opened"]
        assert sorted(counted.values_list("table_id", "home_game_id", "season_id", "added_at")) == sorted(
            [
                (ids["opened"], ids["friday"], ids["season"], ADDED),
                (ids["added"], ids["friday"], None, ADDED),
                (ids["elsewhere"], ids["friday"], None, counted.get(table_id=ids["elsewhere"]).added_at),
            ]
        )
        answers = back.get_model("homegames", "Answer").objects
        notices = back.get_model("homegames", "Notice").objects
        assert sorted(answers.values_list("pk", "night_id", "reply")) == answers_before
        assert sorted(notices.values_list("pk", "night_id", "kind")) == notices_before
    finally:
        _migrate(_leaves())
