"""The words of a hand's replay: each event of the log as one sentence, as one viewer may read
it (``describe_event``), who acted for whom (``acted_for_words``), and a shown hand's name
(``hand_label``, ``holdem_label``).

Used by the replay (``tables.history.hand_replay_steps``); reads nothing but what it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.events import EventKind


def player_name(names: Mapping[str, str], engine_name: object) -> str:
    """The display name of the player the engine calls ``engine_name`` (a seat id), else the id."""
    return names.get(str(engine_name), str(engine_name))


_VERBS = {
    "see": gettext_noop("%(player)s looks at their cards."),
    "chaal": gettext_noop("%(player)s plays chaal."),
    "pack": gettext_noop("%(player)s packs."),
    "show": gettext_noop("%(player)s asks for a show."),
    "sideshow": gettext_noop("%(player)s asks for a sideshow."),
    "accept": gettext_noop("%(player)s accepts the sideshow."),
    "refuse": gettext_noop("%(player)s refuses the sideshow."),
    "fold": gettext_noop("%(player)s folds."),
    "check": gettext_noop("%(player)s checks."),
    "call": gettext_noop("%(player)s calls."),
    "allin": gettext_noop("%(player)s goes all in."),
}
_VARIANT_NAMES = {
    "none": gettext_noop("None: the usual cards and ranking"),
    "muflis": gettext_noop("Muflis: the lowest hand wins"),
    "ak47": gettext_noop("AK47: every ace, king, four and seven is a joker"),
    "joker": gettext_noop("Joker: a card turned up after the deal makes its rank jokers"),
    "four_card": gettext_noop("Four-card: four cards each, the best three play"),
}
_VERBS_WITH_AMOUNT = {
    "raise": gettext_noop("%(player)s raises to %(amount)s."),
    "bet": gettext_noop("%(player)s bets %(amount)s."),
    "chaal": gettext_noop("%(player)s plays chaal for %(amount)s."),
}


def acted_for_words(data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """ "Asha acted for Bikash:" when the host made a recorded action for its player ('' when the
    player acted, or the clock or the away rule did). A log written before the host's seat was
    recorded (no ``by_seat``) says "The host"."""
    if data.get("by") != "host":
        return ""
    player = player_name(names, data.get("player", ""))
    if data.get("by_seat") is None:
        return _("The host acted for %(player)s:") % {"player": player}
    return _("%(host)s acted for %(player)s:") % {"host": player_name(names, data["by_seat"]), "player": player}


def _cards_text(cards: object) -> str:
    if isinstance(cards, list | tuple):
        return " ".join(str(card) for card in cards)
    return str(cards)


_RANK_NAMES = {
    # rank character: (one, several), for "Ace high" and "Pair of aces"
    "A": (gettext_noop("Ace"), gettext_noop("aces")),
    "K": (gettext_noop("King"), gettext_noop("kings")),
    "Q": (gettext_noop("Queen"), gettext_noop("queens")),
    "J": (gettext_noop("Jack"), gettext_noop("jacks")),
    "T": (gettext_noop("Ten"), gettext_noop("tens")),
    "9": (gettext_noop("Nine"), gettext_noop("nines")),
    "8": (gettext_noop("Eight"), gettext_noop("eights")),
    "7": (gettext_noop("Seven"), gettext_noop("sevens")),
    "6": (gettext_noop("Six"), gettext_noop("sixes")),
    "5": (gettext_noop("Five"), gettext_noop("fives")),
    "4": (gettext_noop("Four"), gettext_noop("fours")),
    "3": (gettext_noop("Three"), gettext_noop("threes")),
    "2": (gettext_noop("Two"), gettext_noop("twos")),
}
_RANK_ORDER = "23456789TJQKA"


def _rank(card: str) -> str:
    """The rank character of a card in the spec's notation ("Kh", "Td" or "10d" -> "K", "T")."""
    rank = str(card)[:-1].upper()
    return "T" if rank == "10" else rank


def _one(rank: str) -> str:
    return _(_RANK_NAMES[rank][0]) if rank in _RANK_NAMES else rank


def _several(rank: str) -> str:
    return _(_RANK_NAMES[rank][1]) if rank in _RANK_NAMES else rank


def _ranks_by_count(cards: Any) -> list[str]:
    """The ranks of ``cards``, the most frequent first, then the highest."""
    ranks = [_rank(card) for card in cards if _rank(card) in _RANK_ORDER]
    return sorted(set(ranks), key=lambda rank: (-ranks.count(rank), -_RANK_ORDER.index(rank)))


def hand_label(label: Any, cards: Any = ()) -> str:
    """What a shown hand is, for people: "Number 910", "Pair of kings", "Ace high".

    ``label`` is the engine's (Teen Patti's ``ranking.hand_label``, hold'em's
    ``{category, cards}``); the ranks come from the cards (the label's five in hold'em).
    """
    if not isinstance(label, Mapping):
        return "" if label is None else str(label)
    category = str(label.get("category", ""))
    if category == "digits":
        return _("Number %(value)s") % {"value": label.get("value")}
    ranks = _ranks_by_count(label.get("cards") or cards or ())
    top = ranks[0] if ranks else ""
    second = ranks[1] if len(ranks) > 1 else ""
    if not top:
        return category.replace("_", " ").capitalize()
    sentences = {
        "trail": _("Trail of %(several)s"),
        "pair": _("Pair of %(several)s"),
        "two_pair": _("Two pair, %(several)s and %(second)s"),
        "three_of_a_kind": _("Three %(several)s"),
        "four_of_a_kind": _("Four %(several)s"),
        "full_house": _("Full house, %(several)s over %(second)s"),
        "pure_sequence": _("Pure sequence"),
        "sequence": _("Sequence"),
        "straight": _("Straight, %(one)s high"),
        "straight_flush": _("Straight flush, %(one)s high"),
        "colour": _("Colour, %(one)s high"),
        "flush": _("Flush, %(one)s high"),
        "high_card": _("%(one_capital)s high"),
    }
    if category in ("straight", "straight_flush") and label.get("cards"):
        top = _rank(label["cards"][0])  # the evaluator lists a run best first (5-high: the five)
    template = sentences.get(category)
    if template is None:
        return category.replace("_", " ").capitalize()
    return template % {
        "several": _several(top),
        "second": _several(second),
        "one": _one(top).lower(),
        "one_capital": _one(top),
    }


def holdem_label(cards: Any, board: list[str]) -> str:
    """The best five of a shown hold'em hand and the board, named ("" before a full board)."""
    from engine.cards import CardError, cards_text, parse_cards
    from engine.holdem.evaluator import best_hand

    if len(board) < 3:
        return ""
    try:
        best = best_hand(parse_cards([*cards, *board]))
    except (CardError, ValueError, KeyError):
        return ""
    return hand_label({"category": best.category, "cards": cards_text(best.cards)})


def _shown(names: Mapping[str, str], cards: Mapping[str, Any], hands: Mapping[str, Any]) -> str:
    """ "Asha Kh Kd 3s (Pair of kings); Bikash ..." for the hands a show or sideshow turned up."""
    parts = []
    for who, hand in cards.items():
        label = hand_label(hands.get(who), hand)
        text = f"{player_name(names, who)} {_cards_text(hand)}"
        parts.append(f"{text} ({label})" if label else text)
    return "; ".join(parts)


def describe_event(
    kind: str,
    data: Mapping[str, Any],
    names: Mapping[str, str],
    viewer: str | None,
    *,
    engine: bool = False,
    board: list[str] | None = None,
) -> str:
    """One sentence for an event of the log, in the viewer's language ('' to say nothing).

    ``engine`` marks the engine's own events; a player's recorded request is an ``EventKind.ACTION``
    without it. ``board`` (hold'em) is the community cards so far, to name a shown hand."""
    player = player_name(names, data.get("player", ""))
    teen_patti = _describe_teen_patti_action(kind, data, names, player) if engine else ""
    if teen_patti:
        return teen_patti
    if kind == EventKind.ACTION and engine:
        return _describe_holdem_action(player, data)
    if kind == EventKind.ACTION:
        verb = str(data.get("verb", ""))
        amount = data.get("amount")
        if amount is not None and verb in _VERBS_WITH_AMOUNT:
            return _(_VERBS_WITH_AMOUNT[verb]) % {"player": player, "amount": amount}
        if verb in _VERBS:
            return _(_VERBS[verb]) % {"player": player}
        return _("%(player)s: %(verb)s.") % {"player": player, "verb": verb}
    if kind == EventKind.HAND_STARTED:
        if "number" in data:
            sentence = _("Hand %(number)s: %(dealer)s deals.") % {
                "number": data["number"],
                "dealer": player_name(names, data.get("dealer", "")),
            }
            settings = data.get("settings")
            variant = settings.get("variant") if isinstance(settings, Mapping) else None
            if data.get("variant_called"):  # dealer's choice: the dealer called it
                name = (
                    _(_VARIANT_NAMES[variant]) if variant in _VARIANT_NAMES else _("None: the usual cards and ranking")
                )
                sentence += " " + _("The dealer calls: %(variant)s.") % {"variant": name}
            elif variant in _VARIANT_NAMES and variant != "none":  # a Teen Patti variant (docs/rules.md, "Variants")
                sentence += " " + _(_VARIANT_NAMES[variant]) + "."
            return sentence
        return ""  # the engine's own start event repeats the table's
    if kind == EventKind.VARIANT_CALLED:
        variant = data.get("variant")
        name = _(_VARIANT_NAMES.get(str(variant), _VARIANT_NAMES["none"]))
        return _("%(player)s calls the next hand: %(variant)s.") % {
            "player": player_name(names, data.get("seat", "")),
            "variant": name,
        }
    if kind == EventKind.BOOT:
        return _("Everyone puts in the boot of %(amount)s; the pot is %(pot)s.") % {
            "amount": data.get("amount"),
            "pot": data.get("pot"),
        }
    if kind == EventKind.DEALT:
        return _("The cards are dealt, %(count)s each.") % {"count": data.get("cards_each", "")}
    if kind == EventKind.JOKER:
        return _("The card turned up is %(card)s: every card of its rank is a joker this hand.") % {
            "card": data.get("card", "")
        }
    if kind in (EventKind.CARDS, EventKind.HOLE_CARDS):
        cards = _cards_text(data.get("cards", ""))
        label = hand_label(data.get("hand"), data.get("cards") or ())
        if label:
            cards = f"{cards} ({label})"
        if str(data.get("player", "")) == viewer:
            return _("Your cards: %(cards)s.") % {"cards": cards}
        return _("%(player)s's cards: %(cards)s.") % {"player": player, "cards": cards}
    if kind == EventKind.SIDESHOW_RESULT:
        shown = _shown(names, data.get("cards") or {}, data.get("hands") or {})
        return _("Sideshow, the two hands: %(shown)s.") % {"shown": shown}
    if kind == EventKind.SHOWDOWN:
        shown = _shown(names, data.get("cards") or {}, data.get("hands") or {})
        return _("Show: %(shown)s.") % {"shown": shown}
    if kind in (EventKind.HAND_FINISHED, EventKind.HAND_ENDED):
        if kind == EventKind.HAND_FINISHED:
            return ""  # the table's hand_ended says it once
        pots = data.get("pots") or []
        parts = []
        for pot in pots:
            winners = ", ".join(player_name(names, winner) for winner in pot.get("winners", []))
            parts.append(_("%(winners)s wins %(amount)s") % {"winners": winners, "amount": pot.get("amount")})
        return "; ".join(parts) + "." if parts else _("The hand is over.")
    if kind == EventKind.HAND_VOID:
        return _("The hand was called off when the game ended; every bet went back.")
    if kind == EventKind.BLIND:
        values = {"player": player, "amount": data.get("amount")}
        if data.get("blind") == "small":
            return _("%(player)s posts the small blind of %(amount)s.") % values
        return _("%(player)s posts the big blind of %(amount)s.") % values
    if kind == EventKind.BOARD:
        streets = {"flop": _("The flop"), "turn": _("The turn"), "river": _("The river")}
        return _("%(street)s: %(cards)s (board %(board)s).") % {
            "street": streets.get(str(data.get("street")), _("The board")),
            "cards": _cards_text(data.get("cards", "")),
            "board": _cards_text(data.get("board", "")),
        }
    if kind == EventKind.SHOW and "cards" in data:
        label = holdem_label(data["cards"], board or [])
        cards = _cards_text(data["cards"]) + (f" ({label})" if label else "")
        return _("%(player)s shows %(cards)s.") % {"player": player, "cards": cards}
    if kind == EventKind.MUCK:
        return _("%(player)s does not show.") % {"player": player}
    if kind == EventKind.UNCALLED:
        return _("%(amount)s uncalled goes back to %(player)s.") % {"player": player, "amount": data.get("amount")}
    if kind == EventKind.POT_AWARDED:
        return ""  # said by the hand's end
    details = ", ".join(
        f"{key}={player_name(names, value) if isinstance(value, str) else value}" for key, value in data.items()
    )
    # An event this page has no sentence for yet: its name and data, rather than silence.
    label = kind.replace("_", " ")
    return _("%(event)s: %(details)s") % {"event": label, "details": details} if details else label


def _describe_teen_patti_action(kind: str, data: Mapping[str, Any], names: Mapping[str, str], player: str) -> str:
    """The engine's Teen Patti account of an action: what it cost, whom it asked, what followed."""
    values = {
        "player": player,
        "amount": data.get("amount"),
        "stake": data.get("stake"),
        "partner": player_name(names, data.get("partner", "")),
        "asker": player_name(names, data.get("asker", "")),
        "against": player_name(names, data.get("against", "")),
    }
    blind = bool(data.get("blind"))
    if kind == EventKind.SEE:
        return _("%(player)s looks at their cards.") % values
    if kind == EventKind.CHAAL:
        if blind:
            return _("%(player)s plays blind for %(amount)s.") % values
        return _("%(player)s plays chaal for %(amount)s.") % values
    if kind == EventKind.RAISE:
        if blind:
            return _("%(player)s plays blind for %(amount)s, raising the stake to %(stake)s.") % values
        return _("%(player)s plays chaal for %(amount)s, raising the stake to %(stake)s.") % values
    if kind == EventKind.PACK:
        if data.get("reason") == "sideshow":
            return _("%(player)s packs after the sideshow.") % values
        return _("%(player)s packs.") % values
    if kind == EventKind.SIDESHOW:
        return _("%(player)s pays %(amount)s and asks %(partner)s for a sideshow.") % values
    if kind == EventKind.SIDESHOW_ACCEPTED:
        return _("%(player)s accepts %(asker)s's sideshow.") % values
    if kind == EventKind.SIDESHOW_REFUSED:
        return _("%(player)s refuses %(asker)s's sideshow.") % values
    if kind == EventKind.SHOW and "against" in data:
        if blind:
            return _("%(player)s pays %(amount)s blind and asks %(against)s for a show.") % values
        return _("%(player)s pays %(amount)s and asks %(against)s for a show.") % values
    return ""


def _describe_holdem_action(player: str, data: Mapping[str, Any]) -> str:
    verb = str(data.get("verb", ""))
    values = {"player": player, "amount": data.get("amount"), "total": data.get("total")}
    if verb == "fold":
        sentence = _("%(player)s folds.") % values
    elif verb == "check":
        sentence = _("%(player)s checks.") % values
    elif verb == "call":
        sentence = _("%(player)s calls %(amount)s.") % values
    elif verb == "bet":
        sentence = _("%(player)s bets %(amount)s.") % values
    elif verb == "allin":
        sentence = _("%(player)s goes all in for %(total)s.") % values
    else:
        sentence = _("%(player)s raises to %(total)s.") % values
    if data.get("all_in") and verb != "allin":
        sentence += " " + _("(All in.)")
    return sentence
