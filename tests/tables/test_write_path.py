"""The one write path: an ended game's log ends with ``game_ended``, and nothing refuses quietly.

Rules pinned: every service refuses an ended table with the code ``ended`` and writes
nothing (the log of a game ends with ``game_ended``: book 000 reveals the secret seed
there, and a verifier reads it as the last word); the write path refuses to append
after ``game_ended`` even if a service forgot to ask; a refused write changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.events import EventKind
from tables.models import Event, Seat, Table
from tables.services import ServiceError
from tables.services.log import TableLog
from tables.services.write import table_write
from tests.tables.conftest import end_game, make_user, open_table

pytestmark = pytest.mark.django_db

# Exported names that are not table writes refused on an ended table: the error class,
# helpers that write nothing, opening a new table, and the Celery tasks' services (a
# late task finds the game over and quietly does nothing: tested below).
NOT_WRITES_TO_AN_OPEN_TABLE = {
    "ServiceError",
    "guest_token_new",
    "invite_token_matches",
    "table_settings_build",
    "table_create",
    "table_clock_run",
    "table_clock_run_if_due",
    "table_clock_sweep",
    # Asking to be let in with the code alone, or withdrawing the ask, records nothing at an
    # ended table and says so to no one (a stranger learns nothing of a code:
    # tests/tables/test_join_by_code_ask.py); reading the host's answer writes nothing.
    "join_ask",
    "join_withdraw",
    "join_answer",
    # A guest's seat link's key: computed, nothing read or written (issue 28); whether a key
    # is a seat's link now or a used one (issue 34).
    "seat_link_key",
    "seat_link_state",
    # Whom a socket's writes are for (issue 34): a value, and a block that checks it in each write.
    "SeatHolder",
    "writes_for",
    # The database's absence as a refusal (issue 30): an exception tuple and its error.
    "DATABASE_UNAVAILABLE",
    "unavailable_error",
    # A phone's push subscription (issue 28): kept beside the seat, never in the table's log.
    "push_public_key",
    "push_subscribe",
    "push_unsubscribe",
    # Whether a name is a seat a new browser may claim, and this browser's latest claim
    # (issue 38): reads.
    "seat_claimable",
    "seat_claim_state",
    # The moves the host's "Act for" never makes for another player (issue 38): a value.
    "PLAYER_ONLY_VERBS",
}


def _ended_table():
    """A Faras table that played a hand and was ended by its host, with a watcher and
    the seats it had (the host's seat first)."""
    table, seats = open_table("faras", players=3)
    watcher = services.table_join(
        code=table.code, invite_token=table.invite_token, user=make_user("watcher-of-an-ended-game")
    )
    end_game(table, seats[0].pk)
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    return table, seats, watcher


def _calls(table, seats, watcher):
    host, player = seats[0], seats[1]
    return {
        "hand_act": lambda: services.hand_act(table_id=table.pk, seat_id=player.pk, verb="pack"),
        "hand_see": lambda: services.hand_see(table_id=table.pk, seat_id=player.pk),
        "seat_take": lambda: services.seat_take(table_id=table.pk, seat_id=watcher.pk),
        "seat_leave": lambda: services.seat_leave(table_id=table.pk, seat_id=player.pk),
        "seat_sit_out": lambda: services.seat_sit_out(table_id=table.pk, seat_id=player.pk),
        "seat_come_back": lambda: services.seat_come_back(table_id=table.pk, seat_id=player.pk),
        "seat_buy_back": lambda: services.seat_buy_back(table_id=table.pk, seat_id=player.pk),
        "seat_seed_submit": lambda: services.seat_seed_submit(table_id=table.pk, seat_id=player.pk, seed="late"),
        "seat_remove": lambda: services.seat_remove(table_id=table.pk, seat_id=host.pk, remove_seat_id=player.pk),
        "table_join": lambda: services.table_join(
            code=table.code, invite_token=table.invite_token, user=make_user("late-comer")
        ),
        "table_start": lambda: services.table_start(table_id=table.pk, seat_id=host.pk),
        "table_pause": lambda: services.table_pause(table_id=table.pk, seat_id=host.pk),
        "table_resume": lambda: services.table_resume(table_id=table.pk, seat_id=host.pk),
        "table_end": lambda: services.table_end(table_id=table.pk, seat_id=host.pk),
        "invite_rotate": lambda: services.invite_rotate(table_id=table.pk, seat_id=host.pk),
        "table_update_settings": lambda: services.table_update_settings(
            table_id=table.pk, seat_id=host.pk, choices={"boot": 20}
        ),
        "hand_act_for_away": lambda: services.hand_act_for_away(
            table_id=table.pk, seat_id=host.pk, player_seat_id=player.pk
        ),
        "seat_ask": lambda: services.seat_ask(table_id=table.pk, seat_id=watcher.pk, what="seat"),
        "request_cancel": lambda: services.request_cancel(table_id=table.pk, seat_id=watcher.pk),
        "request_approve": lambda: services.request_approve(table_id=table.pk, seat_id=host.pk, request=1),
        "request_deny": lambda: services.request_deny(table_id=table.pk, seat_id=host.pk, request=1),
        "join_approved_take": lambda: services.join_approved_take(
            table_id=table.pk, user=make_user("let-in-late"), guest_token=None
        ),
        "local_player_add": lambda: services.local_player_add(table_id=table.pk, seat_id=host.pk, name="Late"),
        "phone_hold_check": lambda: services.phone_hold_check(table_id=table.pk, seat_id=host.pk, hold_seat_id=host.pk),
        "seat_link_use": lambda: services.seat_link_use(
            code=table.code, seat_id=player.pk, key="0" * 32, guest_token=services.guest_token_new()
        ),
        "phone_seat_check": lambda: services.phone_seat_check(
            table_id=table.pk, seat_id=host.pk, local_seat_id=host.pk
        ),
        "variant_call": lambda: services.variant_call(table_id=table.pk, seat_id=player.pk, variant="muflis"),
        "seat_claim_ask": lambda: services.seat_claim_ask(
            code=table.code, invite_token=table.invite_token, guest_name=player.display_name, guest_token="a" * 32
        ),
        "seat_claim_take": lambda: services.seat_claim_take(table_id=table.pk, guest_token="a" * 32),
        "seat_claim_withdraw": lambda: services.seat_claim_withdraw(table_id=table.pk, guest_token="a" * 32),
    }


def test_every_service_refuses_an_ended_table_with_ended_and_writes_nothing():
    table, seats, watcher = _ended_table()
    calls = _calls(table, seats, watcher)
    # A service added later must be added here too (or to the list of non-writes).
    assert set(calls) == set(services.__all__) - NOT_WRITES_TO_AN_OPEN_TABLE
    seats_before = list(Seat.objects.filter(table=table).order_by("pk").values())
    log_before = list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))
    assert log_before[-1][1] == "game_ended"
    for name, call in calls.items():
        with pytest.raises(ServiceError) as refused:
            call()
        assert refused.value.code == "ended", name
    assert list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind")) == log_before
    assert list(Seat.objects.filter(table=table).order_by("pk").values()) == seats_before
    table.refresh_from_db()
    assert table.last_seq == log_before[-1][0]


def test_a_late_clock_finds_the_game_over_and_does_nothing():
    table, _seats, _watcher = _ended_table()
    last = Event.objects.filter(table=table).count()
    # Say the table was left with something due (a clock task, a sweep, long after).
    Table.objects.filter(pk=table.pk).update(due_at=timezone.now(), next_deal_at=timezone.now())
    later = timezone.now() + timedelta(hours=1)
    assert services.table_clock_run(table_id=table.pk, now=later) == []
    assert services.table_clock_sweep(now=later) == {}
    assert Event.objects.filter(table=table).count() == last
    table.refresh_from_db()
    assert table.due_at is None and table.next_deal_at is None


def test_joining_again_after_the_end_returns_the_seat_and_writes_nothing():
    table, _seats, watcher = _ended_table()
    last = Event.objects.filter(table=table).count()
    again = services.table_join(code=table.code, invite_token=table.invite_token, user=watcher.user)
    assert again.pk == watcher.pk
    assert Event.objects.filter(table=table).count() == last


def test_leaving_and_removing_before_the_end_still_work():
    """The refusal is about the ended game only: between hands of a live game both go on."""
    table, seats = open_table("faras", players=4, start=False)
    services.seat_leave(table_id=table.pk, seat_id=seats[3].pk)
    services.seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=seats[2].pk)
    kinds = list(Event.objects.filter(table=table).order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["seat_left", "seat_removed"]


def test_the_log_refuses_an_event_after_game_ended_even_if_a_service_forgot():
    table, seats = open_table("faras", players=2, start=False)
    with pytest.raises(RuntimeError, match="after game_ended"):
        with table_write(table.pk) as (_locked, log):
            log.append(EventKind.GAME_ENDED, {"reason": "test"})
            log.append(EventKind.SEAT_LEFT, {"seat": seats[1].pk})
    # The block raised: nothing of it was written.
    assert not Event.objects.filter(table=table, kind="game_ended").exists()


def test_a_refusal_inside_the_block_writes_nothing_and_tells_no_one(django_capture_on_commit_callbacks):
    table, _seats = open_table("faras", players=2, start=False)
    last_seq = table.last_seq
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(ServiceError):
            with table_write(table.pk) as (locked, log):
                log.append(EventKind.GAME_PAUSED, {})
                locked.status = Table.Status.PAUSED
                raise ServiceError("test", "refused half way")
    assert callbacks == []
    table.refresh_from_db()
    assert table.last_seq == last_seq and table.status == Table.Status.WAITING
    assert not Event.objects.filter(table=table, kind="game_paused").exists()


def test_no_table_is_refused_with_no_table():
    with pytest.raises(ServiceError) as refused:
        with table_write(10**9):
            pass
    assert refused.value.code == "no_table"


def test_table_log_is_only_made_by_the_write_path():
    """The skeleton is written once: no module but the write path builds a TableLog."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    makers = sorted(
        str(path.relative_to(root))
        for folder in ("tables", "ledger", "accounts", "config")
        for path in (root / folder).rglob("*.py")
        if "TableLog(" in path.read_text(encoding="utf-8")
    )
    assert makers == ["tables/services/write.py"]
    assert TableLog  # the class itself lives in tables.services.log
