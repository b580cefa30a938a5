"""What a Teen Patti computer player reads of its table: the seat's view as plain
:class:`Player` and :class:`Table` values (:func:`read_table`), and the chip race
(:func:`first_out`): who would be first unable to cover a chaal if everyone stayed in.
The strategies that use them are :mod:`engine.bots.teenpatti`'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    stack: int
    bet: int
    seen: bool
    packed: bool
    blind_turns_used: int
    blind_turns_left: int | None


@dataclass(frozen=True, slots=True)
class Table:
    me: Player
    my_index: int
    players: tuple[Player, ...]
    pot: int
    stake: int
    boot: int
    settings: Mapping[str, Any]
    cards: list[str] | None
    legal: Mapping[str, Mapping[str, Any]]
    pending: Mapping[str, str] | None

    @property
    def others_in(self) -> list[Player]:
        return [p for index, p in enumerate(self.players) if index != self.my_index and not p.packed]

    @property
    def in_count(self) -> int:
        return sum(1 for p in self.players if not p.packed)

    def cost(self, verb: str) -> int:
        entry = self.legal.get(verb)
        return int(entry.get("cost") or 0) if entry is not None else 0

    def previous_in(self) -> Player | None:
        """The nearest player still in before this seat (the sideshow partner under ``previous``)."""
        count = len(self.players)
        for step in range(1, count):
            other = self.players[(self.my_index - step) % count]
            if not other.packed:
                if self.settings.get("sideshow") == "previous_seen" and not other.seen:
                    continue
                return other
        return None


def first_out(table: Table, *, me_seen: bool | None = None) -> str | None:
    """Who would be the first unable to cover a chaal if everyone still in chaaled at this
    stake from now on (book 000: "with three or more still in, a player who can't cover
    the chaal must pack"); ``None`` with fewer than three in or when the pot limit comes
    first. A blind player bets blind until their blind turns run out, then seen. The
    count starts with this seat, whose turn it is; ``me_seen`` says whether it bets seen
    (default: as it is now)."""
    if table.in_count < 3:
        return None
    count = len(table.players)
    order = [table.players[(table.my_index + step) % count] for step in range(count)]
    order = [p for p in order if not p.packed]
    stake = table.stake
    turns: list[int] = []  # chaals each can pay
    blind_turns: list[int] = []  # of those, blind ones
    for index, p in enumerate(order):
        seen = p.seen if index or me_seen is None else me_seen
        blind = 0 if seen else (p.blind_turns_left if p.blind_turns_left is not None else p.stack // stake + 1)
        affordable = min(blind, p.stack // stake)
        if affordable < blind:
            turns.append(affordable)
            blind_turns.append(affordable)
        else:
            turns.append(blind + (p.stack - blind * stake) // (2 * stake))
            blind_turns.append(blind)
    players = len(order)
    out = min(range(players), key=lambda index: turns[index] * players + index)
    limit_boots = table.settings.get("pot_limit_boots")
    if limit_boots is not None:
        paid = 0
        for index in range(players):
            chaals = turns[out] + (1 if index < out else 0)
            blind = min(chaals, blind_turns[index])
            paid += blind * stake + (chaals - blind) * 2 * stake
        if table.pot + paid >= int(limit_boots) * table.boot:
            return None
    return order[out].name


def read_table(view: Mapping[str, Any], player: str) -> Table:
    players = []
    my_index = -1
    for index, entry in enumerate(view["players"]):
        players.append(
            Player(
                name=str(entry["name"]),
                stack=int(entry["stack"]),
                bet=int(entry["bet"]),
                seen=bool(entry["seen"]),
                packed=bool(entry["packed"]),
                blind_turns_used=int(entry["blind_turns_used"]),
                blind_turns_left=None if entry.get("blind_turns_left") is None else int(entry["blind_turns_left"]),
            )
        )
        if entry["name"] == player:
            my_index = index
    if my_index < 0:
        raise ValueError(f"{player!r} is not in this hand.")
    return Table(
        me=players[my_index],
        my_index=my_index,
        players=tuple(players),
        pot=int(view["pot"]),
        stake=int(view["stake"]),
        boot=int(view["boot"]),
        # The Joker variant's face-up card is public; the odds need it to count the jokers.
        settings={**view["settings"], "joker": view.get("joker")},
        cards=view.get("your_cards"),
        legal={str(entry["verb"]): entry for entry in view["legal"]},
        pending=view.get("sideshow"),
    )
