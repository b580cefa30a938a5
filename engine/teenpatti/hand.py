"""One hand of Teen Patti as a state machine: the deal, the betting, show, sideshow, the pot limit.

:func:`start_hand` deals; :func:`legal_actions` lists what a player may do now;
:func:`validate` refuses what the rules do not allow (:class:`engine.api.RuleError` with a
stable code); :func:`apply` returns a *new* :class:`HandState` and the events. A state is
never changed once made: ``apply`` copies it first (sharing lists it does not change).

The rules, as rule books 000 (Faras), 004 (Classic) and 002 (999) and the spec's list of
open cases settle them (``docs/rules.md`` has the reasons):

- Everyone pays the boot, which is also the opening stake. Cards are dealt one at a time
  from the player after the dealer, who also bets first; play goes clockwise.
- A blind player's chaal costs the stake, a seen player's twice the stake. ``raise S`` sets
  the stake to S and costs S blind, 2S seen. Raises go in steps of the boot; with
  ``raise="double"`` the new stake is at most twice the old one; never above ``stake_limit``.
- ``see`` is allowed at any time, to any blind player still in, and does not use the turn.
  After ``blind_turns`` blind bets a player must see before betting again.
- No all-in chaal: a player who cannot pay a bet cannot make it. With two players left a
  show is allowed for everything a short player has left, and the better hand takes the
  whole pot (no side pot).
- Show (two players left): seen asks seen for twice the stake; with ``blind_show`` a blind
  player may ask anyone for one stake; a seen player never asks a blind one. An exact tie
  goes to the player who did not ask.
- Sideshow (three or more in, asker and partner seen): costs twice the stake; the partner
  (``previous``: the player still in just before the asker, who has bet this hand;
  ``previous_seen``: the nearest such player who has seen) must then accept or refuse. On
  accept the lower hand packs, a tie packs the asker; the two see each other's cards, the
  table learns only who packed. Either way the turn passes to the player after the asker.
- Pot limit: when a bet brings the pot to ``pot_limit_boots`` boots or more, everyone still
  in shows (blind players too); the best hand wins; tied hands split, an odd chip going to
  the first winner clockwise from the player after the dealer.

Event kinds (``Event.kind``; data are JSON-ready; cards in the spec's notation):

==================  ====================  =====================================================
kind                visible to            data
==================  ====================  =====================================================
hand_started        everyone              game, dealer, players [{name, stack}], settings
boot                everyone              amount, pot, players
dealt               everyone              order (names, first card first), cards_each (3; Four-card 4)
joker               everyone              card (turned face up after the deal), rank: Joker variant
see                 everyone              player
cards               that player only      player, cards, hand (label, see ranking.hand_label)
chaal / raise       everyone              player, amount (paid), stake (after), blind, pot, stack
pack                everyone              player, reason ("pack" or "sideshow")
sideshow            everyone              player (asker), partner, amount, stake, pot, stack
sideshow_accepted   everyone              player (partner), asker
sideshow_result     asker and partner     asker, partner, cards {name: cards}, hands, loser
sideshow_refused    everyone              player (partner), asker
show                everyone              player (asker), against, amount, blind, pot, stack
showdown            everyone              reason ("show" / "pot_limit"), cards, hands, winners
hand_finished       everyone              reason ("last_player" / "show" / "pot_limit"),
                                          winners, payouts {name: chips won}, pots, stacks
==================  ====================  =====================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import Action, Event, LegalAction, RuleError, SettingsError
from engine.cards import DECK_SIZE, RANK_CHARS, card_text, rank_of
from engine.teenpatti.ranking import score_table
from engine.teenpatti.settings import Settings
from engine.teenpatti.showdown import finish, pot_limit_reached, reveal
from engine.teenpatti.state import HandState, cards_text, deal_order, hand_label_of
from engine.teenpatti.variants import cards_each, turns_a_card, variant_hand

VERBS = ("see", "chaal", "raise", "pack", "show", "sideshow", "accept", "refuse")

_SEE = LegalAction("see", cost=0)
_PACK = LegalAction("pack", cost=0)
_ACCEPT = LegalAction("accept", cost=0)
_REFUSE = LegalAction("refuse", cost=0)


# --- dealing ---------------------------------------------------------------------------------


def start_hand(
    *,
    game: str,
    settings: Settings,
    players: Sequence[tuple[str, int]],
    dealer: int,
    deck: Sequence[int],
    player_counts: tuple[int, int],
) -> tuple[HandState, list[Event]]:
    """Take the boot and deal three cards each (Four-card: four), one at a time, from the player
    after the dealer; in the Joker variant the next card is turned face up for everyone.

    Raises :class:`SettingsError` naming the field (``players``, ``players[1].stack``,
    ``dealer``, ``deck``) when the hand cannot be dealt.
    """
    low, high = player_counts
    count = len(players)
    if not low <= count <= high:
        raise SettingsError("players", f"{game} is played by {low} to {high} players, not {count}.")
    boot = settings.boot
    names: list[str] = []
    stacks: list[int] = []
    for position, entry in enumerate(players):
        name, stack = entry
        if not isinstance(name, str) or not name:
            raise SettingsError(f"players[{position}].name", "must be a non-empty text.")
        if name in names:
            raise SettingsError(f"players[{position}].name", f"{name!r} appears twice; names must be unique.")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise SettingsError(f"players[{position}].stack", f"must be a whole number of chips, not {stack!r}.")
        if stack < boot:
            raise SettingsError(
                f"players[{position}].stack",
                f"{name} has {stack} chips, fewer than the boot ({boot}): such a player is not dealt in.",
            )
        names.append(name)
        stacks.append(stack)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < count:
        raise SettingsError("dealer", f"must be a player's index, 0 to {count - 1}, not {dealer!r}.")
    if len(deck) != DECK_SIZE or set(deck) != set(range(DECK_SIZE)):
        raise SettingsError("deck", "must hold each of the 52 cards exactly once.")

    order = deal_order(count, dealer)
    variant = settings.variant
    each = cards_each(variant)
    dealt: list[tuple[int, ...]] = [()] * count
    for k, seat in enumerate(order):
        dealt[seat] = tuple(deck[k + round_number * count] for round_number in range(each))
    if each * count + turns_a_card(variant) > DECK_SIZE:
        raise SettingsError("players", f"{count} players at {each} cards each need more than one deck.")
    turned = deck[each * count] if turns_a_card(variant) else None
    if variant == "none":
        table = score_table(settings.ranking, settings.best_run)
        scores = tuple(table[1 << a | 1 << b | 1 << c] for a, b, c in dealt)
        labels = None
    else:
        hands = [variant_hand(cards, variant=variant, best_run=settings.best_run, turned=turned) for cards in dealt]
        scores = tuple(hand.score for hand in hands)
        labels = tuple(hand.label(variant) for hand in hands)

    state = object.__new__(HandState)
    state.game = game
    state.settings = settings
    state.names = tuple(names)
    state.index = {name: seat for seat, name in enumerate(names)}
    state.dealer = dealer
    state.start_stacks = tuple(stacks)
    state.cards = tuple(dealt)
    state.scores = scores
    state.labels = labels
    state.turned = turned
    state.stacks = [stack - boot for stack in stacks]
    state.bets = [boot] * count
    state.seen = [False] * count
    state.packed = [False] * count
    state.blind_used = [0] * count
    state.acted = [False] * count
    state.known_by = [0] * count
    state.public = [False] * count
    state.stake = boot
    state.pot = boot * count
    state.turn = order[0]
    state.pending = None
    state.in_count = count
    state.outcome = None

    events = [
        Event(
            "hand_started",
            {
                "game": game,
                "dealer": names[dealer],
                "players": [{"name": name, "stack": stack} for name, stack in zip(names, stacks, strict=True)],
                "settings": settings.to_json(),
            },
        ),
        Event("boot", {"amount": boot, "pot": state.pot, "players": list(names)}),
        # No cards here: a blind player's cards reach nobody, not even their own screen,
        # until they see (a ``cards`` event), so looking can never happen unrecorded.
        Event("dealt", {"order": [names[seat] for seat in order], "cards_each": each}),
    ]
    if turned is not None:
        # The Joker variant's face-up card: shown to everyone, players and watchers, and logged.
        events.append(Event("joker", {"card": card_text(turned), "rank": RANK_CHARS[rank_of(turned) - 2]}))
    return state, events


# --- who may do what ---------------------------------------------------------------------------


def _next_in(state: HandState, seat: int) -> int:
    """The next player still in after ``seat``, clockwise."""
    count = len(state.names)
    packed = state.packed
    nxt = (seat + 1) % count
    while packed[nxt]:
        nxt = (nxt + 1) % count
    return nxt


def _other_in(state: HandState, seat: int) -> int:
    """With two players left: the one who is not ``seat``."""
    packed = state.packed
    for other in range(len(packed)):
        if other != seat and not packed[other]:
            return other
    return -1


def sideshow_partner(state: HandState, seat: int) -> int:
    """Who ``seat`` would ask for a sideshow, or -1 for nobody.

    ``previous``: the nearest player still in before ``seat`` (counter-clockwise), if they
    have bet this hand. ``previous_seen``: the nearest player still in before ``seat`` who
    has seen their cards and has bet this hand.
    """
    count = len(state.names)
    packed, acted, seen = state.packed, state.acted, state.seen
    previous_seen = state.settings.sideshow == "previous_seen"
    other = (seat - 1) % count
    while other != seat:
        if not packed[other]:
            if not previous_seen:
                return other if acted[other] else -1
            if seen[other] and acted[other]:
                return other
        other = (other - 1) % count
    return -1


def must_see(state: HandState, seat: int) -> bool:
    """Whether ``seat`` has used up its blind turns (book 000: then it must see before betting)."""
    limit = state.settings.blind_turns
    return limit is not None and not state.seen[seat] and state.blind_used[seat] >= limit


def legal_actions(state: HandState, seat: int) -> list[LegalAction]:
    """What the player at ``seat`` may do now (``see`` for a blind player at any time)."""
    if state.turn < 0 or state.packed[seat]:
        return []
    seen = state.seen[seat]
    actions = [] if seen else [_SEE]
    pending = state.pending
    if pending is not None:
        if seat == pending[1]:
            actions.append(_ACCEPT)
            actions.append(_REFUSE)
        return actions
    if seat != state.turn:
        return actions
    settings = state.settings
    stake = state.stake
    stack = state.stacks[seat]
    unit = 2 if seen else 1
    blind_spent = must_see(state, seat)
    if not blind_spent:
        cost = stake * unit
        if cost <= stack:
            actions.append(LegalAction("chaal", cost=cost))
        boot = settings.boot
        lowest = stake + boot
        highest = stack // unit // boot * boot
        if settings.raise_rule == "double" and highest > 2 * stake:
            highest = 2 * stake
        if settings.stake_limit is not None and highest > settings.stake_limit:
            highest = settings.stake_limit
        if highest >= lowest:
            actions.append(LegalAction("raise", lowest, highest, lowest * unit))
    actions.append(_PACK)
    if state.in_count == 2:
        if not blind_spent and (state.seen[_other_in(state, seat)] if seen else settings.blind_show):
            actions.append(LegalAction("show", cost=min(stake * unit, stack)))
    elif settings.sideshow != "off" and seen and 2 * stake <= stack:
        partner = sideshow_partner(state, seat)
        if partner >= 0 and state.seen[partner]:
            actions.append(LegalAction("sideshow", cost=2 * stake))
    return actions


def validate(state: HandState, action: Action) -> tuple[int, int, int]:
    """Refuse an action the rules do not allow; else ``(seat, chips it costs, stake after)``."""
    names = state.names
    if state.turn < 0:
        raise RuleError("hand_over", "The hand is over.")
    seat = state.index.get(action.player, -1)
    if seat < 0:
        raise RuleError("unknown_player", f"Nobody called {action.player!r} is playing this hand.")
    verb = action.verb
    if verb not in VERBS:
        raise RuleError("unknown_verb", f"There is no move {verb!r} in Teen Patti; the moves are {', '.join(VERBS)}.")
    amount = action.amount
    if verb == "raise":
        if amount is None:
            raise RuleError("amount_required", "Say the stake you raise to, for example: raise 40.")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise RuleError("bad_amount", f"A raise needs a whole number of chips, not {amount!r}.")
    elif amount is not None:
        raise RuleError("amount_not_allowed", f"The move {verb!r} takes no amount.")
    if state.packed[seat]:
        raise RuleError("already_packed", f"{action.player} has packed and is out of this hand.")
    stake = state.stake
    if verb == "see":
        if state.seen[seat]:
            raise RuleError("already_seen", f"{action.player} has already seen their cards.")
        return seat, 0, stake
    pending = state.pending
    if pending is not None:
        asker, partner = pending
        if seat != partner:
            raise RuleError(
                "not_your_turn", f"{names[partner]} must first answer {names[asker]}'s sideshow, not {action.player}."
            )
        if verb not in ("accept", "refuse"):
            raise RuleError(
                "sideshow_answer_needed", f"{names[asker]} asked for a sideshow: accept or refuse it first."
            )
        return seat, 0, stake
    if verb in ("accept", "refuse"):
        raise RuleError("no_sideshow_pending", "Nobody has asked for a sideshow.")
    if seat != state.turn:
        raise RuleError("not_your_turn", f"It is {names[state.turn]}'s turn, not {action.player}'s.")
    if verb == "pack":
        return seat, 0, stake

    settings = state.settings
    seen = state.seen[seat]
    stack = state.stacks[seat]
    if must_see(state, seat):
        raise RuleError(
            "must_see", f"{action.player} has bet blind {settings.blind_turns} times and must see before betting again."
        )
    unit = 2 if seen else 1
    if verb == "chaal":
        cost = stake * unit
        if cost > stack:
            hint = "ask for a show for what you have left, or pack" if state.in_count == 2 else "pack"
            raise RuleError(
                "not_enough_chips",
                f"A chaal costs {cost} and {action.player} has {stack}; there is no all-in chaal, so {hint}.",
            )
        return seat, cost, stake
    if verb == "raise":
        assert amount is not None
        boot = settings.boot
        if amount <= stake:
            raise RuleError("raise_too_small", f"A raise must set a stake above the current {stake}, not {amount}.")
        if amount % boot:
            raise RuleError(
                "raise_not_multiple_of_boot", f"A raise goes in steps of the boot ({boot}); {amount} is not one."
            )
        if settings.raise_rule == "double" and amount > 2 * stake:
            raise RuleError(
                "raise_too_large", f"At this table a raise may at most double the stake, to {2 * stake}, not {amount}."
            )
        if settings.stake_limit is not None and amount > settings.stake_limit:
            raise RuleError(
                "raise_over_stake_limit", f"The stake limit is {settings.stake_limit}; a raise to {amount} is over it."
            )
        cost = amount * unit
        if cost > stack:
            raise RuleError("not_enough_chips", f"Raising to {amount} costs {cost} and {action.player} has {stack}.")
        return seat, cost, amount
    if verb == "show":
        if state.in_count != 2:
            raise RuleError("show_needs_two", "A show can be asked only when two players are left.")
        if not seen and not settings.blind_show:
            raise RuleError(
                "show_blind_not_allowed", "See your cards first: at this table a blind player cannot ask for a show."
            )
        other = _other_in(state, seat)
        if seen and not state.seen[other]:
            raise RuleError(
                "show_against_blind",
                f"{names[other]} is still blind, and a seen player cannot ask a blind one for a show.",
            )
        return seat, min(stake * unit, stack), stake
    # sideshow
    if settings.sideshow == "off":
        raise RuleError("sideshow_off", "Sideshows are off at this table.")
    if state.in_count < 3:
        raise RuleError("sideshow_needs_three", "A sideshow needs at least three players still in; ask for a show.")
    if not seen:
        raise RuleError("sideshow_needs_seen", "See your cards before asking for a sideshow.")
    partner = sideshow_partner(state, seat)
    if partner < 0:
        raise RuleError("sideshow_no_partner", "Nobody before you has bet this hand who could be asked for a sideshow.")
    if not state.seen[partner]:
        raise RuleError(
            "sideshow_partner_blind", f"{names[partner]} is still blind and cannot be asked for a sideshow."
        )
    cost = 2 * stake
    if cost > stack:
        raise RuleError("not_enough_chips", f"A sideshow costs {cost} and {action.player} has {stack}.")
    return seat, cost, stake


# --- what happens --------------------------------------------------------------------------------


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Validate ``action``, then return the new state and its events; ``state`` is untouched."""
    seat, cost, new_stake = validate(state, action)
    verb = action.verb
    name = action.player
    new = state.copy()
    events: list[Event] = []

    if verb == "see":
        new.seen = new.seen.copy()
        new.seen[seat] = True
        events.append(Event("see", {"player": name}))
        events.append(
            Event(
                "cards",
                {"player": name, "cards": cards_text(new, seat), "hand": hand_label_of(new, seat)},
                frozenset((name,)),
            )
        )
        return new, events

    if verb == "pack":
        new.packed = new.packed.copy()
        new.packed[seat] = True
        new.in_count -= 1
        events.append(Event("pack", {"player": name, "reason": "pack"}))
        if new.in_count == 1:
            last = _other_in(new, seat)
            finish(new, events, "last_player", [last], [last])
        else:
            new.turn = _next_in(new, seat)
        return new, events

    if verb in ("accept", "refuse"):
        assert new.pending is not None
        asker, partner = new.pending
        new.pending = None
        if verb == "refuse":
            events.append(Event("sideshow_refused", {"player": name, "asker": new.names[asker]}))
        else:
            events.append(Event("sideshow_accepted", {"player": name, "asker": new.names[asker]}))
            # A tie packs the player who asked (book 000, and the spec's open cases).
            loser = partner if new.scores[asker] > new.scores[partner] else asker
            new.known_by = new.known_by.copy()
            new.known_by[asker] |= 1 << partner
            new.known_by[partner] |= 1 << asker
            asker_name = new.names[asker]
            events.append(
                Event(
                    "sideshow_result",
                    {
                        "asker": asker_name,
                        "partner": name,
                        "cards": {asker_name: cards_text(new, asker), name: cards_text(new, partner)},
                        "hands": {asker_name: hand_label_of(new, asker), name: hand_label_of(new, partner)},
                        "loser": new.names[loser],
                    },
                    frozenset((asker_name, name)),
                )
            )
            new.packed = new.packed.copy()
            new.packed[loser] = True
            new.in_count -= 1
            events.append(Event("pack", {"player": new.names[loser], "reason": "sideshow"}))
        new.turn = _next_in(new, asker)
        return new, events

    # A bet: chaal, raise, show or sideshow.
    seen = new.seen[seat]
    new.stacks = new.stacks.copy()
    new.bets = new.bets.copy()
    new.stacks[seat] -= cost
    new.bets[seat] += cost
    new.pot += cost
    new.stake = new_stake
    if not new.acted[seat]:
        new.acted = new.acted.copy()
        new.acted[seat] = True
    if not seen:
        new.blind_used = new.blind_used.copy()
        new.blind_used[seat] += 1

    if verb == "show":
        other = _other_in(new, seat)
        events.append(
            Event(
                "show",
                {
                    "player": name,
                    "against": new.names[other],
                    "amount": cost,
                    "blind": not seen,
                    "pot": new.pot,
                    "stack": new.stacks[seat],
                },
            )
        )
        # An exact tie goes to the player who did not ask.
        winner = seat if new.scores[seat] > new.scores[other] else other
        pair = sorted((seat, other))
        reveal(new, events, "show", pair, [winner])
        finish(new, events, "show", pair, [winner])
        return new, events

    if verb == "sideshow":
        partner = sideshow_partner(new, seat)
        events.append(
            Event(
                "sideshow",
                {
                    "player": name,
                    "partner": new.names[partner],
                    "amount": cost,
                    "stake": new.stake,
                    "pot": new.pot,
                    "stack": new.stacks[seat],
                },
            )
        )
        if not pot_limit_reached(new, events):
            new.pending = (seat, partner)
            new.turn = partner
        return new, events

    events.append(
        Event(
            verb,
            {
                "player": name,
                "amount": cost,
                "stake": new.stake,
                "blind": not seen,
                "pot": new.pot,
                "stack": new.stacks[seat],
            },
        )
    )
    if not pot_limit_reached(new, events):
        new.turn = _next_in(new, seat)
    return new, events


_ACTION_OF_EVENT = {
    "see": "see",
    "chaal": "chaal",
    "raise": "raise",
    "show": "show",
    "sideshow": "sideshow",
    "sideshow_accepted": "accept",
    "sideshow_refused": "refuse",
}


def actions_from_events(events: Sequence[Event]) -> list[Action]:
    """The actions that caused ``events`` (a hand's full log, in order): applying them to
    the same deal rebuilds the same state. A pack caused by a sideshow is not an action."""
    actions = []
    for event in events:
        data = event.data
        if event.kind == "pack":
            if data["reason"] == "pack":
                actions.append(Action(data["player"], "pack"))
            continue
        verb = _ACTION_OF_EVENT.get(event.kind)
        if verb is not None:
            actions.append(Action(data["player"], verb, data["stake"] if verb == "raise" else None))
    return actions
