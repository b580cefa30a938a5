"""Joining and scheduling at the same moment, on PostgreSQL (each thread its own connection):
both lock the home game's row, so a member who joins while a night is being scheduled is
invited to it once, by one side or the other, whichever commits first."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from homegames.models import HomeGame, Night, Notice
from homegames.services import night_schedule, night_template_save
from homegames.services_members import home_game_add_table, home_game_create, home_game_join
from tables.services import table_create, table_join
from tests.homegames.test_nights import FARAS
from tests.ledger.conftest import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_thread(work: Callable[[], None], errors: list) -> Callable[[], None]:
    def run() -> None:
        try:
            work()
        except Exception as error:  # pragma: no cover - reported by the test
            errors.append(error)
        finally:
            connection.close()

    return run


def _held(first: Callable[[], None], second: Callable[[], None]) -> None:
    """Run ``first`` in a transaction that stays open until ``second``, started meanwhile in
    another thread, is seen waiting for it; then commit, and let ``second`` finish."""
    errors: list = []
    done, go = threading.Event(), threading.Event()

    def holding() -> None:
        with transaction.atomic():
            first()
            done.set()
            go.wait(5)

    one = threading.Thread(target=_in_thread(holding, errors))
    one.start()
    assert done.wait(5)
    two = threading.Thread(target=_in_thread(second, errors))
    two.start()
    two.join(0.3)
    waited = two.is_alive()  # it waits for the home game's row
    go.set()
    one.join(5)
    two.join(5)
    assert not errors, errors
    assert waited


def test_joining_while_a_night_is_scheduled_still_invites_once():
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=FARAS, by=host)
    esha = make_user("esha")

    def schedule() -> None:
        night_schedule(
            home_game=HomeGame.objects.get(pk=home_game.pk),
            template=template,
            starts_at=timezone.now() + timedelta(days=2),
            time_zone="UTC",
            place="Asha's flat",
            seat_limit=4,
            by=host,
        )

    def join_by_link() -> None:
        found = HomeGame.objects.get(pk=home_game.pk)
        home_game_join(home_game=found, token=found.invite_token, user=esha)

    def join_by_table() -> None:  # a table she sat at, added as a night
        table = table_create(host=host, game="faras", choices={})
        table_join(code=table.code, invite_token=table.invite_token, user=esha)
        home_game_add_table(home_game=HomeGame.objects.get(pk=home_game.pk), table=table, by=host)

    invitations = Notice.objects.filter(user=esha, kind="invitation")
    # She joins, still uncommitted while a night is scheduled: the scheduling waits, sees her.
    _held(join_by_link, schedule)
    assert invitations.count() == 1
    HomeGame.objects.get(pk=home_game.pk).members.remove(esha)
    first_night = Night.objects.get()
    # A night is scheduled, still uncommitted while a table of hers is added: the join waits, sees it.
    _held(schedule, join_by_table)
    assert invitations.count() == 2
    assert set(invitations.values_list("night_id", flat=True)) == set(
        Night.objects.planned().values_list("pk", flat=True)
    )
    assert invitations.filter(night=first_night).count() == 1  # joining again: none twice
