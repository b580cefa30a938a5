"""The table around the hands: who is dealt in, who deals, and decks for written scenarios.

- The dealer moves one seat clockwise each hand (book 000). The next dealer is the first
  player dealt in after the last dealer's seat; for the first hand, or when the last
  dealer has left the table, the first player dealt in deals.
- A player with fewer chips than the boot is not dealt in (book 000).
- Chips carry from hand to hand: the table passes each hand's end stacks to the next plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import HandPlan, SettingsError, TablePosition, is_whole_number
from engine.cards import deck_with
from engine.teenpatti.settings import parse_settings
from engine.teenpatti.state import deal_order


def plan_hand(
    *,
    settings: Mapping[str, Any],
    seats: Sequence[tuple[str, int]],
    previous: TablePosition,
    player_counts: tuple[int, int],
) -> HandPlan | None:
    """The next hand: players with at least a boot, in seat order, and the dealer's index."""
    boot = parse_settings(settings).boot
    low, high = player_counts
    dealt_seats = [index for index, (_name, stack) in enumerate(seats) if stack >= boot]
    dealt_in = [(seats[index][0], seats[index][1]) for index in dealt_seats]
    if len(dealt_in) < low:
        return None
    if len(dealt_in) > high:
        raise SettingsError("seats", f"at most {high} players can be dealt in, not {len(dealt_in)}.")
    dealer = previous.next_dealer([name for name, _stack in seats], dealt_seats)
    return HandPlan(
        players=tuple(dealt_in),
        dealer=dealer,
        settings=dict(settings),
        position=TablePosition(dealer=dealt_in[dealer][0], hands_played=previous.hands_played + 1),
    )


def deck_for_scenario(
    *, players: Sequence[str], dealer: int, hands: Mapping[str, Sequence[int]], board: Sequence[int] | None
) -> list[int]:
    """A deck (top first) that deals each player exactly ``hands[name]``, one card at a time
    from the player after the dealer; the rest of the deck follows in new-deck order.

    Every hand has three cards, or every hand four (the Four-card variant): the replay checks
    the count against the settings (``TableRules.hole_cards_for``)."""
    if board:
        raise SettingsError("board", "Teen Patti has no board; give only each player's three cards.")
    count = len(players)
    if not is_whole_number(dealer) or not 0 <= dealer < count:
        raise SettingsError("dealer", f"must be a player's index, 0 to {count - 1}, not {dealer!r}.")
    for name in hands:
        if name not in players:
            raise SettingsError(f"hands.{name}", f"{name!r} is not one of the players.")
    used: set[int] = set()
    each = 0
    for name in players:
        if name not in hands:
            raise SettingsError(f"hands.{name}", "is missing: give every player's three cards.")
        cards = list(hands[name])
        if len(cards) not in (3, 4) or each not in (0, len(cards)):
            wanted = "three cards (four in the Four-card variant, for everyone)" if not each else f"{each} cards"
            raise SettingsError(f"hands.{name}", f"must be {wanted}, not {len(cards)}.")
        each = len(cards)
        for card in cards:
            if card in used:
                raise SettingsError(f"hands.{name}", "repeats a card already dealt to someone.")
            used.add(card)
    placed: dict[int, int] = {}
    for k, seat in enumerate(deal_order(count, dealer)):
        for round_number, card in enumerate(hands[players[seat]]):
            placed[k + round_number * count] = card
    return deck_with(placed)
