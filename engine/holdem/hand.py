"""One hand of no-limit Texas hold'em, as rule book 001 plays it: the state machine.

This module owns the rules of a single hand: blinds, the deal, the four betting
rounds, the minimum bet and raise, short all-ins, uncalled chips and the run-out when
betting stops early. The hand's state and where its cards lie in the deck are
:mod:`engine.holdem.state`; the side pots, the showdown order and the payout
:mod:`engine.holdem.showdown`. The table around the hands (button, blind levels) is
:mod:`engine.holdem.table`; the whole game is :mod:`engine.holdem.game`.

The state is a value: :func:`apply` copies it and returns the copy with the events
the action caused; the state given is never changed. A refused action raises
:class:`~engine.api.RuleError` and changes nothing.

Betting, in the book's words and the few places where it leaves a choice:

- The small blind is the first player left of the button and the big blind the next;
  heads-up the button posts the small blind, acts first before the flop and last
  after it. A player short of a blind posts what they have and is all in; the others
  still call the full big blind (the *current bet* starts at the big blind).
- Cards go one at a time from the player left of the button; a card is burnt before
  the flop, the turn and the river. Deck positions: hole cards ``0 .. 2n-1``, burn
  ``2n``, flop ``2n+1 .. 2n+3``, burn ``2n+4``, turn ``2n+5``, burn ``2n+6``, river ``2n+7``.
- A bet is at least the big blind; a raise adds at least the last full bet or raise of
  the round (the big blind counts as the first bet before the flop). Anyone may go
  all in for less.
- A player who has already acted in the round may raise again only when what they
  now face, counted from the bet they last acted on, is at least a full raise. So a
  short all-in does not reopen the betting for them, and two or more short all-ins
  that together make a full raise do (the Poker TDA's wording of the book's rule).
- Nobody may raise when no other player still in could put in more than the current
  bet (everyone else is all in or cannot even call it): there is nobody to raise.
  When everyone else still in is all in, a call matches only what they put in.
- At the end of each betting round the part of the biggest bet that nobody matched
  goes back to the player who made it.
- When no more than one player still in has chips, all hands still in are turned up
  at once and the board is dealt out.
- Showdown: with anyone all in, all hands at once; otherwise from the last player
  to bet or raise on the river (else the first player still in left of the button),
  each player in turn shows only a hand at least as good as the best shown so far;
  the others are mucked for them (a ``muck`` event without the cards).
- Pots are paid from the last side pot back to the main pot; equal hands share, and
  the chips that do not split evenly go to the first winner left of the button.

Events (``Event.kind`` and its data; all visible to everyone unless noted):

- ``hand_started``: ``players`` [{name, stack}], ``button``, ``small_blind``, ``big_blind``
  (the amounts), ``small_blind_player``, ``big_blind_player``.
- ``blind``: ``player``, ``blind`` ("small"/"big"), ``amount``, ``all_in``.
- ``hole_cards``: ``player``, ``cards`` - visible to that player only.
- ``action``: ``player``, ``verb`` (fold/check/call/bet/raise; ``allin`` is reported as
  the call, bet or raise it was), ``amount`` (chips put in now), ``total`` (the
  player's bet this round after it), ``all_in``.
- ``uncalled``: ``player``, ``amount`` - chips nobody called, given back.
- ``board``: ``street`` (flop/turn/river), ``cards`` (new ones), ``board`` (all so far).
- ``show``: ``player``, ``cards``, ``reason`` ("all_in": betting stopped early or
  someone is all in at the showdown; "showdown": shown in turn).
- ``muck``: ``player`` - a hand that could not win, thrown away unseen.
- ``pot_awarded``: ``pot`` (0 = main), ``amount``, ``eligible``, ``winners``,
  ``shares`` {name: chips}, ``hands`` {winner: {category, cards (the five)}} (empty
  when the pot was won without a showdown).
- ``hand_finished``: ``stacks`` {name: chips}.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import Action, Event, LegalAction, RuleError, SettingsError
from engine.cards import DECK_SIZE
from engine.holdem.showdown import finish, left_of_button, show_event, showdown
from engine.holdem.state import CARD_TEXT, FLOP, PREFLOP, RIVER, STREET_NAMES, HandState, blind_seats, board_positions

VERBS = ("fold", "check", "call", "bet", "raise", "allin")

_NOT_ACTED = -1
_WHOLE_DECK = frozenset(range(DECK_SIZE))

_FOLD = LegalAction("fold")
_CHECK = LegalAction("check")


def start_hand(
    *,
    small_blind: int,
    big_blind: int,
    players: Sequence[tuple[str, int]],
    button: int,
    deck: Sequence[int],
) -> tuple[HandState, list[Event]]:
    """Post the blinds and deal; the state is ready for the first action (or already finished
    when the blinds put everyone but one all in)."""
    count = len(players)
    if not 2 <= count <= 6:
        raise SettingsError("players", f"Hold'em is for 2 to 6 players, not {count}.")
    names = tuple(str(name) for name, _ in players)
    if len(set(names)) != count:
        raise SettingsError("players", "Player names must be different.")
    stacks = []
    for name, stack in players:
        if type(stack) is not int or stack <= 0:
            raise SettingsError("players", f"{name} needs a whole number of chips above 0, not {stack!r}.")
        stacks.append(stack)
    if type(button) is not int or not 0 <= button < count:
        raise SettingsError("dealer", f"The button must be a player's index from 0 to {count - 1}.")
    if len(deck) != DECK_SIZE or set(deck) != _WHOLE_DECK:
        raise SettingsError("deck", "The deck must be the 52 different cards.")

    state = HandState.__new__(HandState)
    state.names = names
    state.seat_of = {name: seat for seat, name in enumerate(names)}
    state.button = button
    state.small_blind = small_blind
    state.big_blind = big_blind
    state.small_blind_seat, state.big_blind_seat = blind_seats(count, button)
    state.deck = deck = tuple(deck)
    # One card at a time from the left of the button: the k-th player gets cards k and count + k.
    state.hole = tuple(
        (deck[(seat - button - 1) % count], deck[count + (seat - button - 1) % count]) for seat in range(count)
    )
    state.board = ()
    state.street = PREFLOP
    state.starting_stacks = tuple(stacks)
    state.stacks = stacks
    state.bets = [0] * count
    state.committed = [0] * count
    state.folded = [False] * count
    state.acted_at = [_NOT_ACTED] * count
    state.current_bet = big_blind  # a short big blind still leaves the full big blind to call
    state.min_raise = big_blind
    state.last_aggressor = -1
    state.to_act = -1
    state.revealed = ()
    state.result = None
    state.awards = None

    events = [
        Event(
            "hand_started",
            {
                "players": [{"name": name, "stack": stack} for name, stack in zip(names, stacks, strict=True)],
                "button": names[button],
                "small_blind": small_blind,
                "big_blind": big_blind,
                "small_blind_player": names[state.small_blind_seat],
                "big_blind_player": names[state.big_blind_seat],
            },
        )
    ]
    for seat, kind, amount in (
        (state.small_blind_seat, "small", small_blind),
        (state.big_blind_seat, "big", big_blind),
    ):
        paid = min(amount, state.stacks[seat])
        state.stacks[seat] -= paid
        state.bets[seat] += paid
        state.committed[seat] += paid
        events.append(
            Event("blind", {"player": names[seat], "blind": kind, "amount": paid, "all_in": state.stacks[seat] == 0})
        )
    for seat in range(count):
        events.append(
            Event(
                "hole_cards",
                {"player": names[seat], "cards": [CARD_TEXT[c] for c in state.hole[seat]]},
                frozenset((names[seat],)),
            )
        )
    first = _next_to_act(state, state.big_blind_seat)
    if first < 0:
        _end_round(state, events)
    else:
        state.to_act = first
    return state, events


# --- who acts, and what they may do ------------------------------------------------------------


def call_level(state: HandState, seat: int) -> int:
    """The bet ``seat`` must reach to call: the current bet, but never more than the other
    players still in could put in (when they are all in, only what they put in)."""
    current = state.current_bet
    cap = 0
    bets, stacks, folded = state.bets, state.stacks, state.folded
    for other in range(len(bets)):
        if other != seat and not folded[other]:
            reach = bets[other] + stacks[other]
            if reach >= current:
                return current
            if reach > cap:
                cap = reach
    return cap


def _someone_can_answer(state: HandState, seat: int) -> bool:
    """Whether another player still in could put in more than the current bet (a raise needs one)."""
    bets, stacks, folded, current = state.bets, state.stacks, state.folded, state.current_bet
    for other in range(len(bets)):
        if other != seat and not folded[other] and bets[other] + stacks[other] > current:
            return True
    return False


def raise_reopened(state: HandState, seat: int) -> bool:
    """Whether the betting is open for ``seat`` to raise: not acted yet this round, or facing
    at least a full raise since they last acted (short all-ins do not reopen it)."""
    acted = state.acted_at[seat]
    return acted == _NOT_ACTED or state.current_bet - acted >= state.min_raise


def _next_to_act(state: HandState, after: int) -> int:
    """The first seat after ``after`` that must act, or -1 when the betting round is over.

    A player still in with chips must act when they have not matched what they must
    call, or have not acted yet in this round while someone else could still bet.
    """
    count = len(state.names)
    folded, stacks, bets, acted_at = state.folded, state.stacks, state.bets, state.acted_at
    current = state.current_bet
    with_chips = 0
    for seat in range(count):
        if stacks[seat] and not folded[seat]:
            with_chips += 1
    for step in range(1, count + 1):
        seat = (after + step) % count
        if folded[seat] or not stacks[seat]:
            continue
        if bets[seat] < current and bets[seat] < call_level(state, seat):
            return seat
        if acted_at[seat] == _NOT_ACTED and with_chips > 1:
            return seat
    return -1


def legal_actions(state: HandState, player: str | None = None) -> list[LegalAction]:
    """The verbs ``player`` (default: the one to act) may use now; empty when it is not their turn.

    ``bet``: ``min``/``max`` bound the bet. ``raise``: they bound the total this round
    ("raise to"). ``cost`` is what the action puts in now (at ``min`` for bet and raise).
    """
    seat = state.to_act
    if seat < 0:
        return []
    if player is not None and state.seat_of.get(player) != seat:
        return []
    bets, stacks, folded = state.bets, state.stacks, state.folded
    current = state.current_bet
    stack = stacks[seat]
    own = bets[seat]
    total = own + stack
    reach = 0  # the most any other player still in could have in this round
    for other in range(len(bets)):
        if other != seat and not folded[other] and bets[other] + stacks[other] > reach:
            reach = bets[other] + stacks[other]
    level = current if current < reach else reach  # as call_level()
    out = [_FOLD]
    if own >= level:
        out.append(_CHECK)
    else:
        out.append(LegalAction("call", cost=min(level - own, stack)))
    can_raise = total > current and reach > current  # as _someone_can_answer()
    if can_raise and state.current_bet == 0:
        least = min(state.big_blind, total)
        out.append(LegalAction("bet", min=least, max=total, cost=least - own))
    elif can_raise and raise_reopened(state, seat):
        least = min(state.current_bet + state.min_raise, total)
        out.append(LegalAction("raise", min=least, max=total, cost=least - own))
    else:
        can_raise = False
    if can_raise or total <= level:
        out.append(LegalAction("allin", cost=stack))
    return out


# --- acting ------------------------------------------------------------------------------------


def check(state: HandState, action: Action) -> None:
    """Raise :class:`RuleError` if ``action`` is not allowed now (nothing is changed)."""
    _validate(state, action)


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """The state after ``action`` and the events it caused; ``state`` is unchanged."""
    seat, verb, target = _validate(state, action)
    new = state.copy()
    events: list[Event] = []
    if verb == "fold":
        new.folded[seat] = True
        events.append(
            Event("action", {"player": new.names[seat], "verb": "fold", "amount": 0, "total": target, "all_in": False})
        )
        _after_action(new, seat, events)
    elif verb == "check":
        new.acted_at[seat] = new.current_bet
        events.append(
            Event("action", {"player": new.names[seat], "verb": "check", "amount": 0, "total": target, "all_in": False})
        )
        _after_action(new, seat, events)
    elif verb == "call":
        _put_in(new, seat, target, "call", events)
    else:
        added = target - new.current_bet
        if added >= new.min_raise:
            new.min_raise = added  # a full bet or raise sets the next minimum
        new.current_bet = target
        new.last_aggressor = seat
        _put_in(new, seat, target, verb, events)
    return new, events


def _amount(action: Action) -> int:
    amount = action.amount
    if type(amount) is not int:
        raise RuleError("bad_amount", f"'{action.verb}' needs a whole number of chips, not {amount!r}.")
    if amount <= 0:
        raise RuleError("bad_amount", f"'{action.verb}' needs an amount above 0, not {amount}.")
    return amount


def _validate(state: HandState, action: Action) -> tuple[int, str, int]:
    """Check ``action`` against the rules: the seat, what it amounts to (fold, check, call,
    bet or raise; ``allin`` becomes one of the last three) and the player's bet for the
    round after it. Raises :class:`RuleError`."""
    seat = state.to_act
    if seat < 0:
        raise RuleError("hand_over", "The hand is over.")
    names = state.names
    acting = state.seat_of.get(action.player)
    if acting is None:
        raise RuleError("unknown_player", f"{action.player!r} is not in this hand.")
    if acting != seat:
        raise RuleError("not_your_turn", f"It is {names[seat]}'s turn, not {action.player}'s.")
    verb = action.verb
    own = state.bets[seat]
    if verb == "fold":
        return seat, "fold", own
    total = own + state.stacks[seat]
    level = call_level(state, seat)
    current = state.current_bet
    if verb == "check":
        if own < level:
            raise RuleError("cannot_check", f"{names[seat]} cannot check: the bet is {level}, call or fold.")
        return seat, "check", own
    if verb == "call":
        if own >= level:
            raise RuleError("nothing_to_call", f"There is nothing for {names[seat]} to call: check instead.")
        return seat, "call", min(level, total)
    if verb == "allin":
        if total <= level:
            return seat, "call", total
        target = total
        verb = "bet" if current == 0 else "raise"
    elif verb in ("bet", "raise"):
        target = _amount(action)
        if verb == "raise" and current == 0:
            raise RuleError("cannot_raise", "Nobody has bet in this round: bet instead of raising.")
        if verb == "bet" and current != 0:
            raise RuleError("cannot_bet", f"There is already a bet of {current}: raise instead.")
    else:
        raise RuleError("unknown_verb", f"{verb!r} is not a hold'em action: use {', '.join(VERBS)}.")

    # A bet or a raise to `target` (the player's total for this round; for a bet own is 0).
    if target > total:
        raise RuleError("not_enough_chips", f"{names[seat]} has only {total} to bet this round, not {target}.")
    if not _someone_can_answer(state, seat):
        raise RuleError(
            "cannot_raise", "Nobody else still in could answer a raise: everyone else is all in. Call or fold."
        )
    if verb == "raise" and not raise_reopened(state, seat):
        raise RuleError(
            "betting_closed",
            f"An all-in for less than a full raise does not reopen the betting: {names[seat]} can only call or fold.",
        )
    if verb == "bet":
        if target < state.big_blind and target != total:
            raise RuleError("bet_too_small", f"A bet is at least the big blind, {state.big_blind}.")
    else:
        least = current + state.min_raise
        if target <= current or (target < least and target != total):
            raise RuleError(
                "raise_too_small",
                f"A raise must add at least the last bet or raise ({state.min_raise}): raise to {least} or more.",
            )
    return seat, verb, target


def _put_in(state: HandState, seat: int, target: int, verb: str, events: list[Event]) -> None:
    """Bring ``seat``'s bet this round to ``target`` and pass the turn."""
    amount = target - state.bets[seat]
    state.stacks[seat] -= amount
    state.bets[seat] = target
    state.committed[seat] += amount
    state.acted_at[seat] = state.current_bet
    events.append(
        Event(
            "action",
            {
                "player": state.names[seat],
                "verb": verb,
                "amount": amount,
                "total": target,
                "all_in": state.stacks[seat] == 0,
            },
        )
    )
    _after_action(state, seat, events)


def _after_action(state: HandState, seat: int, events: list[Event]) -> None:
    live = 0
    for folded in state.folded:
        if not folded:
            live += 1
    following = _next_to_act(state, seat) if live > 1 else -1
    if following >= 0:
        state.to_act = following
    else:
        _end_round(state, events)


# --- between rounds ----------------------------------------------------------------------------


def _end_round(state: HandState, events: list[Event]) -> None:
    """Give back uncalled chips, then deal the next street, run the board out, or finish."""
    bets = state.bets
    top_seat, top, second = 0, -1, -1
    for seat, bet in enumerate(bets):
        if bet > top:
            top_seat, top, second = seat, bet, top
        elif bet > second:
            second = bet
    if top > second:
        back = top - second
        state.stacks[top_seat] += back
        state.committed[top_seat] -= back
        events.append(Event("uncalled", {"player": state.names[top_seat], "amount": back}))
    count = len(bets)
    state.bets = [0] * count
    state.acted_at = [_NOT_ACTED] * count
    state.current_bet = 0
    state.min_raise = state.big_blind
    state.to_act = -1
    live = [seat for seat in range(count) if not state.folded[seat]]
    if len(live) == 1:
        finish(state, events)
        return
    if state.street == RIVER:
        showdown(state, events)
        return
    with_chips = sum(1 for seat in live if state.stacks[seat])
    if with_chips <= 1:
        # Nobody left to bet against: every hand still in is turned up and the board run out.
        order = left_of_button(state, live)
        shown = [seat for seat in order if seat not in state.revealed]
        for seat in shown:
            events.append(show_event(state, seat, "all_in"))
        state.revealed = state.revealed + tuple(shown)
        while state.street < RIVER:
            _deal_street(state, events)
        showdown(state, events)
        return
    _deal_street(state, events)
    state.last_aggressor = -1
    state.to_act = _next_to_act(state, state.button)


def _deal_street(state: HandState, events: list[Event]) -> None:
    state.street += 1
    positions = board_positions(len(state.names))
    if state.street == FLOP:
        new = tuple(state.deck[p] for p in positions[:3])
    else:
        new = (state.deck[positions[state.street + 1]],)
    state.board = state.board + new
    events.append(
        Event(
            "board",
            {
                "street": STREET_NAMES[state.street],
                "cards": [CARD_TEXT[c] for c in new],
                "board": [CARD_TEXT[c] for c in state.board],
            },
        )
    )
