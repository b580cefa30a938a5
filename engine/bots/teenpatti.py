"""Teen Patti computer players (Faras, Classic, 999), from the seat's view only.

:func:`choose` reads the view a person in the seat gets (``game.view(state, seat)``: a
blind player's own cards are hidden from it too, so it must ``see`` first) and the seat's
:class:`~engine.bots.history.History`, and returns one legal action. ``see`` does not
use the turn: a caller applies it and asks again.

A seen hand is judged by its place among all 22,100 three-card hands and its chance
against each opponent's range (:mod:`engine.bots.teenpatti_odds`): a blind opponent
holds any hand; one who bet again after seeing holds a better one.

- **easy**, a loose, passive friend: looks early, stays in with almost anything, seldom
  raises, and asks for a show when the pot has grown. Heads-up against a blind player at
  a table without a blind-turn limit it stays blind too, and now and then doubles the stake.
- **normal**, book 000's tips: stays blind while the stake is small ("a few blind turns
  save chips"; book 004: look once half the stake is real money), packs a weak seen hand
  early, bets by its chance of winning against the price, asks for a show when its
  chance of winning pays the show's cost, and for a sideshow when it would likely beat
  the player before it. Heads-up against a blind player it stays blind as long as they
  do: a seen player may not ask a blind one for a show (book 000), so seen, it would pay
  double each turn and, against someone who never looks, could only pack in the end.
  Seen against a blind player, it plays on only while its chance pays what reaching a
  show will cost (their blind turns left). Both blind, heads-up, where blind shows are
  allowed (Classic, 999): once a raise the other cannot cover is legal, it makes the
  smallest one (:func:`_short_raise`); short with two left, they may only show for what
  they have left, and with no side pot the chips it keeps back stay its own.
- **hard**, normal with a model of each opponent: how often each has stayed in after
  seeing, the hands each has turned up at a show, and how often each raises *seen* set
  the range it puts them on; blind raises and looks are counted apart (a look the rules
  forced is no choice), so a player who raises blind and never looks is not taken for a
  tight one. It raises weak hands as a bluff against players who pack too often and never
  against those who stay. Heads-up at a table with a blind-turn limit, against a player
  betting blind who seldom raises blind, it looks at once and packs its worst hands
  cheaply; seen against a blind player who never looks, at a table without a limit, it
  packs; when a tight player bets again after looking, it looks before paying on. Both
  blind, heads-up, it never raises the stake but to make that short raise: a bigger stake
  only brings the raise it could not cover within the other's reach.

Every strength counts the chips in a *chip race* (:func:`~engine.bots.teenpatti_table.first_out`): with three or more
in, nobody may chaal all in, so if everyone stayed, the first who cannot cover the chaal
would pack and lose all they bet. Easy packs when that would be itself. Normal and hard
count a blind opponent as staying (they have nothing to pack for until they look): when
they would run dry first they pack, and they do not look when looking (seen bets cost
double) would make them the first; against players who have looked they look (looking is
free) and play on only when the chance that someone packs first is worth the rest of
their stack, hard judging that chance by how often those players have stayed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.api import Action
from engine.bots.history import History
from engine.bots.teenpatti_odds import beat_chance, hand_place
from engine.bots.teenpatti_table import Player, Table, first_out, read_table

# What "normal" assumes of an opponent who bet again after seeing: the top 70% of hands
# (at home most people who look stay in unless their cards are poor).
NORMAL_SEEN_SHARE = 0.7
# A bet now is followed by more bets: it pays to continue only with a margin over the price.
FUTURE_BETS = 1.6
# Chip races (three or more in, nobody may chaal all in): a blind player who would run dry
# first packs when the opponents all stay at least this likely (in practice hard, who can
# tell); RACE_STAY: how likely normal thinks a blind player, or one who bet seen, stays.
RACE_STUBBORN = 0.8
RACE_STAY = 0.85
# A blind player has not looked, so nothing but a look makes them pack: in a chip race
# normal thinks they stay this likely.
BLIND_STAY = 0.95
BLIND_STUBBORN_BOOTS = 3
# Normal, without a record: someone who raised after looking holds the better part of the
# hands they stay with.
SEEN_RAISE_FACTOR = 0.5
MULTIWAY_SEEN_FACTOR = 0.6


@dataclass(frozen=True, slots=True)
class Style:
    """The numbers that make a strength."""

    see_at_boots: float  # look once the stake reaches this many boots
    heads_up_see_at_boots: float  # the same with two left and the other blind
    seen_share: float  # the top share of hands put on an opponent who stays in seen
    modelled: bool  # read each opponent's own habits (hard)


NORMAL = Style(see_at_boots=4.0, heads_up_see_at_boots=4.0, seen_share=NORMAL_SEEN_SHARE, modelled=False)
HARD = Style(see_at_boots=4.0, heads_up_see_at_boots=1.0, seen_share=NORMAL_SEEN_SHARE, modelled=True)


def choose(
    *, view: Mapping[str, Any], player: str, strength: str, rng: random.Random, history: History | None
) -> Action:
    """One legal action for ``player``: the one to act, or the partner asked for a sideshow."""
    table = read_table(view, player)
    if strength == "easy":
        return _easy(table, player, rng)
    return _thinking(table, player, rng, history, HARD if strength == "hard" else NORMAL)


# --- shared moves ------------------------------------------------------------------------------


def _raise(table: Table, player: str, stake: int) -> Action:
    entry = table.legal.get("raise")
    if entry is None:
        return _stay(table, player)
    boot = table.boot
    low, high = int(entry["min"]), int(entry["max"])
    amount = min(max(stake // boot * boot, low), high)
    return Action(player, "raise", amount)


def _stay(table: Table, player: str) -> Action:
    """Chaal if it can; with two left, a show for what is left; else look or pack."""
    if "chaal" in table.legal:
        return Action(player, "chaal")
    if "show" in table.legal:
        return Action(player, "show")
    if "see" in table.legal:
        return Action(player, "see")
    return Action(player, "pack")


def _even_double(table: Table, rng: random.Random, *, pot_stakes: int, chance: float) -> int | None:
    """Both blind: once the pot is ``pot_stakes`` stakes, now and then (``chance``) a raise to
    twice the stake, only to a stake its stack is a whole number of, so that if it is the one
    left short it has bet exactly what the other has."""
    double = 2 * table.stake
    entry = table.legal.get("raise")
    if (
        entry is not None
        and table.pot >= pot_stakes * table.stake
        and int(entry["min"]) <= double <= int(entry["max"])
        and (table.me.stack - double) % double == 0
        and rng.random() < chance
    ):
        return double
    return None


def _must_see(table: Table) -> bool:
    return "see" in table.legal and not any(verb in table.legal for verb in ("chaal", "raise", "show"))


# --- easy --------------------------------------------------------------------------------------


def _easy(table: Table, player: str, rng: random.Random) -> Action:
    if table.pending is not None and "accept" in table.legal:
        place = hand_place(table.cards or [], table.settings)
        return Action(player, "accept" if place > 0.5 else "refuse")
    racing = table.in_count >= 3
    if table.cards is None:
        if racing and first_out(table) == player:
            return Action(player, "pack")  # it would run dry first if everyone stays: not worth it
        others = table.others_in
        if len(others) == 1 and not others[0].seen and table.me.blind_turns_left is None:
            # Heads-up against a blind player with no blind-turn limit: looking would leave it
            # paying double with no show to ask (book 000), so it stays blind as they do, and
            # now and then doubles the stake, as friends do to see who blinks first.
            double = _even_double(table, rng, pot_stakes=6, chance=0.3)
            if double is not None:
                return Action(player, "raise", double)
            if "chaal" in table.legal:
                return Action(player, "chaal")
            if "show" in table.legal:
                return Action(player, "show")
        if "show" in table.legal and table.pot >= 12 * table.boot:
            return Action(player, "show")  # a blind show, where the table allows it
        if _must_see(table) or "chaal" not in table.legal:
            return Action(player, "see")
        if rng.random() < 0.3 and not (racing and first_out(table, me_seen=True) == player):
            return Action(player, "see")
        return Action(player, "chaal")
    if racing and first_out(table) == player:
        return Action(player, "pack")
    place = hand_place(table.cards, table.settings)
    if place < 0.2 and rng.random() < 0.8:
        return Action(player, "pack")
    if "show" in table.legal:
        if place < 0.4 and rng.random() < 0.5:
            return Action(player, "pack")
        if table.pot >= 12 * table.boot or place < 0.4:
            return Action(player, "show")
    if place > 0.9 and rng.random() < 0.3:
        return _raise(table, player, 2 * table.stake)
    return _stay(table, player)


# --- normal and hard ---------------------------------------------------------------------------


def _share(opponent: Player, table: Table, history: History | None, style: Style) -> float:
    """The top share of hands ``opponent`` is put on."""
    if not opponent.seen:
        return 1.0
    stayed = history.this_hand_stayed if history is not None else ()
    if history is not None and opponent.name not in stayed:
        return 1.0  # looked, and has not bet since: any hand yet
    if not style.modelled or history is None:
        if (
            history is not None
            and opponent.name in history.this_hand_raised
            and opponent.name not in history.this_hand_blind_raised
        ):
            # A raise after looking, from someone who did not raise blind this hand (who
            # raises whatever they hold): a hand they like, the better part of what they
            # stay with.
            return style.seen_share * SEEN_RAISE_FACTOR
        if history is not None:
            stayers = sum(1 for p in table.others_in if p.seen and p.name in history.this_hand_stayed)
            if stayers >= 2:
                # Two or more who looked and bet on: each holds more than one alone would
                # (they bet on knowing the other has too).
                return style.seen_share * MULTIWAY_SEEN_FACTOR
        return style.seen_share
    record = history.record(opponent.name)
    share = record.stay_seen()
    if record.shown:
        # The hands they turned up at shows: a range of the top f has an average place of
        # 1 - f/2. Weighed against the stay rate as if that were four shows.
        shown_share = 2.0 * (1.0 - record.shown_places / record.shown)
        share = (4.0 * share + record.shown * shown_share) / (4.0 + record.shown)
    if opponent.name in history.this_hand_raised:
        # A seen raise from someone who seldom raises means a strong hand; from someone
        # who raises often it means less; the hands they raised with and turned up say best.
        raised_share = share * min(1.0, max(0.25, 3.0 * record.raise_share()))
        if record.raised_shown:
            shown_share = 2.0 * (1.0 - record.raised_shown_places / record.raised_shown)
            raised_share = (2.0 * raised_share + record.raised_shown * shown_share) / (2.0 + record.raised_shown)
        share = raised_share
    return min(1.0, max(0.05, share))


def _win_chance(place: float, table: Table, history: History | None, style: Style) -> float:
    chance = 1.0
    for opponent in table.others_in:
        chance *= beat_chance(place, _share(opponent, table, history, style))
    return chance


def _looseness(table: Table, history: History | None) -> float:
    """The average stay-seen rate of the opponents still in (hard only)."""
    if history is None:
        return 0.7
    rates = [history.record(p.name).stay_seen() for p in table.others_in]
    return sum(rates) / len(rates) if rates else 0.7


def _all_stay(table: Table, history: History | None, style: Style) -> float:
    """The chance that every opponent still in stays to the end of a chip race. A blind
    opponent has nothing to pack for until they look: BLIND_STAY once they have three boots in
    (hard: at once for a player who never looks), RACE_STAY before. A seen one: hard, as
    often as they have stayed in after seeing; normal, RACE_STAY once they have bet seen
    this hand, less when they have just looked."""
    stayed = history.this_hand_stayed if history is not None else ()
    chance = 1.0
    for opponent in table.others_in:
        if not opponent.seen:
            never_looks = style.modelled and history is not None and history.record(opponent.name).look_share() < 0.3
            # Still blind with three boots or more in (two blind chaals, or a blind raise;
            # hard: or known never to look): nothing will make them pack until they look.
            stubborn = opponent.bet >= BLIND_STUBBORN_BOOTS * table.boot or never_looks
            chance *= BLIND_STAY if stubborn else RACE_STAY
        elif style.modelled and history is not None:
            chance *= history.record(opponent.name).stay_seen()
        elif opponent.name in stayed or history is None:
            chance *= RACE_STAY
        else:
            chance *= NORMAL_SEEN_SHARE
    return chance


def _race_value(table: Table, win: float, all_stay: float) -> float:
    """What playing on is worth, in chips from now, for a seat that would run dry first:
    if they all stay it loses the rest of its stack; if someone packs first it plays the
    others for a pot about twice its stack bigger."""
    stack = table.me.stack
    return all_stay * -stack + (1.0 - all_stay) * (win * (table.pot + 2 * stack) - stack)


def _thinking(table: Table, player: str, rng: random.Random, history: History | None, style: Style) -> Action:
    if table.pending is not None and "accept" in table.legal:
        asker = next(p for p in table.players if p.name == table.pending["asker"])
        place = hand_place(table.cards or [], table.settings)
        asker_share = _share(asker, table, history, style) * 0.8  # an asker expects to win
        return Action(player, "accept" if beat_chance(place, asker_share) >= 0.5 else "refuse")
    if table.cards is None:
        return _blind(table, player, rng, history, style)
    return _seen(table, player, rng, history, style)


def _blind(table: Table, player: str, rng: random.Random, history: History | None, style: Style) -> Action:
    others = table.others_in
    racing = table.in_count >= 3
    stubborn = racing and _all_stay(table, history, style) >= RACE_STUBBORN
    if racing and first_out(table) == player:
        if stubborn:
            return Action(player, "pack")  # the first to run dry if they all stay: a lost race
        return Action(player, "see")  # looking is free: judge the race with the cards in hand
    against_blind = len(others) == 1 and not others[0].seen
    if against_blind and "chaal" not in table.legal and not _must_see(table) and "show" in table.legal:
        # Short of a chaal against a blind player: a blind show for what is left (looking
        # would leave it no show to ask, book 000: a seen player never asks a blind one).
        return Action(player, "show")
    if _must_see(table) or "chaal" not in table.legal:
        return Action(player, "see")
    stayed = history.this_hand_stayed if history is not None else ()
    if style.modelled and any(p.name in stayed and _share(p, table, history, style) < 0.5 for p in others):
        return Action(player, "see")  # a tight player bet again after looking: a strong hand; look before paying on
    if against_blind and style.modelled and history is not None and others[0].blind_turns_left is not None:
        # Hard, where the rules make them look soon (a blind-turn limit) and they have bet
        # blind this hand but seldom raise blind: an early look lets it pack its worst hands for a boot ("Seen a weak
        # hand? Pack early"), and their few blind turns left are cheap to pay through.
        record = history.record(others[0].name)
        if (
            others[0].name in history.this_hand_blind
            and record.blind_raise_share() < 0.3
            and table.stake <= 2 * table.boot
        ):
            return Action(player, "see")
    if against_blind:
        # Heads-up against a blind player. Seen, it would pay double every turn and could
        # not ask them for a show (book 000), so against someone who never looks it could
        # only pack in the end. Both blind, every bet is even: it stays blind as long as
        # they do (until its blind turns run out).
        kill = _short_raise(table)
        if kill is not None:
            # A raise they cannot cover: they must show for what they have left (or pack),
            # and the better hand takes the whole pot, so it keeps the rest of its stack out.
            return Action(player, "raise", kill)
        # Normal, once the pot is worth a few stakes, doubles the stake now and then to bring
        # the even bet to its end sooner; only to a stake its stack is a whole number of, so
        # that if it is the one left short it has bet exactly as much as they have. Hard does
        # not: a bigger stake only lets them make the raise above it cannot cover.
        double = None if style.modelled else _even_double(table, rng, pot_stakes=12, chance=0.5)
        if double is not None:
            return Action(player, "raise", double)
        return Action(player, "chaal")
    if racing and not style.modelled and any(p.name in stayed for p in others):
        # With three or more in, someone looked and bets on: they hold a hand. Looking is
        # free: look and judge the cards against them before paying on blind.
        return Action(player, "see")
    if len(others) == 1 and others[0].name in stayed and table.me.blind_turns_left is None:
        # Heads-up against a player who looked and bets on, at a table without a blind-turn
        # limit (else its own few blind turns are cheap): they hold a hand, and each blind
        # chaal buys a share of a pot they are likely to win. Looking is free: look and
        # pack the hands that cannot beat them.
        return Action(player, "see")
    see_at = style.see_at_boots
    tight = style.modelled and _looseness(table, history) < 0.45
    if tight:
        # Against players who pack often, cheap blind bets win pots on their own.
        see_at = max(see_at, style.see_at_boots) + 2
    if table.stake >= see_at * table.boot or table.pot >= 6 * see_at * table.boot:
        if not (stubborn and first_out(table, me_seen=True) == player):
            return Action(player, "see")  # (seen bets cost double: not when that loses the race)
    if tight and len(others) <= 2 and all(p.name not in stayed for p in others) and rng.random() < 0.8:
        # A steal: raise the price before tight players look, so that only their best hands stay.
        return _raise(table, player, max(2 * table.stake, 3 * table.boot))
    return Action(player, "chaal")


def _short_raise(table: Table) -> int | None:
    """Heads-up against a blind player who can cover a chaal: the smallest raise they cannot
    cover, if the table allows one and this seat can pay it. Short with two left, they may
    only show for everything they have left (or pack): there is no side pot, so the chips
    this seat keeps back stay out of the pot whatever the hands (rules: "Show")."""
    entry = table.legal.get("raise")
    others = table.others_in
    if entry is None or len(others) != 1 or others[0].seen or not table.settings.get("blind_show"):
        return None  # (without blind shows, Faras, they could only pack: not played for)
    opponent = others[0]
    if opponent.stack < table.stake:
        return None  # they are short of a chaal already: a chaal keeps more back
    boot = table.boot
    amount = max(int(entry["min"]), (opponent.stack // boot + 1) * boot)
    if amount > int(entry["max"]) or amount >= table.me.stack:
        return None
    return amount


def _against_blind(
    table: Table, player: str, rng: random.Random, history: History | None, style: Style, win: float, value_line: float
) -> Action:
    """Seen, heads-up, against a blind player: no show can be asked until they look, and
    each of their blind turns costs two stakes. It plays on when its chance of winning pays
    what reaching a show is likely to cost: their blind turns left (a table with no limit:
    as many as they seem to take, and none at all against a player who never looks)."""
    opponent = table.others_in[0]
    stake, stack, pot = table.stake, table.me.stack, table.pot
    if stack >= 2 * opponent.stack + 2 * stake and win > 0.5:
        return _stay(table, player)  # it outlasts them: they run short first and must show or pack
    growth = 1.15
    turns: float
    if style.modelled and history is not None:
        record = history.record(opponent.name)
        growth = 1.0 + record.blind_raise_share()
        looks = record.look_share()
    else:
        looks = 0.8
    if opponent.blind_turns_left is not None:
        turns = opponent.blind_turns_left
    elif looks < 0.3:
        return Action(player, "pack")  # they never look: no show will come
    else:
        turns = 1.0 / looks
    future_stake, future_cost, their_cost = float(stake), 0.0, 0.0
    for _ in range(max(1, round(turns))):
        their_cost += future_stake
        future_stake *= growth
        future_cost += 2 * future_stake
    future_cost += 2 * future_stake  # the show
    if future_cost > stack:
        future_cost = stack
    if win * (pot + their_cost + future_cost) < future_cost:
        return Action(player, "pack")
    if win > value_line and opponent.blind_turns_left is not None and stack >= 6 * 2 * stake and rng.random() < 0.5:
        return _raise(table, player, 2 * stake)
    return _stay(table, player)


def _seen(table: Table, player: str, rng: random.Random, history: History | None, style: Style) -> Action:
    assert table.cards is not None
    place = hand_place(table.cards, table.settings)
    win = _win_chance(place, table, history, style)
    others = table.others_in
    cost = table.cost("chaal") or 2 * table.stake
    pot = table.pot
    stack = table.me.stack
    looseness = _looseness(table, history) if style.modelled else 0.7
    # A bluff: raise the price for tight players who have not yet shown they hold a hand.
    stayed = history.this_hand_stayed if history is not None else ()
    bluffing = (
        style.modelled
        and looseness < 0.45
        and len(others) <= 2
        and all(other.name not in stayed for other in others)
        and rng.random() < 0.5
    )
    value_line = 0.72 if not (style.modelled and looseness > 0.8) else 0.62
    if table.in_count >= 3 and first_out(table) == player:
        # If they all stay it runs dry first and loses all it bet: play on only when the
        # chance that someone packs first is worth it, and never raise (that only speeds
        # the race); a sideshow ends the race.
        if _race_value(table, win, _all_stay(table, history, style)) < 0:
            return Action(player, "pack")
        partner = table.previous_in()
        if "sideshow" in table.legal and partner is not None:
            if beat_chance(place, _share(partner, table, history, style)) > 0.5:
                return Action(player, "sideshow")
        return _stay(table, player)
    room = stack >= 6 * cost  # deep enough to raise without tying itself to the pot

    if len(others) == 1:
        opponent = others[0]
        if "show" in table.legal and opponent.seen:
            raised_at_me = history is not None and opponent.name in history.this_hand_raised
            if win > value_line and room and not (raised_at_me and not style.modelled) and rng.random() < 0.7:
                # (Normal does not raise back at a player who raised after looking: it shows
                # or stays instead, as their raise already priced the hand.)
                return _raise(table, player, 2 * table.stake)
            if bluffing and room:
                return _raise(table, player, max(2 * table.stake, 3 * table.boot))
            show_cost = table.cost("show")
            if win * (pot + show_cost) > show_cost:
                return Action(player, "show")  # book 001's "count the pot before you call", here too
            return Action(player, "pack")
        # The opponent is still blind: nobody can ask for a show; count their blind turns.
        return _against_blind(table, player, rng, history, style, win, value_line)

    # With three or more in, against players who will stay to the end of a chip race, a
    # raise makes nobody pack and only speeds the race, which the raiser, paying first,
    # is likelier to lose.
    racing_stubborn = _all_stay(table, history, style) >= RACE_STUBBORN
    if win > value_line - 0.1 and room and not racing_stubborn and rng.random() < 0.6:
        return _raise(table, player, 2 * table.stake)
    if bluffing and room:
        return _raise(table, player, max(2 * table.stake, 3 * table.boot))
    partner = table.previous_in()
    if "sideshow" in table.legal and partner is not None:
        partner_win = beat_chance(place, _share(partner, table, history, style))
        if partner_win > 0.6 and win < 0.5:
            return Action(player, "sideshow")
    if win * (pot + cost * FUTURE_BETS) >= cost * FUTURE_BETS:
        return _stay(table, player)
    return Action(player, "pack")
