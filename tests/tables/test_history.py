"""Hand histories (tables.history, tables.pages.views_history): games played through the live-play
services, then listed, replayed per viewer, exported, replayed by the engine and verified."""

from __future__ import annotations

import hashlib
import io
import json
import random
import re
import secrets
from pathlib import Path

import pytest
from django.urls import reverse

from engine import verify
from engine.replay import run_scenario
from tables import history
from tables.events import event_frame
from tables.models import Event, Hand, Seat, Table
from tables.selectors import frame_for_viewer
from tables.services import hand_act
from tests.tables.conftest import current_turn, end_game, make_user, open_table

pytestmark = pytest.mark.django_db


CARD = re.compile(r"^(?:10|[2-9TJQKA])[shdc]$")
GAMES = ["faras", "classic", "999", "holdem"]


def play(table: Table, seats: list[Seat], *, hands: int, seed: int) -> None:
    """Random legal play through ``hand_act`` until ``hands`` hands have finished."""
    rng = random.Random(seed)
    by_name = {seat.engine_name: seat for seat in seats}
    for _step in range(2000):
        finished = Hand.objects.filter(table=table, ended_at__isnull=False).count()
        player, legal = current_turn(table)
        if player is None or finished >= hands:
            return
        choice = rng.choices(legal, weights=[0.1 if option.verb in ("allin",) else 1.0 for option in legal])[0]
        amount = None
        if choice.min is not None:
            amount = choice.min if rng.random() < 0.8 or choice.max is None else choice.max
        hand_act(table_id=table.pk, seat_id=by_name[player].pk, verb=choice.verb, amount=amount)
    raise AssertionError("random play did not finish the hands")


def played_game(game: str, *, hands: int = 3, seed: int = 1, end: bool = True) -> tuple[Table, list[Seat]]:
    table, seats = open_table(game, players=3)
    play(table, seats, hands=hands, seed=seed)
    if end:
        end_game(table, seats[0].pk)
    table.refresh_from_db()
    return table, seats


def client_for(client, seat: Seat):
    client.force_login(seat.user)
    return client


def replay_data(html: str) -> dict:
    match = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the hand page carries its replay data"
    return json.loads(match.group(1))


def card_tokens(value) -> set[str]:
    """Every card written anywhere in a JSON value (inside sentences too)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_tokens(key) | card_tokens(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_tokens(item)
    elif isinstance(value, str):
        found |= {token for token in re.split(r"[\s,.;:()]+", value) if CARD.match(token)}
    return found


# --- the list and who may look ---------------------------------------------------------------


def test_hand_list_shows_number_players_winners_and_pot():
    table, seats = played_game("faras", hands=3, end=False)
    names = {seat.engine_name: seat.display_name for seat in seats}
    summaries = history.table_hand_list(table=table)
    finished = [summary for summary in summaries if summary.finished]
    assert len(finished) >= 3
    for summary in finished:
        hand = Hand.objects.get(table=table, number=summary.number)
        assert summary.players == tuple(names[name] for name, _stack in hand.plan["players"])
        assert summary.pot == sum(pot["amount"] for pot in hand.result["pots"]) > 0
        assert set(summary.winners) == {names[w] for pot in hand.result["pots"] for w in pot["winners"]}
    assert [summary.number for summary in summaries] == sorted((s.number for s in summaries), reverse=True)


def test_history_pages_are_for_the_people_at_the_table_only(client):
    table, seats = played_game("faras", hands=1)
    urls = [
        reverse("table_history", kwargs={"code": table.code}),
        reverse("hand_history", kwargs={"code": table.code, "number": 1}),
        reverse("hand_export", kwargs={"code": table.code, "number": 1}),
        reverse("game_export", kwargs={"code": table.code}),
    ]
    # Answered as for a code no table has (issue 24: the page tells a stranger nothing).
    for url in urls:
        assert client.get(url).status_code == 404, url  # anonymous, no guest session
    client.force_login(make_user("stranger"))
    for url in urls:
        assert client.get(url).status_code == 404, url
    client_for(client, seats[1])
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_a_guest_at_the_table_may_look_by_their_session(client):
    table, _seats = open_table("faras", players=2, start=False)
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    client.post(link, {"display_name": "Guest Gita", "role": "watch"})
    assert Seat.objects.filter(table=table, display_name="Guest Gita", user__isnull=True).exists()
    assert client.get(reverse("table_history", kwargs={"code": table.code})).status_code == 200


def test_the_host_without_a_seat_may_look(client):
    table, seats = played_game("faras", hands=1)
    Seat.objects.filter(pk=seats[0].pk).update(user=None, guest_token="moved-away-token-0000000000")
    client.force_login(table.host)
    assert client.get(reverse("table_history", kwargs={"code": table.code})).status_code == 200


# --- the replayer shows each viewer only what they could see ----------------------------------


def allowed_cards(table: Table, hand: Hand, viewer: str) -> set[str]:
    """Cards in the events of this hand that ``viewer`` was sent, as live play filters them."""
    allowed: set[str] = set()
    for event in Event.objects.filter(hand=hand).order_by("seq"):
        frame = frame_for_viewer(event_frame(event), viewer)
        if "data" in frame:
            allowed |= card_tokens(frame["data"])
    return allowed


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_the_replayer_page_hides_from_a_player_what_they_could_not_see(client, game):
    table, seats = played_game(game, hands=4, seed=3, end=False)
    hidden_somewhere = 0
    for hand in Hand.objects.filter(table=table, ended_at__isnull=False):
        dealt_count = 3 if game != "holdem" else 2
        secret_seed = bytes(table.secret_seed)
        from engine.cards import cards_text
        from engine.fairness import hand_deck

        deck = cards_text(hand_deck(secret_seed, table.code, hand.number, list(hand.player_seeds)))
        dealt = set(deck[: dealt_count * len(hand.plan["players"])])
        for seat in seats:
            client_for(client, seat)
            page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": hand.number}))
            assert page.status_code == 200
            shown = card_tokens(replay_data(page.content.decode()))
            allowed = allowed_cards(table, hand, seat.engine_name)
            assert shown <= allowed | (set(deck) - dealt if game == "holdem" else set()), (
                f"hand {hand.number}: seat {seat.engine_name} sees {sorted(shown - allowed)}"
            )
            hidden_somewhere += len(dealt - allowed)
    assert hidden_somewhere > 0, "some dealt card stayed hidden from some player"


def test_a_player_sees_their_own_cards_after_looking_and_not_another_blind_players(client):
    table, seats = open_table("faras", players=3)
    hand = Hand.objects.get(table=table, number=1)
    looker = hand.plan["players"][0][0]
    other = hand.plan["players"][1][0]
    hand_act(table_id=table.pk, seat_id=int(looker), verb="see")
    by_name = {seat.engine_name: seat for seat in seats}

    client_for(client, by_name[looker])
    steps = replay_data(client.get(reverse("hand_history", kwargs={"code": table.code, "number": 1})).content.decode())[
        "steps"
    ]
    own = next(player for player in steps[-1]["view"]["players"] if player["name"] == looker)
    assert own["cards"] and len(own["cards"]) == 3
    assert steps[0]["view"]["players"][0]["cards"] is None  # before the look, not even one's own cards
    assert any("Your cards" in sentence for sentence in steps[-1]["words"])

    client_for(client, by_name[other])
    other_steps = replay_data(
        client.get(reverse("hand_history", kwargs={"code": table.code, "number": 1})).content.decode()
    )["steps"]
    assert not card_tokens(other_steps), "a blind player sees no card at all"
    looked = next(player for player in other_steps[-1]["view"]["players"] if player["name"] == looker)
    assert looked["cards"] is None and looked["seen"] is True


# --- exports ---------------------------------------------------------------------------------


def test_no_download_and_no_secret_seed_while_the_game_runs(client):
    table, seats = played_game("faras", hands=1, end=False)
    client_for(client, seats[0])
    assert client.get(reverse("game_export", kwargs={"code": table.code})).status_code == 404
    assert client.get(reverse("hand_export", kwargs={"code": table.code, "number": 1})).status_code == 404
    page = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert table.seed_commitment in page
    assert bytes(table.secret_seed).hex() not in page
    assert history.game_export_build(table=table) is None


def test_after_the_game_the_seed_is_revealed_and_the_game_verifies(client, tmp_path: Path):
    table, seats = played_game("faras", hands=3)
    client_for(client, seats[2])
    page = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert bytes(table.secret_seed).hex() in page
    response = client.get(reverse("game_export", kwargs={"code": table.code}))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["format"] == "dashain-game-v1"
    assert data["secret_seed"] == bytes(table.secret_seed).hex()
    assert hashlib.sha256(bytes.fromhex(data["secret_seed"])).hexdigest() == data["commitment"]
    out = io.StringIO()
    status = verify.main(["-"], stdout=out, stdin=io.StringIO(response.content.decode()))
    assert status == 0, out.getvalue()
    # ...and a changed deal in the download is named by hand
    data["hands"][1]["deck"][0], data["hands"][1]["deck"][1] = data["hands"][1]["deck"][1], data["hands"][1]["deck"][0]
    out = io.StringIO()
    assert verify.main(["--no-replay", "-"], stdout=out, stdin=io.StringIO(json.dumps(data))) == 1
    assert f"hand {data['hands'][1]['hand_number']}: MISMATCH (deal)" in out.getvalue()
    assert "the deal itself was changed" in out.getvalue()  # the seeds agree with the hand's log
    # ...and so is a player seed added afterwards, against the hand's own log
    data = json.loads(response.content)
    data["hands"][2]["player_seeds"].append("added afterwards")
    out = io.StringIO()
    assert verify.main(["--no-replay", "-"], stdout=out, stdin=io.StringIO(json.dumps(data))) == 1
    assert f"hand {data['hands'][2]['hand_number']}: MISMATCH (seed)" in out.getvalue()


def test_the_download_names_every_hand_dealt_and_a_tampered_one_is_refused(client):
    """Issue 14: a hand deleted, or a hand's log stripped, no longer verifies."""
    table, seats = played_game("faras", hands=4, seed=3)
    client_for(client, seats[1])
    original = client.get(reverse("game_export", kwargs={"code": table.code})).content.decode()
    data = json.loads(original)
    assert data["hands_played"] == table.hands_played >= 4
    assert [hand["hand_number"] for hand in data["hands"]] == list(range(1, table.hands_played + 1))

    def verdict(document: dict) -> tuple[int, str]:
        out = io.StringIO()
        return verify.main(["--no-replay", "-"], stdout=out, stdin=io.StringIO(json.dumps(document))), out.getvalue()

    deleted = json.loads(original)
    del deleted["hands"][1]
    status, output = verdict(deleted)
    assert status == 1 and "leaves out hand(s) 2" in output
    stripped = json.loads(original)
    stripped["hands"][2]["events"] = []
    status, output = verdict(stripped)
    assert status == 1 and "hand 3: CANNOT VERIFY" in output
    other_commitment = json.loads(original)
    deal_record = next(event for event in other_commitment["hands"][0]["events"] if "seed_commitment" in event["data"])
    deal_record["data"]["seed_commitment"] = "0" * 64
    status, output = verdict(other_commitment)
    assert status == 1 and "hand 1: MISMATCH (commitment)" in output


@pytest.mark.parametrize("game", GAMES)
def test_export_and_replay_agree_for_hands_of_every_game(client, game):
    table, seats = played_game(game, hands=3, seed=7)
    client_for(client, seats[0])
    finished = Hand.objects.filter(table=table, result__isnull=False).exclude(result__has_key="void")
    assert finished.count() >= 2
    for hand in finished:
        response = client.get(reverse("hand_export", kwargs={"code": table.code, "number": hand.number}))
        exported = json.loads(response.content)
        status, output = run_scenario(exported)  # what `python -m engine replay` prints
        assert status == 0, output
        assert output["finished"] is True
        assert output["stacks"] == exported["result"]["stacks"] == hand.result["stacks"]
        assert output["pots"] == exported["result"]["pots"] == hand.result["pots"]
        assert exported["names"] == {s.engine_name: s.display_name for s in seats if s.engine_name in output["stacks"]}
        # Where they sat at the deal (`seats` are as they sat down, before any hand).
        assert exported["seats"] == {s.engine_name: s.number for s in seats if s.engine_name in output["stacks"]}
    whole = json.loads(client.get(reverse("game_export", kwargs={"code": table.code})).content)
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(whole))) == 0, out.getvalue()


def test_a_hand_called_off_at_the_end_is_exported_and_its_deal_verified(client):
    """The host's "End the game" never calls a hand off any more (it is played out); a log
    written before that may hold one, and its export still verifies."""
    from tables.services.hand_end import game_end
    from tables.services.write import table_write

    table, seats = played_game("faras", hands=1, end=False)
    live = Hand.objects.get(table=table, ended_at__isnull=True)
    with table_write(table.pk) as (_table, log):
        game_end(log, reason="host")
    client_for(client, seats[0])
    data = json.loads(client.get(reverse("game_export", kwargs={"code": table.code})).content)
    called_off = next(hand for hand in data["hands"] if hand["hand_number"] == live.number)
    assert called_off["result"]["void"] is True
    out = io.StringIO()
    assert verify.main(["-"], stdout=out, stdin=io.StringIO(json.dumps(data))) == 0, out.getvalue()


# --- the seed comes from `secrets` -----------------------------------------------------------


def test_the_live_table_draws_its_secret_seed_from_secrets(monkeypatch):
    drawn = []

    def fake_token_bytes(count: int) -> bytes:
        value = bytes(range(count))
        drawn.append(value)
        return value

    monkeypatch.setattr(secrets, "token_bytes", fake_token_bytes)
    table, _seats = open_table("faras", players=2, start=False)
    assert drawn and bytes(table.secret_seed) == drawn[0]
    assert len(drawn[0]) == 32
    assert table.seed_commitment == hashlib.sha256(drawn[0]).hexdigest()
    created = Event.objects.get(table=table, kind="table_created")
    assert created.payload["seed_commitment"] == table.seed_commitment


def test_no_code_that_draws_or_handles_the_secret_seed_imports_random():
    """`random` is not a source of secrets: no module of tables/ that touches the seed may use it."""
    root = Path(__file__).resolve().parents[2] / "tables"
    seed_modules = [
        path for path in root.rglob("*.py") if re.search(r"secret_seed|token_bytes", path.read_text(encoding="utf-8"))
    ]
    assert any(path.name == "hosting.py" for path in seed_modules)  # where table_create draws it
    offenders = [
        str(path)
        for path in seed_modules
        if re.search(r"^\s*(import random|from random import)", path.read_text(encoding="utf-8"), re.M)
    ]
    assert offenders == []


def test_cards_shown_at_a_show_are_seen_by_everyone_and_a_watcher_sees_nothing_else(client):
    """A show turns both hands up for the whole table; before it a watcher sees no card at all."""
    from tables.services import table_join

    table, seats = open_table("faras", players=2)
    watcher = table_join(code=table.code, invite_token=table.invite_token, user=make_user("watcher"))
    hand = Hand.objects.get(table=table, number=1)
    first, second = (name for name, _stack in hand.plan["players"])
    hand_act(table_id=table.pk, seat_id=int(first), verb="see")
    hand_act(table_id=table.pk, seat_id=int(second), verb="see")
    player, legal = current_turn(table)
    assert "show" in {option.verb for option in legal}
    hand_act(table_id=table.pk, seat_id=int(player), verb="show")
    hand.refresh_from_db()
    assert hand.ended_at is not None
    showdown = Event.objects.get(hand=hand, kind="showdown")
    shown = card_tokens(showdown.payload["cards"])
    assert len(shown) == 6

    url = reverse("hand_history", kwargs={"code": table.code, "number": 1})
    for seat in [*seats, watcher]:
        client_for(client, seat)
        steps = replay_data(client.get(url).content.decode())["steps"]
        last = steps[-1]
        assert card_tokens(last) == shown, seat.display_name  # both hands, in the picture and in words
        assert any(sentence.startswith("Show:") for sentence in last["words"])
        before_show = card_tokens(steps[:-1])
        if seat.pk == watcher.pk:
            assert before_show == set(), "a watcher sees no card before the show"
        else:
            own = set(next(p["cards"] for p in last["view"]["players"] if p["name"] == seat.engine_name))
            assert before_show == own, "before the show a player sees their own cards only"


def test_the_replayer_names_its_cards_in_the_page_language(client):
    """Screen readers hear the replayer's cards in the page's words, as on the table page."""
    from tables.pages.page_strings import card_strings

    table, seats = played_game("faras", hands=1, seed=3, end=False)
    hand = Hand.objects.filter(table=table).order_by("number").first()
    client_for(client, seats[0])
    page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": hand.number}))
    assert replay_data(page.content.decode())["strings"]["cards"] == json.loads(json.dumps(card_strings()))
