"""The host approves seats and buy-backs (issue 14): the table setting ``approve_seats``.

Rules pinned: off by default; when on, a player (user or guest, never the host) asks and
waits; the request and its answer are events in the log (``request_made``, then one of
``request_approved`` / ``request_denied`` / ``request_cancelled``); approving does the
seat or buy-back through the same code with every check done again; a refusal says why
and writes nothing. Abuse: a guest approving, approving twice, approving a seat taken
since, a banned player, spam, an ended table, malformed requests, a denied player
sitting down directly.
"""

from __future__ import annotations

import types
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger.models import LedgerEntry
from tables import selectors, what_viewers_see
from tables.models import Event, Seat, Table
from tables.services import (
    ServiceError,
    guest_token_new,
    request_approve,
    request_cancel,
    request_deny,
    seat_ask,
    seat_buy_back,
    seat_remove,
    seat_take,
    table_join,
    table_settings_build,
    table_start,
    table_update_settings,
)
from tables.services import requests as requests_module
from tests.tables.conftest import end_game, make_user, open_table

pytestmark = pytest.mark.django_db


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def _state(table: Table) -> tuple:
    """Everything a refused request must leave as it was: the log, the seats, the ledger."""
    seats = list(
        Seat.objects.filter(table=table).order_by("pk").values_list("pk", "number", "stack", "status", "buy_ins")
    )
    return _log(table), seats, LedgerEntry.objects.filter(table=table).count()


def approving_table(game: str = "faras", players: int = 2):
    """A table with ``players`` seated (the host first), then the host turns approval on."""
    table, seats = open_table(game, players=players, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    table.refresh_from_db()
    return table, seats


def newcomer(table: Table, name: str = "Dipa") -> Seat:
    """A guest who joined through the invite link and watches."""
    return table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token=guest_token_new())


def refused(code: str, call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call(**kwargs)
    assert error.value.code == code, (error.value.code, error.value.message)
    return error.value


# --- the setting -------------------------------------------------------------------------------


def test_the_setting_is_off_by_default_and_on_or_off_only():
    assert table_settings_build(game="faras")["approve_seats"] is False
    assert table_settings_build(game="holdem", choices={"approve_seats": "on"})["approve_seats"] is True
    assert table_settings_build(game="999", choices={"approve_seats": False})["approve_seats"] is False
    for bad in ("maybe", 2, [True]):
        with pytest.raises(ServiceError) as error:
            table_settings_build(game="faras", choices={"approve_seats": bad})
        assert error.value.field == "approve_seats"


def test_without_the_setting_a_player_sits_at_once_and_asking_is_refused():
    table, _seats = open_table("faras", players=2, start=False)
    dipa = newcomer(table)
    before = _state(table)
    refused("no_approval_needed", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert _state(table) == before
    assert seat_take(table_id=table.pk, seat_id=dipa.pk).number == 3


def test_the_open_form_and_the_settings_page_carry_the_setting():
    table, seats = open_table("faras", players=2, start=False)
    host = Client()
    host.force_login(seats[0].user)
    page = host.get(reverse("table_settings", kwargs={"code": table.code})).content.decode()
    assert 'name="approve_seats"' in page and "I approve seats and buy-backs" in page
    form = {
        "seats": 6,
        "boot": 10,
        "buy_in_chips": 1000,
        "buy_in_price": "10.00",
        "buy_backs": "",
        "sideshow": "on",
        "best_run": "AKQ",
        "hand_pause": 5,
        "timeout_action": "remind",
        "approve_seats": "on",
    }
    response = host.post(reverse("table_settings", kwargs={"code": table.code}), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table.refresh_from_db()
    assert table.settings["approve_seats"] is True and _log(table)[-1][1] == "settings_changed"
    opened = Client()
    opened.force_login(make_user("opener"))
    response = opened.post(reverse("table_open") + "?game=faras", {**form, "seats": 4})
    new = Table.objects.get(code=response["Location"].rstrip("/").rsplit("/", 1)[-1])
    assert new.settings["approve_seats"] is True


# --- asking, approving, denying -----------------------------------------------------------------


def test_a_guest_asks_for_a_seat_waits_and_the_host_approves():
    table, seats = approving_table()
    dipa = newcomer(table)
    before = _state(table)
    error = refused("ask_host", seat_take, table_id=table.pk, seat_id=dipa.pk)
    assert "ask" in str(error.message)
    assert _state(table) == before
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert _log(table)[-1] == (request, "request_made")
    assert selectors.requests_pending(table=table) == [
        {"request": request, "seat": dipa.pk, "name": "Dipa", "what": "seat", "number": None}
        | {"chips": 1000, "price": "10.00"}
    ]
    assert Seat.objects.get(pk=dipa.pk).number is None  # waiting: not seated
    approval = request_approve(table_id=table.pk, seat_id=seats[0].pk, request=request)
    kinds = [kind for seq, kind in _log(table) if seq >= approval]
    assert kinds == ["request_approved", "seat_taken"]
    dipa.refresh_from_db()
    assert dipa.number == 3 and dipa.stack == 1000 and dipa.buy_ins == 1
    assert LedgerEntry.objects.filter(table=table, seat=dipa, kind="buy_in").count() == 1
    assert selectors.requests_pending(table=table) == []


def test_a_player_asks_for_a_given_seat_number():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat", number=5)
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert Seat.objects.get(pk=dipa.pk).number == 5


def test_the_host_sits_and_buys_back_without_asking():
    table, seats = approving_table()
    host = seats[0]
    refused("no_approval_needed", seat_ask, table_id=table.pk, seat_id=host.pk, what="buy_back")
    assert seat_buy_back(table_id=table.pk, seat_id=host.pk).stack == 2000


def test_a_buy_back_is_asked_for_and_approved_at_the_buy_in_asked_for():
    table, seats = approving_table()
    bikash = seats[1]
    refused("ask_host", seat_buy_back, table_id=table.pk, seat_id=bikash.pk)
    request = seat_ask(table_id=table.pk, seat_id=bikash.pk, what="buy_back")
    (pending,) = selectors.requests_pending(table=table)
    assert (pending["chips"], pending["price"]) == (1000, "10.00")  # what the player agreed to
    # The host makes the buy-in a hundred times bigger (same value) before approving: the
    # player asked for 1,000 chips for 10.00, not 100,000 for 1,000.00. Refused, nothing
    # changes, the host may deny and the player ask again at the new buy-in.
    table_update_settings(
        table_id=table.pk, seat_id=seats[0].pk, choices={"buy_in_chips": 100000, "buy_in_price": "1000.00"}
    )
    before = _state(table)
    error = refused("buy_in_changed", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert bikash.display_name in str(error.message)
    assert _state(table) == before
    # Back to the buy-in asked for: approved, at it.
    table_update_settings(
        table_id=table.pk, seat_id=seats[0].pk, choices={"buy_in_chips": 1000, "buy_in_price": "10.00"}
    )
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=request)
    bikash.refresh_from_db()
    assert bikash.stack == 2000 and bikash.buy_backs_used == 1
    entry = LedgerEntry.objects.filter(table=table, seat=bikash).order_by("pk").last()
    assert entry.kind == "buy_back" and entry.chips == 1000 and str(entry.price) == "10.00"


def test_a_seat_asked_for_is_not_approved_at_another_buy_in():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    table_update_settings(
        table_id=table.pk, seat_id=seats[0].pk, choices={"buy_in_chips": 5000, "buy_in_price": "50.00"}
    )
    before = _state(table)
    refused("buy_in_changed", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert _state(table) == before


def test_a_request_overtaken_by_the_player_is_not_approved():
    """The host turns approval off; the player, whose request still waits, buys in at once.
    Approving the old request then would buy them a second stack they never asked for."""
    table, seats = approving_table()
    bikash = seats[1]
    request = seat_ask(table_id=table.pk, seat_id=bikash.pk, what="buy_back")
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": False})
    seat_buy_back(table_id=table.pk, seat_id=bikash.pk)
    before = _state(table)
    refused("request_stale", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert _state(table) == before
    bikash.refresh_from_db()
    assert bikash.stack == 2000 and bikash.buy_ins == 2
    # The same with a seat: asked for, sat down directly, left (cashed out): not seated again.
    dipa = newcomer(table)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    asked = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": False})
    seat_take(table_id=table.pk, seat_id=dipa.pk)
    from tables.services import seat_leave

    seat_leave(table_id=table.pk, seat_id=dipa.pk)
    refused("request_stale", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=asked)
    assert Seat.objects.get(pk=dipa.pk).number is None


def test_a_denied_player_is_told_and_cannot_sit_down_directly():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    denial = request_deny(table_id=table.pk, seat_id=seats[0].pk, request=request)
    event = Event.objects.get(table=table, seq=denial)
    assert event.kind == "request_denied"
    assert event.payload == {"request": request, "seat": dipa.pk, "what": "seat", "name": "Dipa"}
    assert event.visible_to is None  # the player's page shows the denial
    before = _state(table)
    refused("ask_host", seat_take, table_id=table.pk, seat_id=dipa.pk)
    refused("ask_host", seat_take, table_id=table.pk, seat_id=dipa.pk, number=4)
    assert _state(table) == before and Seat.objects.get(pk=dipa.pk).number is None


def test_a_player_withdraws_their_own_request_and_only_theirs():
    table, _seats = approving_table(players=3)
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    before = _state(table)
    refused("no_request", request_cancel, table_id=table.pk, seat_id=esha.pk)  # Esha has asked nothing
    assert _state(table) == before
    request_cancel(table_id=table.pk, seat_id=dipa.pk)
    assert _log(table)[-1][1] == "request_cancelled" and selectors.requests_pending(table=table) == []
    refused("no_request", request_cancel, table_id=table.pk, seat_id=dipa.pk)


# --- abuse --------------------------------------------------------------------------------------


def test_only_the_host_approves_or_denies():
    table, seats = approving_table(players=3)
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    before = _state(table)
    for who in (seats[1], seats[2], dipa):  # a player, another player, the asker
        refused("not_host", request_approve, table_id=table.pk, seat_id=who.pk, request=request)
        refused("not_host", request_deny, table_id=table.pk, seat_id=who.pk, request=request)
    _other, other_seats = open_table("faras", players=2, start=False)
    refused("no_seat", request_approve, table_id=table.pk, seat_id=other_seats[0].pk, request=request)
    assert _state(table) == before and len(selectors.requests_pending(table=table)) == 1


def test_a_request_is_answered_once():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=request)
    before = _state(table)
    refused("no_request", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    refused("no_request", request_deny, table_id=table.pk, seat_id=seats[0].pk, request=request)
    refused("no_request", request_cancel, table_id=table.pk, seat_id=dipa.pk)
    assert _state(table) == before
    assert LedgerEntry.objects.filter(table=table, seat=dipa).count() == 1


def test_approving_a_seat_taken_since_is_refused_and_changes_nothing():
    table, seats = approving_table()
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    first = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat", number=4)
    second = seat_ask(table_id=table.pk, seat_id=esha.pk, what="seat", number=4)
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=second)
    before = _state(table)
    error = refused("seat_taken", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=first)
    assert "Dipa" in str(error.message) and "taken" in str(error.message)
    assert _state(table) == before
    assert [r["request"] for r in selectors.requests_pending(table=table)] == [first]
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=first)  # the host can still say no


def test_approving_when_the_table_filled_up_or_buy_backs_ran_out_is_refused():
    table, seats = open_table("faras", players=2, choices={"seats": 3, "buy_backs": 1}, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    first = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    second = seat_ask(table_id=table.pk, seat_id=esha.pk, what="seat")
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=first)
    before = _state(table)
    refused("table_full", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=second)
    assert _state(table) == before
    buy = seat_ask(table_id=table.pk, seat_id=seats[1].pk, what="buy_back")
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=buy)
    refused("no_buy_backs_left", seat_ask, table_id=table.pk, seat_id=seats[1].pk, what="buy_back")


def test_a_buy_back_is_approved_between_hands_only():
    table, seats = approving_table()
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    request = seat_ask(table_id=table.pk, seat_id=seats[1].pk, what="buy_back")  # asked during the hand
    before = _state(table)
    error = refused("hand_in_progress", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert "hand" in str(error.message)
    assert _state(table) == before and len(selectors.requests_pending(table=table)) == 1


def test_a_banned_player_cannot_ask_and_their_waiting_request_goes():
    table, seats = approving_table()
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    seat_ask(table_id=table.pk, seat_id=esha.pk, what="seat")
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=dipa.pk, ban=True)
    assert [r["name"] for r in selectors.requests_pending(table=table)] == ["Esha"]
    before = _state(table)
    refused("no_request", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    refused("banned", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert _state(table) == before and Seat.objects.get(pk=dipa.pk).number is None


def test_one_pending_request_per_player_and_a_limit_on_asking():
    table, _seats = approving_table()
    dipa = newcomer(table)
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    before = _state(table)
    refused("request_pending", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")
    refused("request_pending", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat", number=5)
    assert _state(table) == before
    request_cancel(table_id=table.pk, seat_id=dipa.pk)
    for _ in range(requests_module.REQUESTS_PER_WINDOW - 1):  # ask and withdraw, again and again
        seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
        request_cancel(table_id=table.pk, seat_id=dipa.pk)
    before = _state(table)
    refused("too_many_requests", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert _state(table) == before


def test_after_a_denial_the_player_waits_before_asking_again(monkeypatch):
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=request)
    error = refused("too_many_requests", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert "said no" in str(error.message)
    later = timezone.now() + requests_module.AFTER_DENIAL + timedelta(seconds=1)
    monkeypatch.setattr(requests_module, "timezone", types.SimpleNamespace(now=lambda: later))
    assert seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat") > request


def test_nothing_is_asked_or_answered_once_the_game_is_over():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    end_game(table, seats[0].pk)
    before = _state(table)
    refused("ended", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=request)
    refused("ended", request_deny, table_id=table.pk, seat_id=seats[0].pk, request=request)
    refused("ended", seat_ask, table_id=table.pk, seat_id=seats[1].pk, what="buy_back")
    refused("ended", request_cancel, table_id=table.pk, seat_id=dipa.pk)
    assert _state(table) == before


@pytest.mark.parametrize("request_id", [None, "1", True, 1.5, [1], {"seq": 1}, -1, 10**9])
def test_a_malformed_or_unknown_request_is_refused(request_id):
    table, seats = approving_table()
    dipa = newcomer(table)
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    before = _state(table)
    error = refused(
        "no_request" if isinstance(request_id, int) and not isinstance(request_id, bool) else "bad_request",
        request_approve,
        table_id=table.pk,
        seat_id=seats[0].pk,
        request=request_id,
    )
    assert str(error.message)
    assert _state(table) == before


def test_a_request_of_another_kind_refers_to_no_request():
    """The id is a request's own seq: another event's seq is no request."""
    table, seats = approving_table()
    dipa = newcomer(table)
    seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    joined = Event.objects.get(table=table, kind="seat_joined", payload__seat=dipa.pk).seq
    refused("no_request", request_approve, table_id=table.pk, seat_id=seats[0].pk, request=joined)


@pytest.mark.parametrize(
    ("what", "number", "code"),
    [("seats", None, "bad_request"), (None, None, "bad_request"), ("seat", "3", "bad_seat"), ("seat", 99, "bad_seat")],
)
def test_a_malformed_ask_is_refused(what, number, code):
    table, _seats = approving_table()
    dipa = newcomer(table)
    before = _state(table)
    refused(code, seat_ask, table_id=table.pk, seat_id=dipa.pk, what=what, number=number)
    assert _state(table) == before


def test_asking_for_what_one_could_not_have_is_refused():
    table, seats = approving_table()
    dipa = newcomer(table)
    refused("already_seated", seat_ask, table_id=table.pk, seat_id=seats[1].pk, what="seat")
    refused("not_seated", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="buy_back")
    refused("seat_taken", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat", number=1)


def test_holdem_seats_are_asked_for_before_the_start_only():
    table, seats = approving_table("holdem")
    dipa = newcomer(table)
    refused("not_supported", seat_ask, table_id=table.pk, seat_id=seats[1].pk, what="buy_back")
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    refused("already_started", seat_ask, table_id=table.pk, seat_id=dipa.pk, what="seat")


def test_the_invite_link_asks_for_the_seat_when_the_host_approves_seats():
    table, _seats = approving_table()
    guest = Client()
    response = guest.post(
        reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token}),
        {"display_name": "Dipa", "role": "seat"},
    )
    assert response["Location"] == reverse("table_detail", kwargs={"code": table.code})
    dipa = Seat.objects.get(table=table, display_name="Dipa")
    assert dipa.number is None
    assert [r["seat"] for r in selectors.requests_pending(table=table)] == [dipa.pk]
    page = guest.get(response["Location"]).content.decode()
    assert "You asked the host for a seat" in page


def test_the_snapshot_lists_the_requests_waiting():
    table, seats = approving_table()
    dipa = newcomer(table)
    request = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    for viewer in (seats[0].pk, dipa.pk):
        snapshot = what_viewers_see.table_snapshot(table_id=table.pk, seat_id=viewer)
        assert [r["request"] for r in snapshot["requests"]] == [request]
        assert snapshot["table"]["settings"]["approve_seats"] is True


def test_the_host_seats_a_computer_without_asking():
    from tables.services.computers import computer_add

    table, seats = open_table("faras", players=2, choices={"buy_in_price": "0.00"}, start=False)
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    computer = computer_add(table_id=table.pk, seat_id=seats[0].pk, strength="easy")
    assert computer.number == 3 and selectors.requests_pending(table=table) == []
    refused("no_approval_needed", seat_ask, table_id=table.pk, seat_id=computer.pk, what="buy_back")


def test_turning_the_setting_off_leaves_waiting_requests_to_be_answered():
    table, seats = approving_table()
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    first = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    seat_ask(table_id=table.pk, seat_id=esha.pk, what="seat")
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": False})
    assert len(selectors.requests_pending(table=table)) == 2
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=first)
    request_cancel(table_id=table.pk, seat_id=esha.pk)
    assert Seat.objects.get(pk=dipa.pk).number == 3
    assert seat_take(table_id=table.pk, seat_id=esha.pk).number == 4  # no asking any more


def test_a_game_with_requests_in_its_log_still_verifies():
    """Requests and their answers, asked during hands and answered between them, leave the
    download verifying (they are table events, in no hand's log)."""
    import io
    import json

    from engine import verify
    from tables.history import game_export_build
    from tables.services import table_start
    from tests.tables.test_history import play

    table, seats = approving_table(players=3)
    table_start(table_id=table.pk, seat_id=seats[0].pk)
    dipa = newcomer(table)
    asked_seat = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    asked_buy = seat_ask(table_id=table.pk, seat_id=seats[1].pk, what="buy_back")  # during the hand
    play(table, seats, hands=1, seed=3)
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=asked_seat)
    try:
        request_approve(table_id=table.pk, seat_id=seats[0].pk, request=asked_buy)
    except ServiceError:  # the next hand was dealt already
        request_deny(table_id=table.pk, seat_id=seats[0].pk, request=asked_buy)
    dipa.refresh_from_db()
    play(table, [*seats, dipa], hands=3, seed=4)
    end_game(table, seats[0].pk)
    export = game_export_build(table=Table.objects.get(pk=table.pk))
    kinds = set(Event.objects.filter(table=table).values_list("kind", flat=True))
    assert {"request_made", "request_approved"} <= kinds and export["hands_played"] >= 3
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(export))) == 0, out.getvalue()


# --- a denial read back after a reload -----------------------------------------------------------


def _page_denied(viewer: Seat | None, table: Table):
    """The host's no as a page's snapshot hands it over (``denied``), for ``viewer`` (a seat,
    or ``None``: someone the snapshot does not know)."""
    return what_viewers_see.table_snapshot(table_id=table.pk, seat_id=None if viewer is None else viewer.pk)["denied"]


def test_a_reloaded_page_still_tells_the_player_the_hosts_no_and_no_one_else(monkeypatch):
    """The news of a denial is told once; the player's reloaded page (its snapshot) reads it
    back from the log until they ask again or buy in. Only their own: the host's, another
    player's, a watcher's and another waiting player's snapshots carry nothing."""
    table, seats = approving_table()
    host, bikash = seats
    dipa, esha = newcomer(table), newcomer(table, "Esha")
    for seat in (dipa, esha):
        seat_ask(table_id=table.pk, seat_id=seat.pk, what="seat")
    assert _page_denied(dipa, table) is None  # waiting, not denied
    (dipas, eshas) = selectors.requests_pending(table=table)
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=dipas["request"])
    assert _page_denied(dipa, table) == "seat"
    assert [_page_denied(viewer, table) for viewer in (host, bikash, esha, None)] == [None, None, None, None]
    # Esha's request is approved: nothing to tell her, and Dipa's no still stands.
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=eshas["request"])
    assert _page_denied(esha, table) is None and _page_denied(dipa, table) == "seat"
    # Dipa asks again (after the wait): the old no is past.
    later = timezone.now() + requests_module.AFTER_DENIAL + timedelta(seconds=1)
    monkeypatch.setattr(requests_module, "timezone", types.SimpleNamespace(now=lambda: later))
    again = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="seat")
    assert _page_denied(dipa, table) is None
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=again)
    assert _page_denied(dipa, table) is None
    # A buy-back asked for and denied; then (approval turned off) she buys in at once: past.
    asked = seat_ask(table_id=table.pk, seat_id=dipa.pk, what="buy_back")
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=asked)
    assert _page_denied(dipa, table) == "buy_back"
    assert _page_denied(esha, table) is None and _page_denied(host, table) is None
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": False})
    seat_buy_back(table_id=table.pk, seat_id=dipa.pk)
    assert _page_denied(dipa, table) is None
    # A withdrawn request tells nothing either.
    table_update_settings(table_id=table.pk, seat_id=seats[0].pk, choices={"approve_seats": True})
    seat_ask(table_id=table.pk, seat_id=esha.pk, what="buy_back")
    request_cancel(table_id=table.pk, seat_id=esha.pk)
    assert _page_denied(esha, table) is None
