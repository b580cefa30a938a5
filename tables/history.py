"""Hand histories from the event log: the list of a table's hands, a hand's replay steps
as one viewer may see them, and the JSON exports of ``engine.export``.

Everything here reads the log (``tables.models.Event``), the truth of live play:

- who may look (:func:`history_may_view`): the people at that table (anyone with a seat
  row there, playing or watching, users and guests alike) and its host;
- :func:`table_hand_list`: each hand's number, who was dealt in, who won and the pot;
- :func:`hand_replay_steps`: the hand step by step. Each step is one recorded action with
  the events it caused, filtered for the viewer by ``tables.selectors.frame_for_viewer``
  (the one place live play applies visibility), and a picture of the table drawn from the
  engine's own ``view`` of the state at that moment for that viewer. So a replay shows
  exactly what the viewer could see at the time, and what was shown at a show;
- :func:`hand_export_build` / :func:`game_export_build`: the export format of
  ``engine.export`` (a replay scenario plus the fairness fields). Downloads hold every
  card, even those never shown, so they are offered only once the game has ended, when
  the revealed secret seed gives every deck away anyway (:func:`history_exports_open`).

Players are named in the engine (and so in the log and the exports) by seat id; the
exports add ``names`` (seat id to display name) so a reader knows who was who.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.api import Action, Game
from engine.export import game_export, hand_export
from engine.fairness import hand_deck
from engine.games import get_game
from tables.events import EventKind, event_frame
from tables.models import Event, Hand, Seat, Table
from tables.selectors import frame_for_viewer, hand_start_state

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from engine.games import AnyHandState

# Events that only say whose turn it is, or remind: the replay's steps already show that.
QUIET_KINDS = frozenset({EventKind.TURN, EventKind.REMINDER})


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of a table's hand list."""

    number: int
    players: tuple[str, ...]  # display names, in seat order
    winners: tuple[str, ...]
    pot: int
    finished: bool
    void: bool


# --- who may look --------------------------------------------------------------------------


def history_may_view(*, table: Table, user: User | AnonymousUser | None, seat: Seat | None) -> bool:
    """The people at the table (a seat row of theirs, user or guest) and its host."""
    if seat is not None and seat.table_id == table.pk:
        return True
    return user is not None and user.is_authenticated and user.pk == table.host_id


def history_exports_open(*, table: Table) -> bool:
    """Downloads (every card of every hand) open once the game has ended and its seed is revealed."""
    return _export_seed(table) is not None


def _export_seed(table: Table) -> bytes | None:
    """The revealed secret seed once the game has ended; ``None`` while downloads are closed."""
    if table.status != Table.Status.ENDED:
        return None
    return revealed_secret_seed(table=table)


def revealed_secret_seed(*, table: Table) -> bytes | None:
    """The secret seed as the log revealed it (the ``game_ended`` event), or ``None`` before then."""
    event = Event.objects.filter(table=table, kind=EventKind.GAME_ENDED).order_by("-seq").first()
    if event is None or not event.payload.get("secret_seed"):
        return None
    return bytes.fromhex(str(event.payload["secret_seed"]))


def recorded_placings(*, table: Table) -> list[dict[str, Any]]:
    """The placings the ``game_ended`` event kept (hold'em, book 001), first place first;
    empty before the game ends and for Teen Patti, which has no placings."""
    event = Event.objects.filter(table=table, kind=EventKind.GAME_ENDED).order_by("-seq").first()
    placings = event.payload.get("placings") if event is not None else None
    return list(placings) if isinstance(placings, list) else []


# --- names ---------------------------------------------------------------------------------


def seat_names(*, table: Table) -> dict[str, str]:
    """Seat id (the engine's name for a player) to display name, for every seat of the table."""
    return {seat.engine_name: seat.display_name for seat in Seat.objects.filter(table=table)}


def _name(names: Mapping[str, str], engine_name: object) -> str:
    return names.get(str(engine_name), str(engine_name))


# --- the list ------------------------------------------------------------------------------


def table_hand_list(*, table: Table) -> list[HandSummary]:
    """Every hand of the table, newest first."""
    names = seat_names(table=table)
    summaries = []
    for hand in Hand.objects.filter(table=table).order_by("-number"):
        result = hand.result or {}
        pots = result.get("pots") or []
        winners: list[str] = []
        for pot in pots:
            for winner in pot.get("winners", []):
                if _name(names, winner) not in winners:
                    winners.append(_name(names, winner))
        summaries.append(
            HandSummary(
                number=hand.number,
                players=tuple(_name(names, player) for player, _stack in hand.plan.get("players", [])),
                winners=tuple(winners),
                pot=sum(int(pot.get("amount", 0)) for pot in pots),
                finished=hand.ended_at is not None,
                void=bool(result.get("void")),
            )
        )
    return summaries


# --- the replay ----------------------------------------------------------------------------


def _hand_events(hand: Hand) -> list[Event]:
    return list(Event.objects.filter(hand=hand).order_by("seq"))


def is_recorded_action(event: Event) -> bool:
    """A player's request as live play recorded it (``hand_act``: kind ``action``, with the acting
    seat). Hold'em's engine also reports what an action did as an ``action`` event, with no actor."""
    return event.kind == EventKind.ACTION and event.actor_id is not None


def _action_of(event: Event) -> Action:
    payload = event.payload
    amount = payload.get("amount")
    return Action(str(payload["player"]), str(payload["verb"]), None if amount is None else int(amount))


def _picture(game: Game[Any], state: AnyHandState, viewer: str | None) -> dict[str, Any]:
    view = dict(game.view(state, viewer))
    view.pop("legal", None)  # what the viewer could do then is not part of the picture
    return view


def hand_replay_steps(*, table: Table, hand: Hand, viewer: str | None) -> list[dict[str, Any]]:
    """The hand as ``viewer`` (a seat id, or ``None`` for the host or a watcher) saw it.

    Each step: ``{"seq", "words": [sentences], "view": engine view at that moment}``. Step 0
    is the deal; each later step is one recorded action and the events it caused.
    """
    names = seat_names(table=table)
    player_names = {str(name) for name, _stack in hand.plan.get("players", [])}
    engine_viewer = viewer if viewer in player_names else None
    game, state = get_game(table.game), hand_start_state(table=table, hand=hand)
    steps: list[dict[str, Any]] = [{"seq": 0, "words": [], "view": None}]
    request_sentence: str = ""
    for event in _hand_events(hand):
        if is_recorded_action(event):
            _close_step(steps[-1], request_sentence, _picture(game, state, engine_viewer))
            state, _events = game.apply(state, _action_of(event))
            steps.append({"seq": event.seq, "words": [], "view": None, "_engine_said": False})
            request = frame_for_viewer(event_frame(event), viewer)
            request_sentence = (
                describe_event(EventKind.ACTION, request["data"], names, viewer) if "data" in request else ""
            )
            continue
        if event.kind in QUIET_KINDS:
            continue
        frame = frame_for_viewer(event_frame(event), viewer)
        if "kind" not in frame:
            continue  # a secret of someone else's: not even a sentence about it
        sentence = describe_event(frame["kind"], frame["data"], names, viewer, engine=True)
        if sentence:
            steps[-1]["words"].append(sentence)
            if frame["kind"] == EventKind.ACTION:
                steps[-1]["_engine_said"] = True
    _close_step(steps[-1], request_sentence, _picture(game, state, engine_viewer))
    if not steps[0]["words"]:
        steps[0]["words"].append(_("The cards are dealt."))
    return steps


def _close_step(step: dict[str, Any], request_sentence: str, view: dict[str, Any]) -> None:
    """Finish a step: its picture, and the player's request in words unless the engine's own
    account of the action (hold'em: with the amount it cost) already says it."""
    step["view"] = view
    if request_sentence and not step.pop("_engine_said", False):
        step["words"].insert(0, request_sentence)
    step.pop("_engine_said", None)


# --- words ---------------------------------------------------------------------------------

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
_VERBS_WITH_AMOUNT = {
    "raise": gettext_noop("%(player)s raises to %(amount)s."),
    "bet": gettext_noop("%(player)s bets %(amount)s."),
    "chaal": gettext_noop("%(player)s plays chaal for %(amount)s."),
}


def _cards_text(cards: object) -> str:
    if isinstance(cards, list | tuple):
        return " ".join(str(card) for card in cards)
    return str(cards)


def _hand_label(label: object) -> str:
    if isinstance(label, Mapping):
        category = str(label.get("category", "")).replace("_", " ")
        value = label.get("value")
        return f"{category} {value}" if value is not None else category
    return "" if label is None else str(label)


def describe_event(
    kind: str, data: Mapping[str, Any], names: Mapping[str, str], viewer: str | None, *, engine: bool = False
) -> str:
    """One sentence for an event of the log, in the viewer's language ('' to say nothing).

    ``engine`` marks the engine's own events; a player's recorded request is an ``EventKind.ACTION``
    without it."""
    player = _name(names, data.get("player", ""))
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
            return _("Hand %(number)s: %(dealer)s deals.") % {
                "number": data["number"],
                "dealer": _name(names, data.get("dealer", "")),
            }
        return ""  # the engine's own start event repeats the table's
    if kind == EventKind.BOOT:
        return _("Everyone puts in the boot of %(amount)s; the pot is %(pot)s.") % {
            "amount": data.get("amount"),
            "pot": data.get("pot"),
        }
    if kind == EventKind.DEALT:
        return _("The cards are dealt, %(count)s each.") % {"count": data.get("cards_each", "")}
    if kind in (EventKind.CARDS, EventKind.HOLE_CARDS):
        cards = _cards_text(data.get("cards", ""))
        if str(data.get("player", "")) == viewer:
            return _("Your cards: %(cards)s.") % {"cards": cards}
        return _("%(player)s's cards: %(cards)s.") % {"player": player, "cards": cards}
    if kind in (EventKind.SEE, EventKind.PACK, EventKind.RAISE, EventKind.CHAAL, EventKind.BLIND):
        return ""  # the action's own sentence already says it (hold'em's actions are all EventKind.ACTION)
    if kind == EventKind.SIDESHOW_RESULT:
        shown_cards = data.get("cards") or {}
        shown = "; ".join(f"{_name(names, who)} {_cards_text(hand)}" for who, hand in shown_cards.items())
        return _("Sideshow: %(shown)s. %(loser)s packs.") % {"shown": shown, "loser": _name(names, data.get("loser"))}
    if kind == EventKind.SHOWDOWN:
        shown_cards = data.get("cards") or {}
        hands = data.get("hands") or {}
        shown = "; ".join(
            f"{_name(names, who)} {_cards_text(hand)} ({_hand_label(hands.get(who))})".replace(" ()", "")
            for who, hand in shown_cards.items()
        )
        return _("Show: %(shown)s.") % {"shown": shown}
    if kind in (EventKind.HAND_FINISHED, EventKind.HAND_ENDED):
        if kind == EventKind.HAND_FINISHED:
            return ""  # the table's hand_ended says it once
        pots = data.get("pots") or []
        parts = []
        for pot in pots:
            winners = ", ".join(_name(names, winner) for winner in pot.get("winners", []))
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
        return _("%(player)s shows %(cards)s.") % {"player": player, "cards": _cards_text(data["cards"])}
    if kind == EventKind.SHOW:
        return ""  # Teen Patti: the request; its sentence is the action's
    if kind == EventKind.MUCK:
        return _("%(player)s does not show.") % {"player": player}
    if kind == EventKind.UNCALLED:
        return _("%(amount)s uncalled goes back to %(player)s.") % {"player": player, "amount": data.get("amount")}
    if kind in (EventKind.POT_AWARDED, EventKind.SIDESHOW, EventKind.SIDESHOW_ACCEPTED, EventKind.SIDESHOW_REFUSED):
        return ""  # said by the action, or by the hand's end
    details = ", ".join(
        f"{key}={_name(names, value) if isinstance(value, str) else value}" for key, value in data.items()
    )
    # An event this page has no sentence for yet: its name and data, rather than silence.
    label = kind.replace("_", " ")
    return _("%(event)s: %(details)s") % {"event": label, "details": details} if details else label


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


# --- the exports ---------------------------------------------------------------------------


def _hand_actions(events: list[Event]) -> list[list[str | int]]:
    actions: list[list[str | int]] = []
    for event in events:
        if not is_recorded_action(event):
            continue
        action = _action_of(event)
        actions.append([action.player, action.verb] + ([action.amount] if action.amount is not None else []))
    return actions


def hand_export_build(*, table: Table, hand: Hand, secret_seed: bytes, names: Mapping[str, str]) -> dict[str, Any]:
    """One hand in the export format; ``secret_seed`` must be the revealed one."""
    events = _hand_events(hand)
    plan = hand.plan
    result = hand.result or {}
    players = [(str(name), int(stack)) for name, stack in plan["players"]]
    stacks = result.get("stacks")
    if result.get("void") or stacks is None:
        stacks = dict(players)  # a hand called off gives every chip back
    export = hand_export(
        game=table.game,
        settings=plan["settings"],
        players=players,
        dealer=int(plan["dealer"]),
        deck=hand_deck(secret_seed, table.code, hand.number, list(hand.player_seeds)),
        actions=_hand_actions(events),
        table=table.code,
        hand_number=hand.number,
        player_seeds=list(hand.player_seeds),
        commitment=table.seed_commitment,
        stacks=stacks,
        pots=result.get("pots") or [],
        events=[
            {
                "seq": frame["seq"],
                "kind": frame["kind"],
                "data": frame["data"],
                "visible_to": frame["visible_to"],
            }
            for frame in (event_frame(event) for event in events)
        ],
    )
    if result.get("void"):
        export["result"]["void"] = True
    export["names"] = {name: _name(names, name) for name, _stack in players}
    return export


def hand_export_for(*, table: Table, hand: Hand) -> dict[str, Any] | None:
    """One hand's download, or ``None`` while the game runs (see :func:`history_exports_open`)."""
    secret_seed = _export_seed(table)
    if secret_seed is None:
        return None
    return hand_export_build(table=table, hand=hand, secret_seed=secret_seed, names=seat_names(table=table))


def game_export_build(*, table: Table) -> dict[str, Any] | None:
    """The whole game's download, with the secret seed, or ``None`` while the game runs."""
    secret_seed = _export_seed(table)
    if secret_seed is None:
        return None
    names = seat_names(table=table)
    hands = [
        hand_export_build(table=table, hand=hand, secret_seed=secret_seed, names=names)
        for hand in Hand.objects.filter(table=table).order_by("number")
    ]
    export = game_export(
        table=table.code,
        game=table.game,
        commitment=table.seed_commitment,
        secret_seed=secret_seed,
        hands_played=table.hands_played,
        hands=hands,
    )
    export["names"] = names
    return export
