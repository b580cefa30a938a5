"""Hold'em hands in the formats other poker tools read (issue 40), read back by PokerKit.

Random whole games of 2 to 6 players are played by the engine (every hand of each game, from
1,000 chips each until one player has them all: blinds that climb, short stacks, all-ins and
side pots), each hand kept as the site exports it (its event log, display names and seat
numbers: the players sit in any seats of six, so the numbers skip, and the text's reader must
put them round the table by those numbers). Then:

- PHH (engine.holdem.phh): each hand's ``.phh`` and each game's ``.phhs`` are read by
  PokerKit's PHH reader (``HandHistory.loads`` / ``loads_all``) and *played* by PokerKit: its
  final stacks must be the log's, and every field it reads (players, seats, stacks, blinds,
  hole cards, board, hand number, table, winnings) must be the log's;
- PokerStars text (engine.holdem.pokerstars): each game's file is read by PokerKit's
  PokerStars parser (``HandHistory.from_pokerstars``, written by PokerKit's authors from real
  PokerStars files) and each hand played by PokerKit: the same checks, and the hand's id and
  date.

Where PokerKit's rules are not the book's (docs/rules.md, "Hold'em: checked against PokerKit"):
a big blind short of chips. The book has the others call the full big blind, PokerKit only
what was posted, so such a hand played by PokerKit ends otherwise (and PokerKit's PokerStars
parser, which counts "raises 40 to 60" from what was posted, may refuse it). Those hands are
named, counted, and every other field of them still checked; every other hand must replay to
the log's stacks exactly.
"""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Iterator
from datetime import time

import pytest

from engine.api import Action
from engine.export import hand_export
from engine.fairness import seeded_deck
from engine.holdem import HOLDEM
from engine.holdem.game import game_next_hand, game_record_hand, game_start
from engine.holdem.phh import game_phhs, hand_phh
from engine.holdem.played import HandHistoryError, PlayedHand, played_hand
from engine.holdem.pokerstars import game_text, safe_names
from engine.holdem.table import holdem_settings

pokerkit = pytest.importorskip("pokerkit")  # requirements-dev.txt pins it
HandHistory = pokerkit.HandHistory

HANDS = 1000
# Display names as people type them: spaces, Devanagari, and the characters the text format
# cannot carry as they are (a colon, brackets, parentheses, a line break).
NAMES = ["Asha", "Bikash Rai", "दिपा", "Chandra: dealer", "Ek [ace]", "Gita (host)", "Hari\nline", "Indra"]


def _random_action(rng: random.Random, state, player: str) -> Action:
    legal = HOLDEM.legal_actions(state)
    weights = [0.15 if option.verb == "allin" else 0.5 if option.verb == "fold" else 1.0 for option in legal]
    choice = rng.choices(legal, weights=weights)[0]
    amount = None
    if choice.min is not None:
        amount = choice.min if rng.random() < 0.6 else rng.randint(choice.min, choice.max)
    return Action(player, choice.verb, amount)


def random_games(seed: int, hands: int) -> Iterator[list[dict]]:
    """Whole random games, each a list of exported hands, until ``hands`` hands are played."""
    rng = random.Random(seed)
    played = 0
    for game_number in itertools.count(1):
        if played >= hands:
            return
        count = rng.randint(2, 6)
        players = [f"{game_number}-{seat}" for seat in range(count)]
        names = dict(zip(players, rng.sample(NAMES, count), strict=True))
        # Where they sit, as a site seats them: any seats of six, so the numbers skip and the
        # button's is often not the lowest (drawn apart, so the games stay the same).
        numbers = sorted(random.Random(f"{seed}|{game_number}").sample(range(1, 7), count))
        seats = dict(zip(players, numbers, strict=True))
        settings = holdem_settings({"blinds_every": rng.choice([5, 10, None])})
        progress = game_start(players=players)
        game = []
        while (plan := game_next_hand(progress=progress, settings=settings)) is not None and played < hands:
            number = plan.position.hands_played
            deck = seeded_deck(f"hand-histories|{seed}|{game_number}|{number}")
            state, events = HOLDEM.start_hand(
                settings=plan.settings, players=plan.players, dealer=plan.dealer, deck=deck
            )
            log = list(events)
            while state.to_act >= 0:
                state, events = HOLDEM.apply(state, _random_action(rng, state, state.names[state.to_act]))
                log += events
            result = HOLDEM.result(state)
            hand = hand_export(
                game="holdem",
                settings=plan.settings,
                players=plan.players,
                dealer=plan.dealer,
                deck=deck,
                actions=[],
                table=f"T{game_number}",
                hand_number=number,
                player_seeds=[],
                commitment="0" * 64,
                stacks=result.stacks,
                pots=[{"amount": p.amount, "eligible": p.eligible, "winners": p.winners} for p in result.pots],
                events=[{"seq": seq, "kind": e.kind, "data": dict(e.data)} for seq, e in enumerate(log, start=1)],
            )
            hand["names"] = names
            hand["seats"] = {player: seats[player] for player, _stack in plan.players}
            game.append(hand)
            progress = game_record_hand(progress=progress, plan=plan, result=result)
            played += 1
        yield game


def short_big_blind(hand: PlayedHand) -> bool:
    return any(blind == "big" and amount < hand.big_blind for _player, blind, amount, _all_in in hand.blinds)


def pokerkit_end(history):
    """PokerKit plays the hand; its last state."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no reason to fold": the book lets a player fold for free
        return list(history)[-1]


def in_pokerkit_order(hand: PlayedHand) -> list[str]:
    return list(hand.left_of_button())


def check_common_fields(history, hand: PlayedHand, names: list[str]) -> None:
    """What PokerKit read, against the log: players, stacks, blinds, hole cards."""
    order = in_pokerkit_order(hand)
    assert list(history.players) == names
    assert list(history.starting_stacks) == [hand.starting_stacks[player] for player in order]
    assert list(history.blinds_or_straddles)[:2] == [hand.small_blind, hand.big_blind] or (
        # PokerKit's PokerStars parser reads the blinds as posted
        list(history.blinds_or_straddles)[:2] == [amount for _p, _b, amount, _a in hand.blinds]
    )
    dealt = {action.split()[2]: action.split()[3] for action in history.actions if action.startswith("d dh ")}
    for index, player in enumerate(order):
        assert dealt[f"p{index + 1}"] == "".join(hand.hole_cards[player])


def test_phh_files_read_and_played_by_pokerkit_give_the_logs_stacks():
    seen = {"hands": 0, "players": set(), "side_pots": 0, "all_ins": 0, "showdowns": 0, "short_big_blind": 0}
    for game in random_games(40, HANDS):
        hands = [played_hand(hand) for hand in game]
        read_all = list(HandHistory.loads_all(game_phhs(game)))
        assert len(read_all) == len(hands)
        for data, hand, from_game_file in zip(game, hands, read_all, strict=True):
            history = HandHistory.loads(hand_phh(data))
            assert history.dumps() == from_game_file.dumps()  # the game's file holds the same hand
            order = in_pokerkit_order(hand)
            check_common_fields(history, hand, [hand.names[player] for player in order])
            assert history.hand == hand.number and history.table == hand.table
            assert list(history.seats) == [hand.seats[player] for player in order]
            assert list(history.finishing_stacks) == [hand.final_stacks[player] for player in order]
            assert list(history.winnings) == [hand.won(player) for player in order]
            end = pokerkit_end(history)
            board = "".join(repr(card) for cards in end.board_cards for card in cards)
            assert board == "".join(hand.board)
            seen["hands"] += 1
            seen["players"].add(len(hand.players))
            seen["side_pots"] += len(hand.pots) > 1
            seen["all_ins"] += any(step.all_in for step in hand.steps)
            seen["showdowns"] += any(step.kind == "show" for step in hand.steps)
            if short_big_blind(hand):
                seen["short_big_blind"] += 1
                continue
            assert list(end.stacks) == [hand.final_stacks[player] for player in order], (hand.table, hand.number)
    assert seen["hands"] == HANDS
    assert seen["players"] == {2, 3, 4, 5, 6}
    assert seen["side_pots"] > HANDS // 50 and seen["all_ins"] > HANDS // 10 and seen["showdowns"] > HANDS // 10
    assert seen["short_big_blind"] < HANDS // 50  # the one documented difference stays rare


def test_pokerstars_text_read_by_pokerkits_parser_matches_the_log():
    seen = {"hands": 0, "short_big_blind": 0, "refused": 0, "winnings_read": 0}
    for game in random_games(41, HANDS):
        hands = [played_hand(hand) for hand in game]
        ids = {hand.number: 7_000_000 + hand.number for hand in hands}
        dates = {hand.number: f"2026/12/{1 + hand.number % 28:02d} 20:{hand.number % 60:02d}:05" for hand in hands}
        text = game_text(game, hand_ids=ids, played_at=dates)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit warns of fields of its own it keeps ("time_zone_abbreviation")
            parsed = {history.hand: history for history in HandHistory.from_pokerstars(text)}
        for hand in hands:
            seen["hands"] += 1
            short = short_big_blind(hand)
            seen["short_big_blind"] += short
            history = parsed.get(ids[hand.number])
            if history is None:
                assert short, f"PokerKit could not read hand {hand.number} of {hand.table}"
                seen["refused"] += 1
                continue
            order = in_pokerkit_order(hand)
            shown_names = safe_names(hand, hand.seats)
            check_common_fields(history, hand, [shown_names[player] for player in order])
            assert history.table == hand.table and history.seat_count == 6
            assert list(history.seats) == [hand.seats[player] for player in order]
            day = 1 + hand.number % 28
            assert (history.year, history.month, history.day) == (2026, 12, day)
            assert history.time == time(20, hand.number % 60, 5)
            # PokerKit's parser reads winnings from the summary's "collected (N)" lines only (a
            # hand won at the showdown is "showed [..] and won (N)", which it passes over).
            collected = {p: hand.won(p) for p in hand.players if hand.won(p) and p not in hand.shown()}
            if history.winnings is not None:
                seen["winnings_read"] += 1
                assert list(history.winnings) == [collected.get(player, 0) for player in order]
            end = pokerkit_end(history)
            board = "".join(repr(card) for cards in end.board_cards for card in cards)
            assert board == "".join(hand.board)
            if not short:
                assert list(end.stacks) == [hand.final_stacks[player] for player in order], (hand.table, hand.number)
    assert seen["hands"] == HANDS
    assert seen["winnings_read"] > HANDS // 2
    assert seen["short_big_blind"] < HANDS // 50


def test_the_names_the_text_cannot_carry_are_written_plainly_and_stay_apart():
    game = next(random_games(3, 5))
    hand = played_hand(game[0])
    assert hand is not None
    names = safe_names(hand, {player: index + 1 for index, player in enumerate(hand.players)})
    for written in names.values():
        assert not set(written) & set(":[]()\n"), written
        assert written.strip() == written and written
    assert len({name.casefold() for name in names.values()}) == len(names)
    clash = {**game[0], "names": dict.fromkeys(hand.players, "Asha:")}
    clashing = safe_names(played_hand(clash), {player: index + 1 for index, player in enumerate(hand.players)})
    assert sorted(clashing.values()) == sorted(f"Asha- {index + 1}" for index in range(len(hand.players)))


def test_a_hand_that_did_not_finish_is_left_out_and_teen_patti_is_refused():
    game = next(random_games(5, 3))
    unfinished = {**game[0], "events": [e for e in game[0]["events"] if e["kind"] != "hand_finished"]}
    assert hand_phh(unfinished) == ""
    assert game_text([unfinished]) == ""
    assert len(list(HandHistory.loads_all(game_phhs([unfinished, *game[1:]])))) == len(game) - 1
    with pytest.raises(HandHistoryError):
        hand_phh({**game[0], "game": "faras"})
    with pytest.raises(HandHistoryError):
        hand_phh({**game[0], "events": []})


def test_seat_numbers_out_of_the_hands_seat_order_are_refused():
    """A reader seats the players by number: numbers that would seat them otherwise than the
    hand was dealt (a player's seat now, after others left) would have it replay another hand."""
    data = next(hand for game in random_games(6, 50) for hand in game if len(hand["players"]) >= 3)
    hand = played_hand(data)
    assert hand is not None
    count = len(hand.players)
    wrapped = dict(zip(hand.players, [*range(2, count + 1), 1], strict=True))  # 2, 3, ..., 1
    read = HandHistory.loads(hand_phh({**data, "seats": wrapped}))
    assert list(read.seats) == [wrapped[player] for player in hand.left_of_button()]
    swapped = dict(zip(hand.players, [2, 1, *range(3, count + 1)], strict=True))
    twice = dict.fromkeys(hand.players, 1)
    missing = dict(list(wrapped.items())[1:])
    for bad in (swapped, twice, missing, {**wrapped, hand.players[0]: True}, {**wrapped, hand.players[0]: 0}, [1, 2]):
        with pytest.raises(HandHistoryError):
            hand_phh({**data, "seats": bad})
        with pytest.raises(HandHistoryError):
            game_text([{**data, "seats": bad}])
    # Without seat numbers, the players are numbered by their place in the first hand.
    game = next(random_games(6, 50))
    plain = [{key: value for key, value in exported.items() if key != "seats"} for exported in game]
    first = played_hand(plain[0])
    assert first is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(HandHistory.from_pokerstars(game_text(plain)))
    assert list(parsed[0].seats) == [first.players.index(player) + 1 for player in first.left_of_button()]
