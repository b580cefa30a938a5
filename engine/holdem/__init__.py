"""No-limit Texas hold'em (rule book 001): ``HOLDEM`` is the game behind :class:`engine.api.Game`.

- :mod:`engine.holdem.evaluator`: the best five of seven cards.
- :mod:`engine.holdem.hand`: one hand, the state machine and its events.
- :mod:`engine.holdem.state`: a hand's state, and where its cards lie in the deck.
- :mod:`engine.holdem.showdown`: the side pots, the showdown order and the payout.
- :mod:`engine.holdem.table`: settings, the button, the blind levels (``plan_hand``).
- :mod:`engine.holdem.game`: a whole game: when it ends and the placings.
- :mod:`engine.holdem.rules`: the API object and the per-viewer view.
"""

from engine.holdem.rules import HOLDEM, HoldemRules

__all__ = ["HOLDEM", "HoldemRules"]
