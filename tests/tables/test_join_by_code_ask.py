"""Asking the host from the lobby's code box (issue 14: "the lobby's code form asks the
host's permission").

Rules pinned: someone not at the table with only its code may ask the host to let them in;
the request is an event in the table's log (``request_made``, ``what: "join"``) naming the
asker by account id or by a digest of the guest's session token, never the token; the
host approves or denies like any request; once approved the asker's page takes them to
the table as a watcher. To a stranger, asking at a code no table has looks the same and
records nothing; every ask counts against the address's limit of failed joins; a banned
person, an ended game and a second ask while one waits record nothing.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from tables import selectors, what_viewers_see
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tables.models import Event, Seat, Table
from tables.services import (
    ServiceError,
    join_approved_take,
    join_ask,
    join_withdraw,
    request_approve,
    request_cancel,
    request_deny,
    seat_remove,
    table_join,
)
from tests.tables.conftest import end_game, make_user, open_table

pytestmark = pytest.mark.django_db

CODE_URL = reverse("table_join_by_code")


@pytest.fixture
def address():
    """A client address of this test alone (the join limit counts per address, in a shared cache)."""
    value = f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"
    join_attempts_forget(value)
    yield value
    join_attempts_forget(value)


def _joins(table: Table) -> list[dict]:
    return [
        event.payload
        for event in Event.objects.filter(table=table, kind="request_made").order_by("seq")
        if event.payload["what"] == "join"
    ]


def _main(response, code: str) -> str:
    """The page's main part, with the code asked for and the form's CSRF token (each
    session's own) left out (the header names the user)."""
    page = response.content.decode()
    main = page[page.index("<main") : page.index("</main>")].replace(code, "X")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", main)


def _ask(client: Client, code: str, name: str | None = None):
    data = {"code": code}
    if name is not None:
        data["display_name"] = name
    return client.post(CODE_URL, data)


def test_an_account_asks_with_the_code_waits_and_is_let_in(address):
    table, seats = open_table("faras", players=2, start=False)
    eve = make_user("eve")
    stranger = Client(REMOTE_ADDR=address)
    stranger.force_login(eve)
    refused = stranger.get(f"{CODE_URL}?code={table.code.lower()}")
    page = refused.content.decode()
    assert refused.status_code == 403 and "ask the host for the invite link" in page
    assert "Or ask the host to let you in" in page and 'name="display_name"' not in page  # an account has its name
    response = _ask(stranger, table.code)
    assert response.status_code == 302 and response["Location"] == f"{CODE_URL}?code={table.code}"
    (asked,) = _joins(table)
    assert asked == {"seat": None, "name": eve.table_name, "what": "join", "number": None, "who": f"user:{eve.pk}"}
    waiting = stranger.get(response["Location"])
    assert waiting.status_code == 200
    assert (
        "Waiting for their answer" in waiting.content.decode()
        and "js/claim_wait.js" in waiting.content.decode()
        and "http-equiv" not in waiting.content.decode()
    )
    assert not Seat.objects.filter(table=table, user=eve).exists()
    (pending,) = selectors.requests_pending(table=table)
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=pending["request"])
    assert not Seat.objects.filter(table=table, user=eve).exists()  # made when her page looks again
    arrived = stranger.get(response["Location"])
    assert arrived["Location"] == reverse("table_detail", kwargs={"code": table.code})
    seat = Seat.objects.get(table=table, user=eve)
    assert seat.status == Seat.Status.WATCHING and seat.number is None
    assert list(Event.objects.filter(table=table).order_by("-seq").values_list("kind", flat=True)[:2]) == [
        "seat_joined",
        "request_approved",
    ]
    assert stranger.get(arrived["Location"]).status_code == 200  # the table page is hers now


def test_a_guest_asks_under_a_name_the_log_never_holds_the_token_and_a_denial_is_shown(address):
    table, seats = open_table("faras", players=2, start=False)
    guest = Client(REMOTE_ADDR=address)
    assert 'name="display_name"' in guest.get(f"{CODE_URL}?code={table.code}").content.decode()
    assert "Please give the name" in _ask(guest, table.code, "  ").content.decode()
    assert _joins(table) == []
    _ask(guest, table.code, "Dipa")
    token = guest.session[GUEST_TOKEN_SESSION_KEY]
    (asked,) = _joins(table)
    assert asked["who"].startswith("guest:") and asked["name"] == "Dipa"
    assert not Event.objects.filter(table=table, payload__icontains=token).exists()
    assert token not in str(list(Event.objects.filter(table=table).values_list("payload", flat=True)))
    (pending,) = selectors.requests_pending(table=table)
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=pending["request"])
    denied = guest.get(f"{CODE_URL}?code={table.code}")
    assert denied.status_code == 200 and "said no" in denied.content.decode()
    assert not Seat.objects.filter(table=table, display_name="Dipa").exists()


def test_asking_at_a_code_no_table_has_looks_the_same_and_records_nothing(address):
    table, _seats = open_table("faras", players=2, start=False)
    events = Event.objects.count()
    real, fake = Client(REMOTE_ADDR=address), Client(REMOTE_ADDR=address)
    real.force_login(make_user("eve"))
    fake.force_login(make_user("mallory"))
    missing = "ZZZZZ2" if table.code != "ZZZZZ2" else "ZZZZZ3"
    answers = []
    for client, code in ((real, table.code), (fake, missing)):
        refused = client.get(f"{CODE_URL}?code={code}")
        asked = _ask(client, code)
        waiting = client.get(asked["Location"])
        answers.append((refused.status_code, asked.status_code, waiting.status_code, _main(waiting, code)))
    assert answers[0] == answers[1]
    assert Event.objects.count() == events + 1  # the real table's request only


def test_every_ask_counts_against_the_address(address):
    table, _seats = open_table("faras", players=2, start=False)
    client = Client(REMOTE_ADDR=address)
    client.force_login(make_user("eve"))
    for _ in range(MAX_FAILED_JOINS):
        _ask(client, "QQQQQ2")
    before = list(Event.objects.filter(table=table).values_list("seq", flat=True))
    assert _ask(client, table.code).status_code == 429
    assert client.get(f"{CODE_URL}?code={table.code}").status_code == 429
    assert list(Event.objects.filter(table=table).values_list("seq", flat=True)) == before


def test_one_ask_waits_at_a_time_and_nothing_is_recorded_when_banned_or_over():
    table, seats = open_table("faras", players=3, start=False)
    eve = make_user("eve")
    assert join_ask(code=table.code, user=eve) is not None
    assert join_ask(code=table.code, user=eve) is None  # already waiting
    assert len(_joins(table)) == 1
    # Chandra (at the table) is banned: asking by code gets her nothing.
    seat_remove(table_id=table.pk, seat_id=seats[0].pk, remove_seat_id=seats[2].pk, ban=True)
    assert join_ask(code=table.code, user=seats[2].user) is None
    with pytest.raises(ServiceError) as refused:
        join_approved_take(table_id=table.pk, user=seats[2].user, guest_token=None)
    assert refused.value.code == "banned"
    end_game(table, seats[0].pk)
    assert join_ask(code=table.code, user=make_user("late")) is None
    assert len(_joins(table)) == 1
    with pytest.raises(ServiceError):
        join_ask(code=table.code, guest_name="<b>", guest_token="t" * 30)  # a bad name is still refused


def test_only_the_host_lets_someone_in_and_not_under_a_name_taken_since():
    table, seats = open_table("faras", players=2, start=False)
    token = "g" * 40
    request = join_ask(code=table.code, guest_name="Dipa", guest_token=token)
    with pytest.raises(ServiceError) as refused:
        request_approve(table_id=table.pk, seat_id=seats[1].pk, request=request)
    assert refused.value.code == "not_host"
    with pytest.raises(ServiceError) as refused:
        join_approved_take(table_id=table.pk, user=None, guest_token=token)
    assert refused.value.code == "no_invite"  # not approved yet
    table_join(code=table.code, invite_token=table.invite_token, guest_name="dipa", guest_token="h" * 40)
    before = Event.objects.filter(table=table).count()
    with pytest.raises(ServiceError) as refused:
        request_approve(table_id=table.pk, seat_id=seats[0].pk, request=request)
    assert refused.value.code == "name_taken" and "Dipa" in str(refused.value.message)
    assert Event.objects.filter(table=table).count() == before


def test_who_asked_is_never_sent_to_the_table():
    """The asker's key (an account id, or a digest of a guest's session token) stays in the
    log: no snapshot, pushed list, event frame or history sentence carries it."""
    import json

    from tables.history import game_export_build

    table, seats = open_table("faras", players=2, start=False)
    eve = make_user("eve")
    guest_token = "g" * 40
    first = join_ask(code=table.code, guest_name="Dipa", guest_token=guest_token)
    second = join_ask(code=table.code, user=eve)
    keys = [payload["who"] for payload in _joins(table)]
    assert len(keys) == 2 and keys[0].startswith("guest:")
    request_approve(table_id=table.pk, seat_id=seats[0].pk, request=first)
    request_deny(table_id=table.pk, seat_id=seats[0].pk, request=second)
    join_ask(code=table.code, user=make_user("mallory"))  # one still waiting
    for viewer in (seats[0].pk, seats[1].pk):
        sent = json.dumps(
            [
                what_viewers_see.table_snapshot(table_id=table.pk, seat_id=viewer),
                selectors.events_after(table_id=table.pk, after=0, viewer=str(viewer)),
            ]
        )
        assert "join" in sent and '"who"' not in sent
        assert keys[0].removeprefix("guest:") not in sent and "user:" not in sent
    end_game(table, seats[0].pk)
    assert '"who"' not in json.dumps(game_export_build(table=Table.objects.get(pk=table.pk)))


def test_strangers_asking_cannot_flood_the_hosts_list():
    """Each guest session is a new asker, and addresses are many: the requests to join
    waiting at one table are capped (a further ask records nothing and looks the same), and
    someone the host said no to waits before asking again, as a player does."""
    from tables.services.requests import MAX_JOINS_WAITING

    table, seats = open_table("faras", players=2, start=False)
    for index in range(MAX_JOINS_WAITING + 5):
        join_ask(code=table.code, guest_name=f"Spam {index}", guest_token=f"{index:040d}")
    assert len(selectors.requests_pending(table=table)) == MAX_JOINS_WAITING
    for pending in selectors.requests_pending(table=table):
        request_deny(table_id=table.pk, seat_id=seats[0].pk, request=pending["request"])
    assert join_ask(code=table.code, guest_name="Spam 0", guest_token=f"{0:040d}") is None  # just denied
    assert selectors.requests_pending(table=table) == []
    assert join_ask(code=table.code, guest_name="Someone", guest_token="n" * 40) is not None


# --- withdrawing a request to join (the waiting page's "Withdraw my request") ---------------------

WITHDRAW_URL = reverse("table_join_withdraw")


def _withdraw(client: Client, code: str):
    return client.post(WITHDRAW_URL, {"code": code})


def _log(table: Table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind"))


def test_the_asker_withdraws_from_the_waiting_page_and_the_host_can_no_longer_answer(address):
    table, seats = open_table("faras", players=2, start=False)
    guest = Client(REMOTE_ADDR=address)
    asked = _ask(guest, table.code, "Dipa")
    waiting = guest.get(asked["Location"]).content.decode()
    assert "Withdraw my request" in waiting and f'action="{WITHDRAW_URL}"' in waiting
    (pending,) = selectors.requests_pending(table=table)
    who = _joins(table)[0]["who"]
    withdrawn = _withdraw(guest, table.code.lower())
    page = withdrawn.content.decode()
    assert withdrawn.status_code == 200 and "You withdrew your request" in page
    assert "claim_wait.js" not in page and "Withdraw my request" not in page  # no longer waiting
    last = Event.objects.filter(table=table).order_by("-seq").first()
    assert last.kind == "request_cancelled" and last.actor is None
    assert last.payload == {
        "request": pending["request"],
        "seat": None,
        "what": "join",
        "name": "Dipa",
        "who": who,
        "by": "asker",
    }
    assert selectors.requests_pending(table=table) == []
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        request_approve(table_id=table.pk, seat_id=seats[0].pk, request=pending["request"])
    assert refused.value.code == "no_request"
    # A second withdrawal is refused and changes nothing; the code page no longer waits.
    again = _withdraw(guest, table.code)
    assert again.status_code == 409 and "no request waiting" in again.content.decode()
    assert _log(table) == before
    assert guest.get(f"{CODE_URL}?code={table.code}").status_code == 403  # asked for the invite link again
    with pytest.raises(ServiceError) as refused:
        join_approved_take(table_id=table.pk, user=None, guest_token=guest.session[GUEST_TOKEN_SESSION_KEY])
    assert refused.value.code == "no_invite"
    # Having withdrawn, one may ask again (within the usual limits).
    _ask(guest, table.code, "Dipa")
    assert [request["name"] for request in selectors.requests_pending(table=table)] == ["Dipa"]


def test_nobody_but_the_asker_can_withdraw_a_request_to_join(address):
    """Abuse: another guest, another account, a player at the table and the host all try to
    withdraw Dipa's request; only an asker's own request is ever withdrawn."""
    table, seats = open_table("faras", players=2, start=False)
    dipa = Client(REMOTE_ADDR=address)
    _ask(dipa, table.code, "Dipa")
    (dipas,) = selectors.requests_pending(table=table)
    before = _log(table)
    stranger = Client(REMOTE_ADDR=address)  # another guest, who never asked
    stranger.get(f"{CODE_URL}?code={table.code}")
    refused = _withdraw(stranger, table.code)
    assert refused.status_code == 409 and "no request waiting" in refused.content.decode()
    mallory = Client(REMOTE_ADDR=address)
    mallory.force_login(make_user("mallory"))
    assert _withdraw(mallory, table.code).status_code == 409
    # A session token with no request behind it (the service asked directly) withdraws nothing.
    with pytest.raises(ServiceError) as by_token:
        join_withdraw(code=table.code, guest_token="x" * 40)
    assert by_token.value.code == "no_request"
    with pytest.raises(ServiceError) as no_session:
        join_withdraw(code=table.code, guest_token=None)
    assert no_session.value.code == "no_session"
    # A player at the table and the host withdraw their own requests, never a request to join.
    for seat in seats:
        with pytest.raises(ServiceError) as not_theirs:
            request_cancel(table_id=table.pk, seat_id=seat.pk)
        assert not_theirs.value.code == "no_request"
    assert _log(table) == before
    # Another guest who asked too withdraws their own: Dipa's still waits.
    other = Client(REMOTE_ADDR=address)
    _ask(other, table.code, "Eve")
    assert _withdraw(other, table.code).status_code == 200
    assert [request["request"] for request in selectors.requests_pending(table=table)] == [dipas["request"]]
    cancelled = Event.objects.filter(table=table, kind="request_cancelled").get()
    assert cancelled.payload["name"] == "Eve" and cancelled.payload["request"] != dipas["request"]


@pytest.mark.parametrize("answer", ["approve", "deny"])
def test_a_withdrawal_after_the_hosts_answer_is_refused_and_changes_nothing(address, answer):
    table, seats = open_table("faras", players=2, start=False)
    eve = make_user("eve")
    client = Client(REMOTE_ADDR=address)
    client.force_login(eve)
    _ask(client, table.code)
    (pending,) = selectors.requests_pending(table=table)
    (request_approve if answer == "approve" else request_deny)(
        table_id=table.pk, seat_id=seats[0].pk, request=pending["request"]
    )
    before = _log(table)
    refused = _withdraw(client, table.code)
    page = refused.content.decode()
    assert refused.status_code == 409
    assert ("already let you in" if answer == "approve" else "already said no") in page
    assert "See the host&#x27;s answer" in page or "See the host's answer" in page
    assert _log(table) == before
    with pytest.raises(ServiceError) as again:
        join_withdraw(code=table.code, user=eve)
    assert again.value.code == "request_answered"
    looked = client.get(f"{CODE_URL}?code={table.code}")  # the waiting page still shows the answer
    if answer == "approve":
        assert looked["Location"] == reverse("table_detail", kwargs={"code": table.code})
    else:
        assert "said no" in looked.content.decode()


def test_withdrawing_at_a_code_no_table_has_looks_the_same_and_records_nothing(address):
    table, _seats = open_table("faras", players=2, start=False)
    real, fake = Client(REMOTE_ADDR=address), Client(REMOTE_ADDR=address)
    real.force_login(make_user("eve"))
    fake.force_login(make_user("mallory"))
    missing = "ZZZZZ2" if table.code != "ZZZZZ2" else "ZZZZZ3"
    answers = []
    for client, code in ((real, table.code), (fake, missing)):
        _ask(client, code)
        events = Event.objects.count()
        first, second = _withdraw(client, code), _withdraw(client, code)
        recorded = Event.objects.count() - events
        answers.append((first.status_code, _main(first, code), second.status_code, _main(second, code)))
        assert recorded == (1 if client is real else 0)
    assert answers[0] == answers[1]
    assert join_withdraw(code=missing, user=make_user("nobody")) is None


def test_withdrawing_once_the_game_is_over_records_nothing():
    table, seats = open_table("faras", players=2, start=False)
    eve = make_user("eve")
    join_ask(code=table.code, user=eve)
    end_game(table, seats[0].pk)
    before = _log(table)
    assert join_withdraw(code=table.code, user=eve) is None
    assert _log(table) == before and before[-1][1] == "game_ended"
