"""Decks anyone can verify: HMAC-SHA256 streams and a Fisher-Yates shuffle.

The construction, specified in full in ``docs/fairness.md``:

1. A game's secret seed is 32 bytes from ``secrets`` (drawn by the caller; this
   package never draws randomness). Its commitment is ``sha256(seed).hexdigest()``.
2. A hand's key is ``HMAC-SHA256(key=seed, msg=canonical_json(["dashain-deck-v1",
   table, hand_number, player_seeds]))`` where ``canonical_json`` is JSON with no
   spaces, keys sorted and non-ASCII kept as UTF-8, and ``player_seeds`` the list of
   seeds players' browsers added, in the order the event log recorded them.
3. The key drives a stream of 64-bit numbers: block ``i`` (from 0) is
   ``HMAC-SHA256(key=hand_key, msg=i as 8 bytes big-endian)``, read as four 64-bit
   big-endian numbers in order.
4. A number below ``n`` is drawn by rejection: take the next stream number ``x``;
   if ``x >= 2**64 - (2**64 % n)`` draw again; else the number is ``x % n``.
5. Fisher-Yates: start from :data:`engine.cards.NEW_DECK` (2s 2h 2d 2c 3s ... Ac);
   for ``i`` from 51 down to 1, swap positions ``i`` and ``randbelow(i + 1)``.
   Position 0 is the top of the deck.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Sequence

from engine.cards import NEW_DECK, Card

DOMAIN = "dashain-deck-v1"
_TWO_64 = 1 << 64


def commitment(secret_seed: bytes) -> str:
    """The SHA-256 of the secret seed, shown to every player before the first deal."""
    return hashlib.sha256(secret_seed).hexdigest()


def canonical_json(value: object) -> bytes:
    """JSON with no spaces and sorted keys, as UTF-8 bytes."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def hand_key(secret_seed: bytes, table: str, hand_number: int, player_seeds: Sequence[str]) -> bytes:
    """The key of one hand's deck (step 2 of the construction)."""
    message = canonical_json([DOMAIN, str(table), int(hand_number), [str(seed) for seed in player_seeds]])
    return hmac.new(secret_seed, message, hashlib.sha256).digest()


def _stream(key: bytes) -> Iterator[int]:
    block = 0
    while True:
        digest = hmac.new(key, block.to_bytes(8, "big"), hashlib.sha256).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def shuffled_deck(key: bytes) -> list[Card]:
    """The 52 cards, top first, shuffled by Fisher-Yates from the key's stream."""
    numbers = _stream(key)
    deck = list(NEW_DECK)
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = _TWO_64 - (_TWO_64 % bound)
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def hand_deck(secret_seed: bytes, table: str, hand_number: int, player_seeds: Sequence[str] = ()) -> list[Card]:
    """The deck of one hand of a live game."""
    return shuffled_deck(hand_key(secret_seed, table, hand_number, player_seeds))


def seeded_deck(seed: int | str) -> list[Card]:
    """A deck from a plain seed, for tests, random play and benchmarks."""
    return shuffled_deck(hashlib.sha256(f"dashain-test|{seed}".encode()).digest())
