"""Computer players for every game, in three strengths: easy, normal and hard.

A computer player sees exactly what a person in its seat sees, nothing more:

- the seat's view, ``game.view(state, seat)``, the same dict the page gets;
- a :class:`History` it may build from the events that seat may see
  (``History().observe(event_json)``, or :meth:`History.observe_engine_events` with the
  engine's events and the seat's name). Hard players use it to model opponents.

:func:`choose_action` never gets the state, so it cannot read a card the seat has not
been shown. It is pure and seeded: the same view, history, strength and random
generator state give the same action. The caller owns the :class:`random.Random` and
passes it in; nothing here touches the global random state.

Strengths (issue 15; each game's module says how it plays them):

- ``easy``: plays many hands and rarely raises, a loose, passive friend;
- ``normal``: plays by the strength of its cards and the price;
- ``hard``: normal plus a model of how loosely each opponent has played so far.

The modules: :mod:`engine.bots.teenpatti` (Faras, Classic and 999; what it reads of the table:
:mod:`engine.bots.teenpatti_table`),
:mod:`engine.bots.holdem` and :mod:`engine.bots.holdem_odds` (starting hands, ranges,
equity by simulation with the engine's evaluator), :mod:`engine.bots.history`.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import Action
from engine.bots import holdem, teenpatti
from engine.bots.history import History, PlayerRecord

__all__ = [
    "STRENGTHS",
    "BotError",
    "DecisionStream",
    "History",
    "PlayerRecord",
    "choose_action",
    "choose_variant",
    "decision_stream",
    "wants_to_act",
]

STRENGTHS = ("easy", "normal", "hard")


class BotError(ValueError):
    """A computer player was asked to act where it cannot (``code`` is stable)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


DecisionStream = random.Random  # what ``choose_action`` draws its random choices from


def decision_stream(secret: bytes, label: str) -> DecisionStream:
    """A computer's own stream of random choices, seeded by HMAC-SHA256 of ``label`` (what the
    choice is for: the hand, the turn, the seat) under ``secret`` (the table's): unpredictable
    to players who do not hold the secret, the same after a restart."""
    return random.Random(hmac.new(secret, label.encode(), hashlib.sha256).digest())


def wants_to_act(view: Mapping[str, Any], player: str) -> bool:
    """Whether ``player`` has a decision to make in ``view``: it is their turn, or (Teen
    Patti) they are asked to accept or refuse a sideshow. Looking at one's cards outside
    one's turn is never needed: a computer looks on its turn."""
    if view.get("to_act") != player:
        return False
    return any(entry.get("verb") != "see" for entry in view.get("legal", ()))


def choose_action(
    *,
    game: str,
    view: Mapping[str, Any],
    player: str,
    strength: str,
    rng: random.Random,
    history: History | None = None,
) -> Action:
    """The action a computer of ``strength`` takes as ``player`` in ``view``.

    ``view`` must be ``player``'s own view (``game.view(state, player)``). In Teen Patti
    the action may be ``see``, which does not use the turn: apply it and ask again with
    the new view. Raises :class:`BotError` when ``player`` has nothing to decide.
    """
    if strength not in STRENGTHS:
        raise BotError("unknown_strength", f"A computer plays easy, normal or hard, not {strength!r}.")
    if not wants_to_act(view, player):
        raise BotError("not_your_turn", f"{player} has nothing to decide now.")
    if game == "holdem":
        return holdem.choose(view=view, player=player, strength=strength, rng=rng, history=history)
    if game in ("faras", "classic", "999"):
        return teenpatti.choose(view=view, player=player, strength=strength, rng=rng, history=history)
    raise BotError("unknown_game", f"There is no computer player for {game!r}.")


def choose_variant(*, allowed: Sequence[str], rng: random.Random) -> str:
    """The variant a computer calls when it deals at dealer's choice: one of ``allowed`` (the
    host's list, in its order), drawn evenly from ``rng``, at every strength. A variant is a
    game everyone at the table plays alike; the computer's strength shows in how it plays
    the hand, not in which game it names. Pure and seeded, as :func:`choose_action` is."""
    choices = sorted(set(allowed), key=list(allowed).index)
    if not choices:
        raise BotError("no_variants", "There is no variant to call: the host allows none.")
    return choices[rng.randrange(len(choices))]
