"""A link to one finished hand's replay (issue 40): made by the host or a player of the hand,
opened by anyone without an account, showing only what the table saw; revoked, it is 404.
The hand's page (tables) offers to make it; the pages of the link are ``shares``' (issue 35).

The leak check is independent of the engine's ``visible_to``: card ownership comes from the
deal (tests.tables.leaks), and a hidden card may appear on the shared page only once the rules
turned it up for everyone (a show or showdown) in that hand.
"""

from __future__ import annotations

import html
import random
import re
import warnings

import pytest
from django.test import Client
from django.urls import reverse

from config.limits import MAX_FAILED_JOINS, join_attempts_forget
from engine.holdem.played import played_hand
from shares.models import SharedHand
from tables import history
from tables.models import Hand
from tables.services import hand_act
from tests.engine.test_holdem_hand_histories import short_big_blind
from tests.tables.conftest import end_game, make_user, open_table, repeatable_decks
from tests.tables.leaks import card_owners, cards_revealed, cards_shown_to
from tests.tables.test_history import card_tokens, client_for, played_game, replay_data

pytestmark = pytest.mark.django_db

LINK = re.compile(r'class="share__link" type="text" readonly value="([^"]+)"')


def make_link(client, table, seat, number: int) -> str:
    client_for(client, seat)
    made = client.post(reverse("hand_share", kwargs={"code": table.code, "number": number}))
    assert made.status_code == 302
    assert made["Location"] == reverse("hand_link", kwargs={"code": table.code, "number": number})
    page = client.get(made["Location"])
    found = LINK.search(page.content.decode())
    assert found, "the link's page shows the link it made"
    return html.unescape(found.group(1)).removeprefix("http://testserver")


def og(page: str, name: str) -> str:
    found = re.search(rf'<meta property="og:{name}" content="([^"]*)">', page)
    assert found, name
    return html.unescape(found.group(1))


@pytest.mark.parametrize("game", ["faras", "holdem"])
def test_a_shared_hand_opens_for_a_stranger_and_shows_only_what_the_table_saw(client, game):
    table, seats = played_game(game, hands=4, seed=7, end=False)
    owners = card_owners(table)
    reveals = cards_revealed(table)
    hidden_checked = 0
    for hand in Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number"):
        dealt = [name for name, _stack in hand.plan["players"]]
        player = next(seat for seat in seats if seat.engine_name in dealt)
        url = make_link(Client(), table, player, hand.number)
        stranger = Client()  # a fresh browser: no account, no session
        page = stranger.get(url)
        assert page.status_code == 200
        text = page.content.decode()
        shown = card_tokens(replay_data(text)) | card_tokens(re.sub(r"<[^>]+>", " ", text))
        public = cards_shown_to("a stranger", hand.number, 10**12, reveals)
        hidden = set(owners[hand.number])
        assert not (shown & hidden) - public, f"hand {hand.number} shows {sorted((shown & hidden) - public)}"
        hidden_checked += len(hidden - public)
        # Nothing to download, no way to the table, no seed.
        for forbidden in (".json", ".phh", ".txt", "/history/", table.code, table.invite_token, "secret"):
            assert forbidden not in text, forbidden
        # The preview a chat app shows: the game, who played, who won; no card.
        assert not card_tokens(og(text, "title")) and not card_tokens(og(text, "description"))
        assert str(hand.number) in og(text, "title")
    assert hidden_checked > 0, "some dealt card stayed hidden on the shared pages"


def test_revoking_the_link_makes_it_404_and_sharing_again_makes_a_new_link(client):
    table, seats = played_game("holdem", hands=2, seed=4, end=False)
    url = make_link(client, table, seats[0], 1)
    assert Client().get(url).status_code == 200
    client_for(client, seats[1])  # another player of the hand may revoke it
    client.post(reverse("hand_share_revoke", kwargs={"code": table.code, "number": 1}))
    assert not SharedHand.objects.exists()
    assert Client().get(url).status_code == 404
    again = make_link(client, table, seats[1], 1)
    assert again != url
    assert Client().get(again).status_code == 200 and Client().get(url).status_code == 404


def test_only_the_host_and_the_players_of_a_finished_hand_may_share_it(client):
    table, seats = played_game("faras", hands=2, seed=2, end=False)
    share = reverse("hand_share", kwargs={"code": table.code, "number": 1})
    assert client.post(share).status_code == 404  # no account, no seat
    client.force_login(make_user("stranger"))
    assert client.post(share).status_code == 404
    live = Hand.objects.filter(table=table, ended_at__isnull=True).first()
    assert live is not None
    client_for(client, seats[0])
    assert client.post(reverse("hand_share", kwargs={"code": table.code, "number": live.number})).status_code == 404
    assert client.get(share).status_code == 405  # a chat app's preview fetch makes no link
    assert not SharedHand.objects.exists()
    client.force_login(table.host)
    assert client.post(share).status_code == 302
    assert SharedHand.objects.count() == 1


def test_the_hand_page_offers_the_link_and_the_links_page_shows_it_once_made(client):
    """The hand's page (tables) posts to ``hand_share`` by its URL name; the link's own page
    (``hand_link``) shows the link once made, the same one to every player of the hand and the
    host, and opening it makes none."""
    table, seats = played_game("faras", hands=2, seed=3, end=False)
    client_for(client, seats[0])
    hand_page = client.get(reverse("hand_history", kwargs={"code": table.code, "number": 1})).content.decode()
    share = reverse("hand_share", kwargs={"code": table.code, "number": 1})
    assert f'action="{share}"' in hand_page and not LINK.search(hand_page)
    link_page = reverse("hand_link", kwargs={"code": table.code, "number": 1})
    before = client.get(link_page)
    assert before.status_code == 200 and f'action="{share}"' in before.content.decode()
    assert not LINK.search(before.content.decode()) and not SharedHand.objects.exists()
    url = make_link(client, table, seats[0], 1)
    assert make_link(Client(), table, seats[1], 1) == url  # one link a hand: the other player's is the same
    host = Client()
    host.force_login(table.host)
    assert LINK.search(host.get(link_page).content.decode())
    assert SharedHand.objects.count() == 1
    assert Client().get(link_page).status_code == 404  # no account, no seat
    client.force_login(make_user("stranger"))
    assert client.get(link_page).status_code == 404


def test_a_watcher_may_not_share_a_hand(client):
    table, seats = open_table("faras", players=2, start=False)
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    watcher = Client()
    watcher.post(link, {"display_name": "Watching Gita", "role": "watch"})
    from tables.services import table_start

    table_start(table_id=table.pk, seat_id=seats[0].pk)
    from tests.tables.test_history import play

    play(table, seats, hands=1, seed=5)
    assert watcher.post(reverse("hand_share", kwargs={"code": table.code, "number": 1})).status_code == 404
    assert not SharedHand.objects.exists()


def test_wrong_links_count_as_guesses_and_a_real_link_still_opens_past_the_limit(client):
    table, seats = played_game("faras", hands=1, seed=1, end=False)
    url = make_link(client, table, seats[0], 1)
    join_attempts_forget("127.0.0.1")
    stranger = Client()
    token = url.strip("/").split("/")[-1]
    for index in range(MAX_FAILED_JOINS):
        assert stranger.get(reverse("shared_hand", kwargs={"token": f"{index}.{token[-10:]}"})).status_code == 404
    refused = stranger.get(reverse("shared_hand", kwargs={"token": "1.wrong"}))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert stranger.get(url).status_code == 200
    join_attempts_forget("127.0.0.1")


def test_the_holdem_downloads_are_for_the_players_once_the_game_has_ended(client):
    table, seats = played_game("holdem", hands=3, seed=2, end=False)
    urls = [
        reverse("game_phh", kwargs={"code": table.code}),
        reverse("game_pokerstars", kwargs={"code": table.code}),
        reverse("hand_phh", kwargs={"code": table.code, "number": 1}),
    ]
    client_for(client, seats[1])
    for url in urls:
        assert client.get(url).status_code == 404, url  # not before the game ends
    from tests.tables.conftest import end_game

    end_game(table, seats[0].pk)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment"), url
    assert b'variant = "NT"' in client.get(urls[2]).content
    # The site's own files, read back by PokerKit: every finished hand, the log's stacks (but
    # for a short big blind, where PokerKit's rule is not the book's: tests/engine/
    # test_holdem_hand_histories.py).
    pokerkit = pytest.importorskip("pokerkit")
    names = {seat.engine_name: seat.display_name for seat in seats}
    expected = {}
    seated = {}  # where each hand's players sat at its deal, in PokerKit's order
    for exported in history.game_export_build(table=table)["hands"]:
        hand = played_hand(exported)
        if hand is not None and not short_big_blind(hand):
            expected[hand.number] = {names[seat]: chips for seat, chips in hand.final_stacks.items()}
            seated[hand.number] = [hand.seats[player] for player in hand.left_of_button()]
    assert expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit's notes on fields of its own, and free folds
        read = {
            "phh": {h.hand: h for h in pokerkit.HandHistory.loads_all(client.get(urls[0]).content.decode())},
            "text": {
                h.hand - table.pk * history.HAND_IDS_PER_TABLE: h
                for h in pokerkit.HandHistory.from_pokerstars(client.get(urls[1]).content.decode())
            },
        }
        for number, stacks in expected.items():
            for kind in ("phh", "text"):
                played = read[kind][number]
                end = list(played)[-1]
                assert dict(zip(played.players, end.stacks, strict=True)) == stacks, (kind, number)
                assert list(played.seats) == seated[number], (kind, number)
    page = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert urls[0] in page and urls[1] in page
    client.logout()
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(make_user("stranger"))
    for url in urls:
        assert client.get(url).status_code == 404, url


def test_teen_patti_has_no_holdem_files(client):
    table, seats = played_game("faras", hands=1, seed=1)
    client_for(client, seats[0])
    assert client.get(reverse("game_phh", kwargs={"code": table.code})).status_code == 404
    assert client.get(reverse("game_pokerstars", kwargs={"code": table.code})).status_code == 404
    assert (
        reverse("game_phh", kwargs={"code": table.code})
        not in client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    )


def test_the_pokerstars_file_seats_each_hand_as_it_was_dealt_after_a_player_was_sent_out(client, monkeypatch):
    """Hand 1: the host (seat 1, the button) and the small blind (seat 2) are all in and the
    host wins, so the small blind is sent out (his seat is freed). The files must still seat
    him in seat 2 for hand 1: numbered as the seats were after the game, he came last, and
    PokerKit (which puts the players round the table by seat number) had the blinds and the
    turns wrong and could not read the hand."""
    repeatable_decks(monkeypatch, random.Random(1))
    table, seats = open_table("holdem", players=3)
    host, small, big = seats
    for seat, verb in ((host, "allin"), (small, "allin"), (big, "fold")):
        hand_act(table_id=table.pk, seat_id=seat.pk, verb=verb)
    first = Hand.objects.get(table=table, number=1)
    assert first.result["stacks"] == {host.engine_name: 2020, small.engine_name: 0, big.engine_name: 980}
    end_game(table, host.pk)
    small.refresh_from_db()
    assert small.number is None  # sent out: the seats now are 1 and 3
    pokerkit = pytest.importorskip("pokerkit")
    client_for(client, host)
    text = client.get(reverse("game_pokerstars", kwargs={"code": table.code})).content.decode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = {h.hand - table.pk * history.HAND_IDS_PER_TABLE: h for h in pokerkit.HandHistory.from_pokerstars(text)}
    names = [seat.display_name for seat in (small, big, host)]  # PokerKit's order: the button last
    assert list(read[1].players) == names and list(read[1].seats) == [2, 3, 1]
    assert list(list(read[1])[-1].stacks) == [0, 980, 2020]
    phh = client.get(reverse("hand_phh", kwargs={"code": table.code, "number": 1})).content.decode()
    assert "seats = [2, 3, 1]" in phh
    exported = client.get(reverse("game_export", kwargs={"code": table.code})).json()["hands"][0]
    assert exported["seats"] == {host.engine_name: 1, small.engine_name: 2, big.engine_name: 3}
