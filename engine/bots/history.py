"""What a computer player remembers of a game: how loosely each opponent has played so far.

A :class:`History` is a value built only from events a person in the computer's seat
may see (the page's own event stream): :meth:`History.observe` takes one event in its
JSON form (``{"kind": ..., **data}``) and returns the history after it. Nothing here
ever sees a card that was not shown to the seat, because no such event reaches it.

What is counted, per opponent name (book 001's tip: "how loosely each player has
played so far"; the issue's measures):

- hold'em: hands dealt in; hands where they put chips in voluntarily before the flop
  (a call, bet or raise: blinds do not count); hands where they raised before the flop;
  bets and raises, and calls, after the flop; bets after the flop they faced, and folded to.
- Teen Patti: hands dealt in; hands where they decided after seeing their cards (a pack
  made short of a seen chaal is no decision); of those, hands where they bet again after
  seeing (stayed in seen); bets, and raises among them, with the blind ones counted
  apart; hands in which they bet blind, and of those the ones in which they then chose to
  look (a look the rules forced is not counted); shows and sideshows asked; the place
  among all hands of each hand they turned up at a show after betting seen.
- hold'em, also: hands turned up at an all-in before the board was complete are read
  once the board is out.

Each counter moves at most once per hand where it says "hands". The estimates
(:meth:`PlayerRecord.vpip` and the rest) start from a prior, an ordinary player, so a
few hands move them only a little.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.api import Event
from engine.bots.holdem_odds import made_hand
from engine.bots.teenpatti_odds import hand_place
from engine.cards import parse_card

PREFLOP = "preflop"

# Priors: what an ordinary home player looks like before any hand is seen, as if
# ``_PRIOR_HANDS`` hands had already been watched at these rates.
_PRIOR_HANDS = 6.0
_PRIOR_VPIP = 0.35
_PRIOR_PFR = 0.15
_PRIOR_STAY_SEEN = 0.7
_PRIOR_RAISE_SHARE = 0.15
_PRIOR_AGGRESSION = 0.4
_PRIOR_FOLD_TO_BET = 0.35
_PRIOR_FOLD_TO_RAISE = 0.5
_PRIOR_OPEN = 0.25
_PRIOR_LOOK = 0.8
_PRIOR_SHOWN = 4.0  # hold'em: a bluff share counts a guess as this many hands turned up


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """The counts for one opponent."""

    hands: int = 0
    voluntary: int = 0  # hold'em: hands with a voluntary call, bet or raise before the flop
    preflop_raises: int = 0  # hold'em: hands with a raise before the flop
    postflop_aggressive: int = 0  # hold'em: bets and raises after the flop
    postflop_passive: int = 0  # hold'em: calls after the flop
    faced_bets: int = 0  # hold'em: turns after the flop facing a bet
    folded_to_bets: int = 0  # hold'em: of those, how many they folded
    shown_bets: int = 0  # hold'em: hands they bet or raised after the flop and turned up at the showdown
    shown_bluffs: int = 0  # hold'em: of those, hands without a pair using one of their own cards
    open_chances: int = 0  # hold'em: hands where they acted before the flop with nobody raised yet
    opens: int = 0  # hold'em: of those, hands where they made that first raise
    faced_raises: int = 0  # hold'em: hands where they acted before the flop facing someone's raise
    folded_to_raises: int = 0  # hold'em: of those, hands where they folded to it
    saw: int = 0  # Teen Patti: hands in which they saw their cards
    stayed_seen: int = 0  # Teen Patti: of those, hands where they bet again once seen
    bets: int = 0  # Teen Patti: chaals and raises
    raises: int = 0  # Teen Patti: raises
    shown: int = 0  # Teen Patti: hands turned up at a show after betting seen
    shown_places: float = 0.0  # Teen Patti: the sum of those hands' places among all hands
    raised_shown: int = 0  # Teen Patti: of those, hands in which they had raised seen
    raised_shown_places: float = 0.0  # Teen Patti: the sum of those hands' places
    blind_bets: int = 0  # Teen Patti: chaals and raises made blind (of ``bets``)
    blind_raises: int = 0  # Teen Patti: raises made blind (of ``raises``)
    blind_hands: int = 0  # Teen Patti: hands in which they made a blind bet
    looked_after_blind: int = 0  # Teen Patti: of those, hands in which they then looked
    shows_asked: int = 0  # Teen Patti: shows they asked for
    sideshows_asked: int = 0  # Teen Patti: sideshows they asked for

    def vpip(self) -> float:
        """Share of hands with chips put in voluntarily before the flop (hold'em)."""
        return (self.voluntary + _PRIOR_VPIP * _PRIOR_HANDS) / (self.hands + _PRIOR_HANDS)

    def pfr(self) -> float:
        """Share of hands raised before the flop (hold'em)."""
        return (self.preflop_raises + _PRIOR_PFR * _PRIOR_HANDS) / (self.hands + _PRIOR_HANDS)

    def aggression(self) -> float:
        """Share of bets and raises among their bets, raises and calls after the flop (hold'em)."""
        total = self.postflop_aggressive + self.postflop_passive
        return (self.postflop_aggressive + _PRIOR_AGGRESSION * _PRIOR_HANDS) / (total + _PRIOR_HANDS)

    def fold_to_bet(self) -> float:
        """Share of bets after the flop they folded to (hold'em)."""
        return (self.folded_to_bets + _PRIOR_FOLD_TO_BET * _PRIOR_HANDS) / (self.faced_bets + _PRIOR_HANDS)

    def open_share(self) -> float:
        """Share of chances to make the first raise before the flop that they took (hold'em):
        the range they open with, wider than their share of all hands raised (the button
        heads-up opens far more often than the big blind raises)."""
        return (self.opens + _PRIOR_OPEN * _PRIOR_HANDS) / (self.open_chances + _PRIOR_HANDS)

    def fold_to_raise(self) -> float:
        """Share of hands they folded before the flop when facing someone else's raise (hold'em)."""
        return (self.folded_to_raises + _PRIOR_FOLD_TO_RAISE * _PRIOR_HANDS) / (self.faced_raises + _PRIOR_HANDS)

    def bluff_share(self, prior: float) -> float:
        """Share of their bets after the flop made without a hand, by the hands they turned up
        after betting (hold'em); ``prior`` stands for what is guessed before any is seen."""
        return (self.shown_bluffs + prior * _PRIOR_SHOWN) / (self.shown_bets + _PRIOR_SHOWN)

    def stay_seen(self) -> float:
        """Share of seen hands in which they bet again after looking (Teen Patti)."""
        return (self.stayed_seen + _PRIOR_STAY_SEEN * _PRIOR_HANDS) / (self.saw + _PRIOR_HANDS)

    def raise_share(self) -> float:
        """Share of their *seen* bets that were raises (Teen Patti): raises made blind say
        nothing of their cards and are not counted here (see :meth:`blind_raise_share`)."""
        seen_bets = self.bets - self.blind_bets
        seen_raises = self.raises - self.blind_raises
        return (seen_raises + _PRIOR_RAISE_SHARE * _PRIOR_HANDS) / (seen_bets + _PRIOR_HANDS)

    def blind_raise_share(self) -> float:
        """Share of their blind bets that were raises (Teen Patti)."""
        return (self.blind_raises + _PRIOR_RAISE_SHARE * _PRIOR_HANDS) / (self.blind_bets + _PRIOR_HANDS)

    def look_share(self) -> float:
        """Share of the hands they bet blind in which they then looked (Teen Patti): near 0
        for a player who never looks."""
        return (self.looked_after_blind + _PRIOR_LOOK * _PRIOR_HANDS) / (self.blind_hands + _PRIOR_HANDS)


_NOBODY = PlayerRecord()


@dataclass(frozen=True, slots=True)
class History:
    """Everything a seat has watched this game, as counts per player.

    ``street`` and the ``this_hand_*`` fields follow the hand in play so that a counter
    moves once per hand.
    """

    players: Mapping[str, PlayerRecord] = field(default_factory=dict)
    street: str = PREFLOP
    this_hand_voluntary: tuple[str, ...] = ()
    this_hand_raised: tuple[str, ...] = ()  # hold'em: raised before the flop; Teen Patti: raised seen
    this_hand_seen: tuple[str, ...] = ()
    this_hand_stayed: tuple[str, ...] = ()
    this_hand_blind: tuple[str, ...] = ()  # Teen Patti: made a blind bet this hand
    this_hand_blind_bets: tuple[str, ...] = ()  # Teen Patti: one name per blind bet this hand
    this_hand_blind_raised: tuple[str, ...] = ()  # Teen Patti: raised blind this hand
    stacks: tuple[tuple[str, int], ...] = ()  # Teen Patti: each player's chips behind, as last seen
    stake: int = 0  # Teen Patti: the stake now
    blind_turns: int | None = None  # Teen Patti: the table's blind-turn limit
    this_hand_aggressive: tuple[str, ...] = ()  # hold'em: bet or raised after the flop this hand
    this_hand_faced_raise: tuple[str, ...] = ()  # hold'em: acted before the flop facing another's raise
    this_hand_open_chance: tuple[str, ...] = ()  # hold'em: acted before the flop with nobody raised yet
    ranking: tuple[str, ...] | None = None  # Teen Patti: ranking, best run, variant (and turned card)
    bet_open: bool = False  # hold'em: someone has bet in this betting round after the flop
    board: tuple[str, ...] = ()  # hold'em: the shared cards dealt so far this hand
    pending_shows: tuple[tuple[str, tuple[str, ...]], ...] = ()  # hold'em: turned up before the board was out

    def record(self, name: str) -> PlayerRecord:
        """The counts for ``name`` (an empty record for someone never seen)."""
        return self.players.get(name, _NOBODY)

    def _with(self, name: str, **changes: int) -> dict[str, PlayerRecord]:
        players = dict(self.players)
        record = players.get(name, _NOBODY)
        players[name] = replace(record, **{key: getattr(record, key) + step for key, step in changes.items()})
        return players

    def observe(self, event: Mapping[str, Any]) -> History:
        """The history after one event (its JSON form: ``{"kind": ..., **data}``)."""
        kind = event.get("kind")
        if kind == "hand_started":
            players = dict(self.players)
            for entry in event.get("players", ()):
                if not isinstance(entry, Mapping) or "name" not in entry:
                    continue
                name = str(entry["name"])
                record = players.get(name, _NOBODY)
                players[name] = replace(record, hands=record.hands + 1)
            settings = event.get("settings")
            ranking = None
            blind_turns = None
            stake = 0
            if isinstance(settings, Mapping) and "ranking" in settings:
                ranking = (
                    str(settings["ranking"]),
                    str(settings.get("best_run", "AKQ")),
                    str(settings.get("variant", "none")),
                )
                limit = settings.get("blind_turns")
                blind_turns = int(limit) if isinstance(limit, int) else None
                boot = settings.get("boot")
                stake = int(boot) if isinstance(boot, int) else 0
            stacks = tuple(
                (str(entry["name"]), int(entry.get("stack", 0)))
                for entry in event.get("players", ())
                if isinstance(entry, Mapping) and "name" in entry
            )
            return History(players=players, ranking=ranking, stacks=stacks, stake=stake, blind_turns=blind_turns)
        if kind == "joker" and self.ranking is not None:  # the Joker variant's turned card
            return replace(self, ranking=(*self.ranking[:3], str(event.get("card", ""))))
        if kind == "boot":
            amount = event.get("amount")
            if isinstance(amount, int):
                paid = set(event.get("players", ()))
                return replace(
                    self, stacks=tuple((name, stack - amount if name in paid else stack) for name, stack in self.stacks)
                )
            return self
        if kind == "showdown":
            return self._teenpatti_showdown(event)
        if kind == "board":
            cards = tuple(str(card) for card in event.get("cards", ()))
            out = replace(self, street=str(event.get("street", "")), bet_open=False, board=self.board + cards)
            if len(out.board) >= 5 and out.pending_shows:
                # Hands turned up at an all-in before the board was complete: read them now.
                pending, out = out.pending_shows, replace(out, pending_shows=())
                for shower, shown in pending:
                    out = out._holdem_show({"player": shower, "cards": list(shown)})
            return out
        if kind == "show" and "cards" in event:
            return self._holdem_show(event)
        player = event.get("player")
        if not isinstance(player, str):
            return self
        if kind == "action":
            return self._holdem_action(player, str(event.get("verb", "")))
        if kind == "see":
            if player in self.this_hand_seen:
                return self
            # A look the rules forced (blind turns used up, or too short for a blind chaal)
            # is no choice, and not counted.
            forced = self._stack_of(player) < self.stake or (
                self.blind_turns is not None and self.this_hand_blind_bets.count(player) >= self.blind_turns
            )
            looked = 1 if player in self.this_hand_blind and not forced else 0
            return replace(
                self,
                players=self._with(player, looked_after_blind=looked),
                this_hand_seen=(*self.this_hand_seen, player),
            )
        if kind == "pack" and event.get("reason", "pack") == "pack":
            # A seen player's decision after looking: counted once they decide, so a look the
            # hand ended before they could act on is no evidence either way.
            # A pack by one who cannot cover a seen chaal is no choice either.
            short = self._stack_of(player) < 2 * self.stake
            if player in self.this_hand_seen and player not in self.this_hand_stayed and not short:
                return replace(self, players=self._with(player, saw=1))
            return self
        if kind in ("chaal", "raise", "show", "sideshow"):
            # A seen player's chaal and raise say "seen" by ``blind``; a show or sideshow by
            # a player who looked this hand is seen too.
            blind = bool(event.get("blind", False)) and player not in self.this_hand_seen
            out = self._teenpatti_bet(player, kind, blind)
            new_stack, new_stake = event.get("stack"), event.get("stake")
            if isinstance(new_stack, int):
                out = replace(out, stacks=tuple((n, new_stack if n == player else s) for n, s in out.stacks))
            if isinstance(new_stake, int):
                out = replace(out, stake=new_stake)
            if blind:
                out = replace(out, this_hand_blind_bets=(*out.this_hand_blind_bets, player))
                if kind == "raise" and player not in out.this_hand_blind_raised:
                    out = replace(out, this_hand_blind_raised=(*out.this_hand_blind_raised, player))
            return out
        return self

    def _stack_of(self, name: str) -> int:
        for player, stack in self.stacks:
            if player == name:
                return stack
        return 1 << 62  # not known: not short

    def _holdem_action(self, player: str, verb: str) -> History:
        if self.street == PREFLOP and not self.this_hand_raised and player not in self.this_hand_open_chance:
            opened = 1 if verb in ("bet", "raise") else 0
            out = replace(
                self,
                players=self._with(player, open_chances=1, opens=opened),
                this_hand_open_chance=(*self.this_hand_open_chance, player),
            )
            return out._holdem_action_facing(player, verb)
        return self._holdem_action_facing(player, verb)

    def _holdem_action_facing(self, player: str, verb: str) -> History:
        if (
            self.street == PREFLOP
            and verb in ("fold", "call", "raise", "allin")
            and any(name != player for name in self.this_hand_raised)
            and player not in self.this_hand_faced_raise
        ):
            folded = 1 if verb == "fold" else 0
            out = replace(
                self,
                players=self._with(player, faced_raises=1, folded_to_raises=folded),
                this_hand_faced_raise=(*self.this_hand_faced_raise, player),
            )
            return out._holdem_action_after_raise(player, verb)
        return self._holdem_action_after_raise(player, verb)

    def _holdem_action_after_raise(self, player: str, verb: str) -> History:
        if self.street != PREFLOP and self.bet_open and verb in ("fold", "call", "raise"):
            folded = 1 if verb == "fold" else 0
            out = replace(self, players=self._with(player, faced_bets=1, folded_to_bets=folded))
            if verb == "fold":
                return out
            return out._holdem_action_counted(player, verb)
        return self._holdem_action_counted(player, verb)

    def _holdem_action_counted(self, player: str, verb: str) -> History:
        if verb not in ("call", "bet", "raise"):
            return self
        if self.street != PREFLOP:
            if verb == "call":
                return replace(self, players=self._with(player, postflop_passive=1))
            aggressive = self.this_hand_aggressive
            if player not in aggressive:
                aggressive = (*aggressive, player)
            return replace(
                self,
                players=self._with(player, postflop_aggressive=1),
                this_hand_aggressive=aggressive,
                bet_open=True,
            )
        out = self
        if player not in out.this_hand_voluntary:
            out = replace(
                out, players=out._with(player, voluntary=1), this_hand_voluntary=(*out.this_hand_voluntary, player)
            )
        if verb != "call" and player not in out.this_hand_raised:
            out = replace(
                out, players=out._with(player, preflop_raises=1), this_hand_raised=(*out.this_hand_raised, player)
            )
        return out

    def _holdem_show(self, event: Mapping[str, Any]) -> History:
        """A hand turned up at a hold'em showdown: if they bet after the flop, was it a bluff?"""
        player = event.get("player")
        cards = event.get("cards")
        if not isinstance(player, str) or player not in self.this_hand_aggressive:
            return self
        if not isinstance(cards, list | tuple) or len(cards) != 2:
            return self
        if len(self.board) < 5:
            shown = (str(cards[0]), str(cards[1]))
            return replace(self, pending_shows=(*self.pending_shows, (player, shown)))
        try:
            hole = (parse_card(str(cards[0])), parse_card(str(cards[1])))
            board = tuple(parse_card(card) for card in self.board)
        except ValueError:
            return self
        bluff = 0 if made_hand(hole, board) else 1
        return replace(self, players=self._with(player, shown_bets=1, shown_bluffs=bluff))

    def _teenpatti_bet(self, player: str, kind: str, blind: bool) -> History:
        changes = {"bets": 1, "raises": 1} if kind == "raise" else {"bets": 1}
        if blind:
            changes["blind_bets"] = 1
            if kind == "raise":
                changes["blind_raises"] = 1
        if kind == "show":
            changes["shows_asked"] = 1
        if kind == "sideshow":
            changes["sideshows_asked"] = 1
        out = replace(self, players=self._with(player, **changes))
        if blind and player not in out.this_hand_blind:
            out = replace(out, players=out._with(player, blind_hands=1), this_hand_blind=(*out.this_hand_blind, player))
        if kind == "raise" and not blind and player not in out.this_hand_raised:
            out = replace(out, this_hand_raised=(*out.this_hand_raised, player))
        if not blind and player in out.this_hand_seen and player not in out.this_hand_stayed:
            out = replace(
                out,
                players=out._with(player, saw=1, stayed_seen=1),
                this_hand_stayed=(*out.this_hand_stayed, player),
            )
        return out

    def _teenpatti_showdown(self, event: Mapping[str, Any]) -> History:
        cards = event.get("cards")
        if self.ranking is None or not isinstance(cards, Mapping):
            return self
        # Under a variant a shown hand is placed as the variant ranks it (its jokers, with the
        # turned card the Joker variant showed everyone; the best three of four; Muflis low first).
        settings = {
            "ranking": self.ranking[0],
            "best_run": self.ranking[1],
            "variant": self.ranking[2] if len(self.ranking) > 2 else "none",
            "joker": self.ranking[3] if len(self.ranking) > 3 else None,
        }
        players = dict(self.players)
        for name, shown in cards.items():
            if name not in self.this_hand_stayed:
                continue  # turned up at the pot limit while blind, or never bet seen: no read
            record = players.get(name, _NOBODY)
            place = hand_place(shown, settings)
            record = replace(record, shown=record.shown + 1, shown_places=record.shown_places + place)
            if name in self.this_hand_raised:
                record = replace(
                    record,
                    raised_shown=record.raised_shown + 1,
                    raised_shown_places=record.raised_shown_places + place,
                )
            players[name] = record
        return replace(self, players=players)

    def observe_all(self, events: Iterable[Mapping[str, Any]]) -> History:
        """The history after several events, in order."""
        out = self
        for event in events:
            out = out.observe(event)
        return out

    def observe_engine_events(self, events: Iterable[Event], viewer: str) -> History:
        """The history after the engine's events that ``viewer`` may see (the others are skipped,
        as the page never gets their data)."""
        return self.observe_all(event.to_json() for event in events if event.visible(viewer))
