"""Settling up: from what each player bought and holds at the end, to who pays whom.

This module is pure (no Django, no I/O, no clock) so that the site's report and
``python manage.py settle`` (``shared/spec/settle.md``) run the same computation.

The design, in three steps (``docs/ledger.md`` says the same with examples):

1. **Exact results at the table's chip value.** A table plays at one chip value (the
   buy-in's price over its chips, fixed once anyone has bought in), and every player
   bought their chips at it. A player's exact result is ``chips at the end x chip
   value - paid``, a :class:`~fractions.Fraction` of the currency's smallest unit (a
   cent); as the chips at the end add up to the chips bought, the exact results add
   up to zero. Players who bought at different values are refused
   (``mixed_chip_values``), never averaged: pooling prices into one average value
   moves money between players without a hand being played.

2. **Largest-remainder rounding to whole cents.** Every exact result is rounded
   down to a whole cent; the cents this leaves over (the sum of the dropped
   fractions, always a whole number) go one each to the players with the largest
   dropped fractions. Ties between equal fractions go first to the player whose
   exact result is lower (the one who did worse), then by name (Python's string
   order, i.e. by Unicode code point), so the answer never depends on the order in
   which the players were listed. A balance never changes sign through rounding.

3. **The fewest transfers.** Players with a zero balance take no part. Among the
   ``n`` others, any set of transfers that settles everyone splits them into
   groups that each add up to zero, and a group of ``k`` players needs at least
   ``k - 1`` transfers; so the minimum is ``n`` minus the largest number of
   disjoint zero-sum groups. Equal and opposite balances always form a group of
   their own (pairing them never costs the optimum), the rest is found exactly by
   a dynamic programme over subsets (bitmasks), and each group is then settled
   with ``k - 1`` transfers from a loser to a winner (the biggest loser pays the
   biggest winner first). The output is sorted by payer then payee name.

Every input error raises :class:`SettlementError` (a ``ValueError``) with a stable
``code`` and a sentence a person can read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from tables.money import format_chip_value, format_minor_units

#: How many players with a non-zero balance the exact search accepts after equal and
#: opposite balances are paired off. 2^(n-1) subsets: 16 take ~30 ms, 20 about half a second.
MAX_EXACT_PLAYERS = 20


class SettlementError(ValueError):
    """Input that cannot be settled. ``code`` is stable; the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """One player's totals for a game: chips bought, money paid (minor units), chips at the end."""

    name: str
    chips_bought: int
    paid: int
    chips_end: int
    #: At a table that shares its pool by places (hold'em, docs/ledger.md): the player's prize in
    #: minor units (0 for no prize). ``None`` everywhere else: the chips at the end are the result.
    prize: int | None = None


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: ``payer`` (a loser) pays ``payee`` (a winner) ``amount`` minor units (> 0)."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result: exact chip value, whole-cent balances (input order) and the transfers."""

    chip_value: Fraction  # minor units (cents) per chip
    balances: dict[str, int]  # minor units; they add up to exactly zero
    exact_balances: dict[str, Fraction]
    transfers: tuple[Transfer, ...]

    @property
    def is_zero_value(self) -> bool:
        return self.chip_value == 0


# ---------------------------------------------------------------------------------
# Money formatting helpers (minor units <-> decimal strings)


def to_minor_units(amount: Decimal, *, digits: int = 2) -> int:
    """``Decimal("10.50")`` -> ``1050``. Refuses amounts that are not whole minor units."""
    try:
        scaled = amount.scaleb(digits)
    except InvalidOperation as error:  # pragma: no cover - Decimal only fails on NaN-like values
        raise SettlementError("bad_amount", f"{amount} is not an amount of money.") from error
    if not scaled.is_finite() or scaled != scaled.to_integral_value():
        raise SettlementError("bad_amount", f"{amount} is not a whole number of the currency's smallest unit.")
    return int(scaled)


# ---------------------------------------------------------------------------------
# Settlement


def settle(entries: Sequence[PlayerEntry], *, chip_value: Fraction | None = None) -> Settlement:
    """Balances and the fewest transfers for ``entries`` (see the module docstring).

    ``chip_value`` is in minor units per chip; without it, it is the value every player
    bought at (``paid / chips_bought``, the same for all), or 0 when no one bought.

    :raises SettlementError: a duplicate or empty name, a negative count, chips at
        the end that do not add up to the chips bought, or a player who did not buy
        at the chip value (``mixed_chip_values``).
    """
    _check_entries(entries)
    if chip_value is None:
        chip_value = _common_chip_value(entries)
    if chip_value < 0:
        raise SettlementError("bad_chip_value", "A chip cannot be worth less than nothing.")
    for entry in entries:
        if entry.chips_bought * chip_value != entry.paid:
            raise SettlementError(
                "mixed_chip_values",
                f"{entry.name} paid {format_minor_units(entry.paid)} for {entry.chips_bought} chips, "
                f"not {format_chip_value(chip_value)} a chip like the rest of the table: "
                "a table is played at one chip value.",
            )
    exact = {entry.name: entry.chips_end * chip_value - entry.paid for entry in entries}
    if any(entry.prize is not None for entry in entries):
        exact = _exact_by_prizes(entries)
    balances = round_largest_remainder(exact)
    transfers = minimum_transfers(balances)
    return Settlement(chip_value=chip_value, balances=balances, exact_balances=exact, transfers=tuple(transfers))


def _exact_by_prizes(entries: Sequence[PlayerEntry]) -> dict[str, Fraction]:
    """At a table shared by places, a player's result is *prize - paid*: the prizes are the
    pool (every buy-in) handed out again, so they must add up to what was paid, to the cent."""
    prizes: dict[str, int] = {}
    for entry in entries:
        if isinstance(entry.prize, bool) or not isinstance(entry.prize, int):
            raise SettlementError("missing_prize", f"{entry.name} has no prize, though the others have one.")
        if entry.prize < 0:
            raise SettlementError("negative", f"{entry.name}: prize cannot be negative.")
        prizes[entry.name] = entry.prize
    pool = sum(entry.paid for entry in entries)
    if sum(prizes.values()) != pool:
        raise SettlementError(
            "prizes_mismatch",
            f"The prizes ({format_minor_units(sum(prizes.values()))}) do not add up to the pool "
            f"({format_minor_units(pool)}).",
        )
    return {entry.name: Fraction(prizes[entry.name] - entry.paid) for entry in entries}


def _common_chip_value(entries: Sequence[PlayerEntry]) -> Fraction:
    """The value a chip was bought at: that of the first player who bought (the check in
    :func:`settle` then holds every other player to it)."""
    for entry in entries:
        if entry.chips_bought:
            return Fraction(entry.paid, entry.chips_bought)
    return Fraction(0)


def _check_entries(entries: Sequence[PlayerEntry]) -> None:
    seen: set[str] = set()
    for entry in entries:
        if not isinstance(entry.name, str) or not entry.name.strip():
            raise SettlementError("bad_name", "Every player needs a name.")
        key = entry.name.strip().casefold()
        if key in seen:
            raise SettlementError("duplicate_name", f"The name {entry.name!r} appears twice.")
        seen.add(key)
        for field in ("chips_bought", "paid", "chips_end"):
            value = getattr(entry, field)
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettlementError("bad_number", f"{entry.name}: {field} must be a whole number.")
            if value < 0:
                raise SettlementError("negative", f"{entry.name}: {field} cannot be negative.")
    bought = sum(entry.chips_bought for entry in entries)
    held = sum(entry.chips_end for entry in entries)
    if bought != held:
        raise SettlementError(
            "chips_mismatch",
            f"The chips at the end ({held}) do not add up to the chips bought ({bought}): "
            f"{abs(held - bought)} chips were {'created' if held > bought else 'lost'}.",
        )


def round_largest_remainder(exact: dict[str, Fraction], *, total: int = 0) -> dict[str, int]:
    """Round exact results (minor units, summing to ``total``, zero by default) to whole
    units summing to ``total``.

    Floor everything, then hand the leftover units one each to the largest dropped
    fractions; ties go to the lower exact result, then to the smaller name.
    The returned dict keeps the input's order.
    """
    floors = {name: value.numerator // value.denominator for name, value in exact.items()}
    leftover = total - sum(floors.values())
    remainders = {name: exact[name] - floors[name] for name in exact}
    if sum(remainders.values()) != leftover:
        raise SettlementError("not_zero_sum", "The exact results do not add up to zero.")
    order = sorted(exact, key=lambda name: (-remainders[name], exact[name], name))
    for name in order[: int(leftover)]:
        floors[name] += 1
    return floors


def check_payouts(payouts: Sequence[int]) -> tuple[int, ...]:
    """A payout table: one whole percent (at least 1) per paid place, adding up to 100."""
    if not payouts:
        raise SettlementError("bad_payouts", "A payout table pays at least one place.")
    for percent in payouts:
        if isinstance(percent, bool) or not isinstance(percent, int):
            raise SettlementError("bad_payouts", "Each place's share is a whole percent.")
        if percent < 1:
            raise SettlementError("bad_payouts", "Each paid place gets at least 1 percent.")
    if sum(payouts) != 100:
        raise SettlementError("bad_payouts", f"The percentages add up to {sum(payouts)}, not 100.")
    return tuple(payouts)


def split_prizes(*, pool: int, payouts: Sequence[int], places: dict[str, int]) -> dict[str, int]:
    """The prizes of a game shared by places, in minor units, to the unit: they add up to ``pool``.

    ``places`` gives each player's place (1 is first; players level share a place and the
    next place skips, 1, 1, 3: ``engine.holdem.game.game_placings``). Place *p* is paid
    ``payouts[p - 1]`` percent of the pool (nothing past the table). Players who share a
    place share equally the prizes of the places they cover: two level for first with
    50/30/20 cover first and second and get 40 percent each. The exact shares (fractions of
    a unit) are rounded by :func:`round_largest_remainder` to add up to ``pool`` exactly.

    :raises SettlementError: a bad payout table (:func:`check_payouts`), more paid places
        than players placed, a negative pool or a place that is not a whole number from 1.
    """
    payouts = check_payouts(payouts)
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise SettlementError("negative", "The prize pool cannot be negative.")
    if len(payouts) > len(places):
        raise SettlementError(
            "too_many_places", f"The payout table pays {len(payouts)} places but {len(places)} players were placed."
        )
    for name, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise SettlementError("bad_place", f"{name}: a place is a whole number from 1.")
    ordered = sorted(places, key=lambda name: (places[name], name))
    exact: dict[str, Fraction] = {}
    start = 0
    while start < len(ordered):
        level = [name for name in ordered[start:] if places[name] == places[ordered[start]]]
        covered = sum(payouts[start : start + len(level)])
        for name in level:
            exact[name] = Fraction(pool * covered, 100 * len(level))
        start += len(level)
    prizes = round_largest_remainder(exact, total=pool)
    return {name: prizes[name] for name in places}


def minimum_transfers(balances: dict[str, int]) -> list[Transfer]:
    """The fewest loser-to-winner transfers that settle ``balances`` (which sum to zero).

    Deterministic: the result depends only on the (name, balance) pairs, not their order.

    :raises SettlementError: the balances do not sum to zero, or too many players
        remain for the exact search (more than :data:`MAX_EXACT_PLAYERS`).
    """
    if sum(balances.values()) != 0:
        raise SettlementError("not_zero_sum", "The balances do not add up to zero.")
    groups = zero_sum_groups(balances)
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_settle_group({name: balances[name] for name in group}))
    transfers.sort(key=lambda transfer: (transfer.payer, transfer.payee))
    return transfers


def zero_sum_groups(balances: dict[str, int]) -> list[list[str]]:
    """The players with non-zero balances split into the most disjoint zero-sum groups."""
    names = sorted(name for name, amount in balances.items() if amount)
    groups: list[list[str]] = []

    # Equal and opposite balances pair off first, in name order: an optimal split
    # always exists with such a pair as a group of its own.
    by_amount: dict[int, list[str]] = {}
    for name in names:
        by_amount.setdefault(balances[name], []).append(name)
    paired: set[str] = set()
    for amount in sorted(by_amount):
        if amount <= 0:
            continue
        winners, losers = by_amount[amount], by_amount.get(-amount, [])
        for winner, loser in zip(winners, losers, strict=False):
            groups.append([loser, winner])
            paired.update((winner, loser))

    rest = [name for name in names if name not in paired]
    if len(rest) > MAX_EXACT_PLAYERS:
        raise SettlementError(
            "too_many_players",
            f"{len(rest)} players with different balances are more than the exact search takes ({MAX_EXACT_PLAYERS}).",
        )
    if rest:
        groups.extend(_exact_groups(rest, [balances[name] for name in rest]))
    return groups


def _exact_groups(names: list[str], amounts: list[int]) -> list[list[str]]:
    """The most disjoint zero-sum groups of ``amounts`` (which sum to zero), exactly.

    The last player belongs to some group; every other group lies inside the first
    ``m = n - 1`` players. ``best[mask]`` is the most disjoint zero-sum groups inside
    ``mask`` (over those ``m``), found as the longest chain of zero-sum masks reached
    by removing one player at a time: ``best[mask] = max(best[mask - i]) + (sum == 0)``.
    """
    m = len(amounts) - 1
    size = 1 << m
    sums = [0] * size
    best = [0] * size
    bits = [1 << i for i in range(m)]
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
        top = 0
        for bit in bits:
            if mask & bit:
                value = best[mask ^ bit]
                if value > top:
                    top = value
        best[mask] = top + 1 if sums[mask] == 0 else top

    # Walk back down the chain, noting each zero-sum mask met; their differences are groups.
    chain: list[int] = []
    mask = size - 1
    while mask:
        is_zero = sums[mask] == 0
        if is_zero:
            chain.append(mask)
        wanted = best[mask] - (1 if is_zero else 0)
        for bit in bits:
            if mask & bit and best[mask ^ bit] == wanted:
                mask ^= bit
                break
    chain.reverse()
    groups: list[list[str]] = []
    previous = 0
    for zero_mask in chain:
        part = zero_mask & ~previous
        groups.append([names[i] for i in range(m) if part >> i & 1])
        previous = zero_mask
    last = [names[i] for i in range(m) if not previous >> i & 1] + [names[m]]
    groups.append(last)
    return groups


def _settle_group(group: dict[str, int]) -> list[Transfer]:
    """Settle one zero-sum group: the biggest loser pays the biggest winner, until all are even.

    Each payment evens at least one of the two, so a group of ``k`` takes at most ``k - 1``.
    """
    owed = dict(group)
    transfers: list[Transfer] = []
    while True:
        losers = sorted((amount, name) for name, amount in owed.items() if amount < 0)
        winners = sorted((-amount, name) for name, amount in owed.items() if amount > 0)
        if not losers:
            break
        debt, payer = losers[0]
        credit, payee = winners[0]
        amount = min(-debt, -credit)
        transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
        owed[payer] += amount
        owed[payee] -= amount
    return transfers


def greedy_transfers(balances: dict[str, int]) -> list[Transfer]:
    """The usual greedy settlement over everyone at once (for comparison in the benchmark).

    Not minimal in general: it never looks for groups that could settle among themselves.
    """
    return _settle_group({name: amount for name, amount in balances.items() if amount})


def entries_from_buy_ins(
    players: Iterable[tuple[str, int, int]], *, price: int, chips_per_buy_in: int
) -> list[PlayerEntry]:
    """Entries for a table with one buy-in: ``(name, buy_ins, chips at the end)`` each."""
    return [
        PlayerEntry(name=name, chips_bought=buy_ins * chips_per_buy_in, paid=buy_ins * price, chips_end=chips)
        for name, buy_ins, chips in players
    ]


# ---------------------------------------------------------------------------------
# The JSON contract of ``python manage.py settle`` (shared/spec/settle.md)

#: ISO 4217 currencies whose smallest unit is not a hundredth. Every other
#: three-letter code counts in cents (two decimal places).
CURRENCY_DIGITS = {
    "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
    "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
}  # fmt: skip

_CURRENCY_CODE = re.compile(r"[A-Z]{3}")
_DECIMAL_STRING = re.compile(r"[0-9]+(\.[0-9]+)?")


def currency_digits(code: object) -> int:
    """Decimal places of a currency's smallest unit; refuses anything but an ISO 4217-shaped code."""
    if not isinstance(code, str) or not _CURRENCY_CODE.fullmatch(code):
        raise SettlementError(
            "bad_currency", 'currency must be a three-letter ISO 4217 code in capitals, such as "USD" or "NPR".'
        )
    return CURRENCY_DIGITS.get(code, 2)


def parse_price(text: object, *, digits: int, field: str = "buy_in.price") -> int:
    """A price as a plain decimal string (``"10.00"``) -> minor units. No signs, symbols or exponents."""
    if not isinstance(text, str) or not _DECIMAL_STRING.fullmatch(text):
        raise SettlementError(
            "bad_price", f'{field} must be a decimal string such as "10.00" (no sign, symbol or separator).'
        )
    try:
        return to_minor_units(Decimal(text), digits=digits)
    except SettlementError as error:
        raise SettlementError("bad_price", f"{field}: {error.message}") from error


def _require(mapping: dict[str, object], key: str, where: str) -> object:
    if key not in mapping:
        raise SettlementError("missing_field", f"{where}{key} is missing.")
    return mapping[key]


def _whole_number(value: object, field: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettlementError("bad_number", f"{field} must be a whole number.")
    if value < minimum:
        if value < 0:
            raise SettlementError("negative", f"{field} cannot be negative.")
        raise SettlementError("bad_number", f"{field} must be at least {minimum}.")
    return value


def settle_document(document: object) -> dict[str, object]:
    """Settle the spec's input document and return the spec's output document.

    :raises SettlementError: for every kind of bad input (the caller prints
        ``{"ok": false, "error": ...}`` and exits with status 2).
    """
    if not isinstance(document, dict):
        raise SettlementError("bad_document", "The input must be a JSON object.")
    digits = currency_digits(_require(document, "currency", ""))
    buy_in = _require(document, "buy_in", "")
    if not isinstance(buy_in, dict):
        raise SettlementError("bad_document", 'buy_in must be an object: {"price": "10.00", "chips": 1000}.')
    price = parse_price(_require(buy_in, "price", "buy_in."), digits=digits)
    chips_per_buy_in = _whole_number(_require(buy_in, "chips", "buy_in."), "buy_in.chips", minimum=1)
    players = _require(document, "players", "")
    if not isinstance(players, list) or not players:
        raise SettlementError("bad_document", "players must be a list of at least one player.")
    rows: list[tuple[str, int, int]] = []
    for index, player in enumerate(players):
        where = f"players[{index}]."
        if not isinstance(player, dict):
            raise SettlementError("bad_document", f"players[{index}] must be an object.")
        name = _require(player, "name", where)
        if not isinstance(name, str) or not name.strip():
            raise SettlementError("bad_name", f"{where}name must be a non-empty string.")
        buy_ins = _whole_number(_require(player, "buy_ins", where), f"{where}buy_ins", minimum=0)
        chips = _whole_number(_require(player, "chips", where), f"{where}chips", minimum=0)
        rows.append((name, buy_ins, chips))
    result = settle(entries_from_buy_ins(rows, price=price, chips_per_buy_in=chips_per_buy_in))
    return {
        "ok": True,
        "chip_value": format_chip_value(Fraction(price, chips_per_buy_in), digits=digits),
        "balances": {name: format_minor_units(amount, digits=digits) for name, amount in result.balances.items()},
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": format_minor_units(t.amount, digits=digits)}
            for t in result.transfers
        ],
    }
