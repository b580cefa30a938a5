"""Every night's money is settled exactly once (issue 36): a night counts in the season open
when its game ends, never in a season closed before it was played; a home game paid night by
night lists no season payments; and what the pages say agrees with their CSVs."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from homegames.models import HomeGame, Night, Season
from homegames.selectors_seasons import season_open
from homegames.services import night_answer, night_schedule, night_template_save
from homegames.services_members import home_game_add_table, home_game_create, home_game_join
from homegames.services_seasons import home_game_set_settle_by
from ledger.selectors import ledger_report
from tables.models import Seat, Table
from tables.services import hand_act, seat_take, table_start
from tables.state_cache import state_cache_clear
from tests.ledger.conftest import make_user
from tests.ledger.test_views import play_night
from tests.tables.conftest import current_turn, end_game, random_action

FARAS = {"seats": 6, "boot": 10, "buy_in_chips": 1000, "buy_in_price": "10.00", "currency": "NPR"}


@pytest.fixture(autouse=True)
def _hands_follow_at_once():
    state_cache_clear()
    with override_settings(DASHAIN_NEXT_HAND_DELAY=0):
        yield
    state_cache_clear()


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def play_hands(table: Table, *, hands: int, seed: int) -> None:
    """Random legal moves through the services until ``hands`` hands have been played."""
    rng = random.Random(seed)
    for _step in range(2000):
        table.refresh_from_db()
        if table.hands_played >= hands:
            return
        player, legal = current_turn(table)
        if player is None:
            continue
        verb, amount = random_action(rng, legal)
        hand_act(table_id=table.pk, seat_id=int(player), verb=verb, amount=amount)
    raise AssertionError("the hands did not end")


def season_nets(client, home_game, number=None) -> dict[str, str]:
    """Each person's net as the season's CSV lists it (the page's figures: its own test)."""
    name = "ledger:season_csv_open" if number is None else "ledger:season_csv"
    kwargs = {"home_game_id": home_game.pk, **({"number": number} if number else {})}
    rows = csv_rows(client.get(reverse(name, kwargs=kwargs)))
    nets = {}
    for row in rows[1:]:
        if not row:
            break
        nets[row[0]] = row[2]
    return nets


@pytest.mark.django_db
def test_tonights_table_opened_before_the_season_closes_counts_in_the_next_season(client):
    """The host's evening: last season's night played, tonight's table opened from the plan,
    the season closed before the friends sit down, then tonight played and ended. Season 1
    is as it was closed, season 2 counts tonight, and tonight's page names season 2."""
    host = make_user("asha")
    friends = {name: make_user(name.lower()) for name in ("Bikash", "Chandra")}
    home_game = home_game_create(name="Friday Faras", host=host)
    for friend in friends.values():
        home_game_join(home_game=home_game, token=home_game.invite_token, user=friend)
    home_game_set_settle_by(home_game=home_game, settle_by=HomeGame.SettleBy.SEASON, by=host)
    last_week, _seats = play_night(host, results={"Asha": 1690, "Bikash": 810, "Chandra": 500}, others=friends)
    home_game_add_table(home_game=home_game, table=last_week, by=host)
    template = night_template_save(home_game=home_game, name="Our Faras", game="faras", choices=FARAS, by=host)
    night = night_schedule(
        home_game=home_game,
        template=template,
        starts_at=timezone.now() + timedelta(hours=2),
        time_zone="Asia/Kathmandu",
        place="Asha's flat",
        seat_limit=3,
        by=host,
    )
    for friend in friends.values():
        night_answer(night=night, user=friend, reply="yes")
    client.force_login(host)
    opened = client.post(reverse("homegames:night_open", kwargs={"home_game_id": home_game.pk, "night_id": night.pk}))
    tonight = Table.objects.get(night__home_game=home_game, pk__gt=last_week.pk)
    assert opened["Location"] == reverse("table_detail", kwargs={"code": tonight.code})
    # Nobody has sat down tonight: the night is not settled, and closing takes last week alone.
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert "One night is still being played" in page
    client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    season_1 = Season.objects.get(home_game=home_game, number=1)
    assert list(season_1.nights.values_list("table_id", flat=True)) == [last_week.pk]
    frozen = sorted(season_1.transfers.values_list("payer_name", "payee_name", "amount"))
    nets_1 = season_nets(client, home_game, 1)
    assert nets_1 == {"Asha": "6.90", "Bikash": "-1.90", "Chandra": "-5.00"}

    # Now the friends sit (from the night's page) and everyone plays; the host ends the game.
    for friend in friends.values():
        client.force_login(friend)
        client.post(reverse("homegames:night_sit", kwargs={"home_game_id": home_game.pk, "night_id": night.pk}))
    host_seat = Seat.objects.get(table=tonight, user=host)
    seat_take(table_id=tonight.pk, seat_id=host_seat.pk)
    table_start(table_id=tonight.pk, seat_id=host_seat.pk)  # the host's start (a socket frame)
    client.force_login(host)
    tonight.refresh_from_db()
    assert tonight.status == Table.Status.PLAYING
    play_hands(tonight, hands=3, seed=36)
    end_game(tonight, host_seat.pk)
    tonight_nets = {line.name: line.net_money for line in ledger_report(table=tonight).players}
    assert any(tonight_nets.values())  # money changed hands tonight

    # Season 1 is as it was closed: same nets, same frozen transfers, one night.
    assert season_nets(client, home_game, 1) == nets_1
    assert sorted(season_1.transfers.values_list("payer_name", "payee_name", "amount")) == frozen
    assert list(season_1.nights.values_list("table_id", flat=True)) == [last_week.pk]
    # Season 2, open, counts tonight and only tonight.
    open_season = season_open(home_game=home_game)
    assert open_season.number == 2 and [r.night.table_id for r in open_season.nights] == [tonight.pk]
    names = {seat.pk: seat.display_name for seat in Seat.objects.filter(table=tonight)}
    assert season_nets(client, home_game) == {
        names[line.seat_id]: f"{line.net_money:.2f}" for line in ledger_report(table=tonight).players
    }
    # Tonight's own page says it is paid with season 2; last week's, with season 1.
    report = client.get(reverse("ledger:table_report", kwargs={"code": tonight.code})).content.decode()
    assert "This night is paid with season 2 of its home game" in report
    report = client.get(reverse("ledger:table_report", kwargs={"code": last_week.code})).content.decode()
    assert "This night was paid with season 1 of its home game" in report
    assert Night.objects.get(table=tonight).season is None


@pytest.mark.django_db
def test_a_table_everyone_has_left_is_not_settled_until_its_game_ends():
    """All chips cashed out but the game not over (everyone left; someone may still sit and
    buy in): not settled, so no closed season can freeze it."""
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    table, _seats = play_night(host, ended=False)
    home_game_add_table(home_game=home_game, table=table, by=host)
    view = season_open(home_game=home_game)
    assert view.nights == [] and [r.night.table_id for r in view.waiting] == [table.pk]
    table.status, table.ended_at = Table.Status.ENDED, timezone.now()
    table.save(update_fields=["status", "ended_at"])
    view = season_open(home_game=home_game)
    assert [r.night.table_id for r in view.nights] == [table.pk] and view.waiting == []
    assert {p.name: p.net_money for p in view.people} == {
        "Asha": Decimal("8.50"),
        "Bikash": Decimal("-3.50"),
        "Chandra": Decimal("-5.00"),
    }


def night_by_night_home_game(host, friends, *, settle_by=HomeGame.SettleBy.NIGHT):
    from tests.ledger.test_seasons import three_nights

    return three_nights(host, friends, settle_by=settle_by, settings={"host": {"currency": "NPR"}})


@pytest.mark.django_db
def test_a_home_game_paid_night_by_night_lists_no_season_payments_in_its_csv(client):
    """The page says the nights are paid one by one and lists no season transfers; the
    season's CSV lists none either (netted ones marked "Paid: no" would be collected twice)."""
    host = make_user("asha")
    friends = {"Bikash": make_user("bikash"), "Chandra": make_user("chandra")}
    home_game, _tables = night_by_night_home_game(host, friends)
    client.force_login(host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    assert "The nights are paid one by one" in page and "Who pays whom for the season" not in page
    rows = csv_rows(client.get(reverse("ledger:season_csv_open", kwargs={"home_game_id": home_game.pk})))
    assert ["From", "To", "Amount", "Currency", "Paid", "Marked by"] not in rows
    assert {row[0]: row[2] for row in rows[1:] if row} == {"Asha": "3.50", "Bikash": "-2.00", "Chandra": "-1.50"}
    client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    rows = csv_rows(client.get(reverse("ledger:season_csv", kwargs={"home_game_id": home_game.pk, "number": 1})))
    assert ["From", "To", "Amount", "Currency", "Paid", "Marked by"] not in rows


@pytest.mark.django_db
def test_a_carried_over_transfer_shows_its_seasons_currency_on_the_home_games_page(client):
    """A transfer carried from season 1 is in season 1's currency on the home game's page, as on
    season 1's own page, even while the open season has no night to take a currency from."""
    host = make_user("asha")
    friends = {"Bikash": make_user("bikash"), "Chandra": make_user("chandra")}
    home_game, _tables = night_by_night_home_game(host, friends, settle_by=HomeGame.SettleBy.SEASON)
    client.force_login(host)
    client.post(reverse("ledger:season_close", kwargs={"home_game_id": home_game.pk}), {"confirm": "1"})
    season_page = client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1}))
    home_page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk}))
    carried = home_page.content.decode().split("Still unpaid from earlier seasons")[1]
    for amount in ("2.00", "1.50"):
        assert f"NPR\u00a0{amount}" in season_page.content.decode()
        assert f"NPR\u00a0{amount}" in carried
        assert f">{amount}" not in carried


def net_cells(page: str) -> list[str]:
    return [cell.strip() for cell in re.findall(r'<td class="net number"[^>]*>(.*?)</td>', page, re.S)]


@pytest.mark.django_db
def test_mid_game_at_a_table_shared_by_places_the_csv_leaves_the_nets_blank_as_the_page(client, monkeypatch):
    """Before the prizes are recorded a table shared by places has no money result: the page
    leaves the Net cells empty, and so does the CSV's Net column (never 0.00 for everyone)."""
    from tests.ledger.test_holdem_prizes import _money_table
    from tests.tables.conftest import repeatable_decks

    repeatable_decks(monkeypatch, random.Random(36))
    table, seats = _money_table("65/35")
    client.force_login(seats[0].user)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "The pool is paid by places when the game ends" in page
    assert net_cells(page) == ["", "", ""]
    rows = csv_rows(client.get(reverse("ledger:table_report_csv", kwargs={"code": table.code})))
    net = rows[0].index("Net")
    assert [row[net] for row in rows[1:4]] == ["", "", ""]
    # The home game's CSV agrees with its page (which shows chips for such a night).
    home_game = home_game_create(name="Hold'em", host=seats[0].user)
    home_game_add_table(home_game=home_game, table=table, by=seats[0].user)
    rows = csv_rows(client.get(reverse("ledger:home_game_csv", kwargs={"home_game_id": home_game.pk})))
    night_rows = rows[rows.index([]) + 2 :]
    assert len(night_rows) == 3 and {row[6] for row in night_rows} == {""}


@pytest.mark.django_db
def test_a_game_without_placings_ended_by_the_host_says_so_without_placings(client):
    """Faras (Teen Patti's rules) has no placings: its settle-up page says the host ended the
    game, not that "the placings are the stacks at that moment"."""
    from tests.tables.conftest import open_table

    table, seats = open_table("faras", players=3, choices={"boot": 10, "buy_in_chips": 1000, "buy_in_price": "10.00"})
    end_game(table, seats[0].pk)
    client.force_login(seats[0].user)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "The host ended this game." in page and "placings" not in page
    # The hands' page says the same, and the table page has the words without placings for
    # its script to show (docs/ledger.md).
    history_page = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert "The host ended this game." in history_page and "the placings are the stacks" not in history_page
    table_page = client.get(reverse("table_detail", kwargs={"code": table.code})).content.decode()
    assert 'id="game-over-by-host-unplaced"' in table_page


@pytest.mark.django_db
def test_the_host_ending_a_hold_em_game_during_a_hand_plays_it_out_then_places_the_stacks(client, monkeypatch):
    """docs/rules.md: a hand in progress when the host ends a hold'em game is played out (never
    called off), and the players are placed by their stacks once it has ended."""
    from tables import selectors
    from tables.models import Event, Hand
    from tests.ledger.test_holdem_prizes import _money_table, _placings
    from tests.tables.conftest import repeatable_decks

    repeatable_decks(monkeypatch, random.Random(7))
    table, seats = _money_table("100")
    hand = selectors.hand_live(table=table)
    player, legal = current_turn(table)
    bet = next(action for action in legal if action.verb in ("raise", "bet", "call"))
    hand_act(table_id=table.pk, seat_id=int(player), verb=bet.verb, amount=bet.min)
    end_game(table, seats[0].pk)
    hand.refresh_from_db()
    assert hand.result and "void" not in hand.result  # played out
    kinds = list(Event.objects.filter(table=table).values_list("kind", flat=True))
    assert "game_ending" in kinds and "hand_void" not in kinds and Hand.objects.filter(table=table).count() == 1
    stacks = {
        int(seat): chips
        for seat, chips in Event.objects.get(table=table, kind="game_ended").payload["final_stacks"].items()
    }
    assert stacks == {int(seat): chips for seat, chips in hand.result["stacks"].items()} | {
        seat: 0 for seat in stacks if str(seat) not in hand.result["stacks"]
    }
    best = max(stacks.values())
    assert {seat for seat, place in _placings(table).items() if place == 1} == {
        seat for seat, chips in stacks.items() if chips == best
    }
    client.force_login(seats[0].user)
    page = client.get(reverse("ledger:table_report", kwargs={"code": table.code})).content.decode()
    assert "The host ended this game: the placings are the stacks at that moment." in page
