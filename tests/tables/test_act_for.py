"""The host's "Act for" (issue 38): once a player's time has run out, the host picks one of
their moves (it does not sit them out) or away for the hand; the log names the host
(``by_seat``); a move that would show a hidden card is the player's alone; every refusal
changes nothing (docs/rules.md, "Away players")."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from engine import verify
from tables.history import hand_replay_steps, seat_names
from tables.models import Event, Hand, Seat, Table
from tables.services import hand_act, hand_act_for_away, hand_see, table_start
from tables.services.computers import computer_fill
from tables.services.errors import ServiceError
from tables.services.seat_state import AWAY_KEY
from tests.tables.conftest import current_turn, end_game, open_table


def _live(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
    assert hand is not None
    return hand


def _seat(table: Table, name: str | None) -> Seat:
    return Seat.objects.get(table=table, pk=int(str(name)))


def _time_runs_out(table: Table) -> None:
    Hand.objects.filter(pk=_live(table).pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))


def _to_a_guest(table: Table, host: Seat) -> Seat:
    """Play chaal until a player other than the host is to act; that player."""
    for _step in range(5):
        player, _legal = current_turn(table)
        if str(player) != str(host.pk):
            return _seat(table, player)
        hand_act(table_id=table.pk, seat_id=host.pk, verb="chaal")
    raise AssertionError("the host was always to act")


def _log(table: Table) -> list[tuple[int, str, dict]]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("seq", "kind", "payload"))


def _refused(table: Table, code: str, **kwargs: object) -> None:
    before = _log(table)
    with pytest.raises(ServiceError) as refused:
        hand_act_for_away(table_id=table.pk, **kwargs)  # type: ignore[arg-type]
    assert refused.value.code == code, refused.value.message
    assert str(refused.value.message)
    assert _log(table) == before


@pytest.mark.django_db
def test_the_host_plays_the_chosen_chaal_for_a_blind_player_who_stays_in_and_blind():
    table, seats = open_table("faras", 3)
    host = seats[0]
    away = _to_a_guest(table, host)
    _time_runs_out(table)
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk, move="chaal")
    action = Event.objects.get(table=table, seq=seq)
    assert action.kind == "action" and action.actor_id == away.pk
    payload = {key: value for key, value in action.payload.items() if key != "_hand"}
    assert payload == {"player": str(away.pk), "verb": "chaal", "amount": None, "by": "host", "by_seat": host.pk}
    chaal = Event.objects.get(table=table, seq=seq + 1)
    assert chaal.kind == "chaal" and chaal.payload["blind"] is True
    # A chosen move does not sit the player out nor make them away for the hand.
    away.refresh_from_db()
    assert away.status == Seat.Status.PLAYING
    assert str(away.pk) not in _live(table).plan.get(AWAY_KEY, [])
    assert not Event.objects.filter(table=table, kind__in=("seat_sat_out", "see", "cards")).exists()
    # The log in words names who acted for whom, for every viewer.
    hand = Hand.objects.get(pk=_live(table).pk)
    names = seat_names(table=table)
    for viewer in (None, str(host.pk), str(away.pk)):
        words = [word for step in hand_replay_steps(table=table, hand=hand, viewer=viewer) for word in step["words"]]
        said = f"{names[str(host.pk)]} acted for {names[str(away.pk)]}: {names[str(away.pk)]} plays blind for"
        assert any(word.startswith(said) for word in words), words


@pytest.mark.django_db
def test_away_for_the_hand_is_todays_least_move_and_names_the_host():
    table, seats = open_table("faras", 3)
    host = seats[0]
    away = _to_a_guest(table, host)
    _time_runs_out(table)
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk, move="away")
    action = Event.objects.get(table=table, seq=seq)
    assert action.payload["verb"] == "pack"
    assert action.payload["by"] == "host" and action.payload["by_seat"] == host.pk
    away.refresh_from_db()
    assert away.status == Seat.Status.SITTING_OUT


@pytest.mark.django_db
def test_a_raise_for_the_player_within_its_bounds_and_refusals_of_bad_amounts_and_moves():
    table, seats = open_table("faras", 3)
    host = seats[0]
    away = _to_a_guest(table, host)
    ask = {"seat_id": host.pk, "player_seat_id": away.pk}
    _refused(table, "too_soon", **ask, move="chaal")
    _time_runs_out(table)
    _refused(table, "not_legal", **ask, move="call")  # hold'em's word: not a Teen Patti move
    _refused(table, "not_legal", **ask, move="refuse")  # nobody asked them for a sideshow
    _refused(table, "raise_too_small", **ask, move="raise", amount=1)
    _refused(table, "amount_required", **ask, move="raise")
    _refused(table, "amount_not_allowed", **ask, move="pack", amount=10)
    _refused(table, "amount_not_allowed", **ask, move="away", amount=10)
    _refused(table, "bad_amount", **ask, move="raise", amount="20")
    _refused(table, "bad_amount", **ask, move="raise", amount=True)
    _refused(table, "bad_amount", **ask, move="raise", amount=-5)
    _refused(table, "bad_move", **ask, move=["chaal"])
    _refused(table, "bad_move", **ask, move="")
    _refused(table, "no_seat", seat_id=host.pk, player_seat_id=str(away.pk), move="chaal")
    _player, legal = current_turn(table)
    raise_to = next(entry for entry in legal if entry.verb == "raise")
    seq = hand_act_for_away(table_id=table.pk, **ask, move="raise", amount=raise_to.min)
    assert Event.objects.get(table=table, seq=seq).payload["amount"] == raise_to.min
    assert Event.objects.get(table=table, seq=seq + 1).payload["stake"] == raise_to.min


@pytest.mark.django_db
def test_nobody_but_the_host_and_nobody_for_the_host_or_a_computer():
    table, seats = open_table("faras", 3)
    host = seats[0]
    away = _to_a_guest(table, host)
    other = next(seat for seat in seats if seat.pk not in (host.pk, away.pk))
    _time_runs_out(table)
    _refused(table, "not_host", seat_id=other.pk, player_seat_id=away.pk, move="chaal")
    _refused(table, "not_host", seat_id=away.pk, player_seat_id=away.pk, move="chaal")
    _refused(table, "not_to_act", seat_id=host.pk, player_seat_id=other.pk, move="chaal")
    # The host's own turn is played from their own bar, not "for" themselves.
    hand_act(table_id=table.pk, seat_id=away.pk, verb="chaal")
    player, _legal = current_turn(table)
    while str(player) != str(host.pk):
        hand_act(table_id=table.pk, seat_id=int(str(player)), verb="chaal")
        player, _legal = current_turn(table)
    _time_runs_out(table)
    _refused(table, "own_turn", seat_id=host.pk, player_seat_id=host.pk, move="chaal")


@pytest.mark.django_db
def test_the_host_never_sees_shows_or_compares_for_another(monkeypatch):
    """Sideshow both ways round with the host as the other party, see, show: refused."""
    table, seats = open_table("faras", 3)
    host = seats[0]
    # Play until the host has seen and bet, and the next player (the guest) is to act.
    away = _to_a_guest(table, host)
    player, _legal = current_turn(table)
    while True:
        player, _legal = current_turn(table)
        if str(player) == str(host.pk):
            break
        hand_act(table_id=table.pk, seat_id=int(str(player)), verb="chaal")
    hand_see(table_id=table.pk, seat_id=host.pk)
    hand_act(table_id=table.pk, seat_id=host.pk, verb="chaal")
    away = _seat(table, current_turn(table)[0])
    _time_runs_out(table)
    ask = {"seat_id": host.pk, "player_seat_id": away.pk}
    _refused(table, "player_only", **ask, move="see")  # blind: the host may not look for them
    hand_see(table_id=table.pk, seat_id=away.pk)  # the player looks themselves
    _time_runs_out(table)
    _player, legal = current_turn(table)
    assert "sideshow" in {entry.verb for entry in legal}  # they could ask the host to compare
    _refused(table, "player_only", **ask, move="sideshow")
    _refused(table, "player_only", **ask, move="show")
    # The other way round: the host asks the away player for a sideshow.
    hand_act(table_id=table.pk, seat_id=away.pk, verb="chaal")
    third = _seat(table, current_turn(table)[0])
    hand_see(table_id=table.pk, seat_id=third.pk)
    hand_act(table_id=table.pk, seat_id=third.pk, verb="chaal")
    assert str(current_turn(table)[0]) == str(host.pk)
    hand_act(table_id=table.pk, seat_id=host.pk, verb="sideshow")
    hand = _live(table)
    if hand.to_act != str(third.pk):  # the partner is the player before the host
        pytest.skip("seating put another partner")
    _time_runs_out(table)
    _refused(table, "player_only", seat_id=host.pk, player_seat_id=third.pk, move="accept")
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=third.pk, move="refuse")
    assert Event.objects.get(table=table, seq=seq + 1).kind == "sideshow_refused"
    assert not Event.objects.filter(table=table, kind="sideshow_result").exists()


@pytest.mark.django_db
def test_a_chaal_that_brings_the_pot_limit_and_its_showdown_is_the_players_alone():
    table, seats = open_table("faras", 3, {"pot_limit_boots": 4})
    host = seats[0]
    away = _to_a_guest(table, host)
    _time_runs_out(table)
    # Three boots in; a blind chaal of one boot reaches four: everyone would show.
    _refused(table, "reveals_cards", seat_id=host.pk, player_seat_id=away.pk, move="chaal")
    hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk, move="pack")
    assert not Event.objects.filter(table=table, kind="showdown").exists()


@pytest.mark.django_db
def test_in_holdem_a_call_that_ends_in_a_showdown_is_refused_and_a_fold_is_not():
    table, seats = open_table("holdem", 2)
    host = seats[0]
    # Heads-up: call and check to the river, then the first to act there bets.
    for _step in range(40):
        player, legal = current_turn(table)
        verbs = {entry.verb for entry in legal}
        state_river = Event.objects.filter(table=table, kind="board", payload__street="river").exists()
        if state_river:
            break
        hand_act(table_id=table.pk, seat_id=int(str(player)), verb="check" if "check" in verbs else "call")
    guest = seats[1]
    if str(current_turn(table)[0]) == str(guest.pk):
        hand_act(table_id=table.pk, seat_id=guest.pk, verb="check")
    hand_act(table_id=table.pk, seat_id=host.pk, verb="bet", amount=20)
    to_act = _seat(table, current_turn(table)[0])
    assert to_act.pk == guest.pk
    _time_runs_out(table)
    _refused(table, "reveals_cards", seat_id=host.pk, player_seat_id=to_act.pk, move="call")
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=to_act.pk, move="fold")
    assert Event.objects.get(table=table, seq=seq).payload["by_seat"] == host.pk
    assert not Event.objects.filter(table=table, kind="show").exists()


@pytest.mark.django_db
def test_a_game_with_the_hosts_moves_replays_verifies_and_old_logs_still_read(client):
    """The action keeps the player as actor, so the hand replays and the whole game verifies
    (``python -m engine verify`` on the site's download); a log written before ``by_seat``
    still renders, saying "The host"."""
    table, seats = open_table("faras", 3)
    host = seats[0]
    away = _to_a_guest(table, host)
    _time_runs_out(table)
    seq = hand_act_for_away(table_id=table.pk, seat_id=host.pk, player_seat_id=away.pk, move="chaal")
    number = _live(table).number
    names = seat_names(table=table)
    client.force_login(host.user)
    page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": number}))
    assert page.status_code == 200
    assert f"{names[str(host.pk)]} acted for {names[str(away.pk)]}:" in page.content.decode()
    # An old log: the same action without the host's seat.
    old = Event.objects.get(table=table, seq=seq)
    old.payload = {key: value for key, value in old.payload.items() if key != "by_seat"}
    old.save(update_fields=["payload"])
    page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": number}))
    assert page.status_code == 200
    assert f"The host acted for {names[str(away.pk)]}:" in page.content.decode()
    end_game(table, host.pk)
    data = json.loads(client.get(reverse("game_export", kwargs={"code": table.code})).content)
    out = io.StringIO()
    status = verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(data)))
    assert status == 0, out.getvalue()


@pytest.mark.django_db
def test_a_computers_turn_is_its_own_whatever_the_move():
    table, seats = open_table("holdem", 1, start=False)
    host = seats[0]
    computer_fill(table_id=table.pk, seat_id=host.pk, strength="normal")
    table_start(table_id=table.pk, seat_id=host.pk)
    for _step in range(20):
        player, legal = current_turn(table)
        if _seat(table, player).computer:
            break
        verbs = {entry.verb for entry in legal}
        hand_act(table_id=table.pk, seat_id=host.pk, verb="call" if "call" in verbs else "check")
    computer = _seat(table, current_turn(table)[0])
    assert computer.computer
    _time_runs_out(table)
    for move in ("fold", "call", "check", "away"):
        _refused(table, "computer_turn", seat_id=host.pk, player_seat_id=computer.pk, move=move)


@pytest.mark.django_db
def test_once_a_blind_players_blind_turns_are_spent_the_host_may_only_pack_or_choose_away():
    """Book 000: after the blind turns a player must see before betting again; looking is
    theirs alone, so the host is left pack and away for the hand."""
    table, seats = open_table("faras", 3, {"blind_turns": 2})
    host = seats[0]
    hand_number = _live(table).number
    for _step in range(30):
        player, legal = current_turn(table)
        verbs = {entry.verb for entry in legal}
        if str(player) != str(host.pk) and "chaal" not in verbs:
            break
        seat = int(str(player))
        if "chaal" not in verbs:  # the host's own turn with their blind turns spent
            hand_see(table_id=table.pk, seat_id=seat)
        hand_act(table_id=table.pk, seat_id=seat, verb="chaal")
    assert _live(table).number == hand_number
    away = _seat(table, current_turn(table)[0])
    _time_runs_out(table)
    ask = {"seat_id": host.pk, "player_seat_id": away.pk}
    _refused(table, "not_legal", **ask, move="chaal")
    _refused(table, "player_only", **ask, move="see")
    seq = hand_act_for_away(table_id=table.pk, **ask, move="pack")
    assert Event.objects.get(table=table, seq=seq + 1).kind == "pack"
    away.refresh_from_db()
    assert away.status == Seat.Status.PLAYING
