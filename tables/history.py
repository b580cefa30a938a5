"""Hand histories from the event log: the list of a table's hands, a hand's replay steps
as one viewer may see them, and the JSON exports of ``engine.export``.

Everything here reads the log (``tables.models.Event``), the truth of live play:

- who may look (:func:`history_may_view`): the people at that table (anyone with a seat
  row there, playing or watching, users and guests alike) and its host;
- :func:`table_hand_list`: each hand's number, who was dealt in, who won and the pot;
- :func:`hand_replay_steps`: the hand step by step. Each step is one recorded action with
  the events it caused (said in words by ``tables.history_words``), filtered for the
  viewer by ``tables.selectors.frame_for_viewer`` (the one place live play applies
  visibility), and a picture of the table drawn from the
  engine's own ``view`` of the state at that moment for that viewer. So a replay shows
  exactly what the viewer could see at the time, and what was shown at a show;
- :func:`hand_export_build` / :func:`game_export_build`: the export format of
  ``engine.export`` (a replay scenario plus the fairness fields). Downloads hold every
  card, even those never shown, so they are offered only once the game has ended, when
  the revealed secret seed gives every deck away anyway (:func:`history_exports_open`).

Players are named in the engine (and so in the log and the exports) by seat id; the
exports add ``names`` (seat id to display name) so a reader knows who was who, and each
hand's ``seats`` (seat id to the number of the seat they were dealt in).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from engine.api import Game
from engine.export import game_export, hand_export
from engine.fairness import hand_deck
from engine.games import get_game
from tables.events import EventKind, event_frame
from tables.history_words import acted_for_words, describe_event, hand_label, holdem_label, player_name
from tables.models import Event, Hand, Seat, Table
from tables.selectors import frame_for_viewer, hand_replay, hand_start_state, is_recorded_action, recorded_action

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from engine.games import AnyHandState

# Events that only say whose turn it is, or remind: the replay's steps already show that.
QUIET_KINDS = frozenset({EventKind.TURN, EventKind.REMINDER})
# The engine's own account of a player's action, with what it cost and whom it concerned:
# when one is said, the bare request ("Asha plays chaal.") is not said too.
ENGINE_ACTION_KINDS = frozenset(
    {
        EventKind.ACTION,
        EventKind.SEE,
        EventKind.CHAAL,
        EventKind.RAISE,
        EventKind.PACK,
        EventKind.SIDESHOW,
        EventKind.SIDESHOW_ACCEPTED,
        EventKind.SIDESHOW_REFUSED,
        EventKind.SHOW,
    }
)


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
    """The people at the table (a seat row of theirs, user or guest) and its host; never a
    seat the host banned (its settlement report stays its own: ``ledger``)."""
    if seat is not None and seat.table_id == table.pk:
        return not seat.banned
    return user is not None and user.is_authenticated and user.pk == table.host_id


def hand_may_share(*, table: Table, hand: Hand, user: User | AnonymousUser | None, seat: Seat | None) -> bool:
    """Who may make (and revoke) a link that shows one finished hand to anyone who has it
    (issue 40): the host, and anyone dealt into that hand; never a watcher, never a banned seat."""
    if hand.ended_at is None or not history_may_view(table=table, user=user, seat=seat):
        return False
    if user is not None and user.is_authenticated and user.pk == table.host_id:
        return True
    dealt = {str(name) for name, _stack in hand.plan.get("players", [])}
    return seat is not None and seat.engine_name in dealt


def shared_hand_summary(*, table: Table, hand: Hand) -> dict[str, Any]:
    """What a shared hand's preview says (a chat app's card): the game, the hand's number,
    who was dealt in, who won and the pot. All of it the table saw; no card."""
    names = seat_names(table=table)
    result = hand.result or {}
    pots = result.get("pots") or []
    return {
        "players": [player_name(names, player) for player, _stack in hand.plan.get("players", [])],
        "winners": _winners(names, pots),
        "pot": sum(int(pot.get("amount", 0)) for pot in pots),
        "void": bool(result.get("void")),
    }


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


def ended_by_host(*, table: Table) -> bool:
    """Whether the ``game_ended`` event says the host ended the game (issue 25: a host who
    ends a game early locks in the placings of that moment, and everyone is told)."""
    event = Event.objects.filter(table=table, kind=EventKind.GAME_ENDED).order_by("-seq").first()
    return event is not None and event.payload.get("reason") == "host"


def recorded_placings(*, table: Table) -> list[dict[str, Any]]:
    """The placings the ``game_ended`` event kept (hold'em, book 001), first place first;
    empty before the game ends and for Teen Patti, which has no placings."""
    event = Event.objects.filter(table=table, kind=EventKind.GAME_ENDED).order_by("-seq").first()
    placings = event.payload.get("placings") if event is not None else None
    if not isinstance(placings, list):
        return []
    # A prize is money the ledger recorded, kept in the log as its text ("30.00"): read back
    # as a Decimal, so a page writes it in the viewer's language as the settle-up page does.
    return [{**placing, "prize": Decimal(placing["prize"])} if "prize" in placing else placing for placing in placings]


def prizes_in_money(*, table: Table) -> bool:
    """Whether the table's placings win money (issue 25): hold'em shared by places at a buy-in
    price above 0.00. By chips, a player's result is their chips' value (the settle-up's Net),
    not a prize; at 0.00 every prize is 0.00. In both cases no page shows a prize."""
    return (table.settings or {}).get("prizes") == "places" and Decimal(table.buy_in_price) > 0


# --- names ---------------------------------------------------------------------------------


def seat_names(*, table: Table) -> dict[str, str]:
    """Seat id (the engine's name for a player) to display name, for every seat of the table."""
    return {seat.engine_name: seat.display_name for seat in Seat.objects.filter(table=table)}


def hand_seat_numbers(*, table: Table) -> dict[int, dict[str, int]]:
    """Where everyone sat when each hand was dealt, by hand number: seat id to the number of
    their seat (the other formats' "Seat 3"), read from the log. A seat gets its number from
    its ``seat_taken`` (every way of sitting down logs one), and a player dealt in sits where
    their last one before the deal put them. Not the seats' numbers now: a player sent out
    since has none, and a freed seat may have been taken again."""
    rows = (
        Event.objects.filter(table=table, kind__in=(EventKind.SEAT_TAKEN, EventKind.HAND_STARTED))
        .order_by("seq")
        .values_list("kind", "payload", "hand__number")
    )
    sitting: dict[str, int] = {}
    dealt: dict[int, dict[str, int]] = {}
    for kind, payload, number in rows:
        if kind == EventKind.SEAT_TAKEN and payload.get("number") is not None:
            sitting[str(payload["seat"])] = int(payload["number"])
        elif kind == EventKind.HAND_STARTED and number is not None and number not in dealt:
            dealt[number] = dict(sitting)
    return dealt


#: A hand's number in the PokerStars-style text: the table's id times this, plus the hand's
#: number, so no two games' hands share one (trackers take the number as the hand's identity).
HAND_IDS_PER_TABLE = 1_000_000


def hand_ids(*, table: Table) -> dict[int, int]:
    numbers = Hand.objects.filter(table=table).values_list("number", flat=True)
    return {number: table.pk * HAND_IDS_PER_TABLE + number for number in numbers}


def hand_times(*, table: Table) -> dict[int, str]:
    """Each hand's deal, "YYYY/MM/DD HH:MM:SS" in UTC."""
    return {
        number: started.astimezone(UTC).strftime("%Y/%m/%d %H:%M:%S")
        for number, started in Hand.objects.filter(table=table).values_list("number", "started_at")
        if started is not None
    }


# --- the list ------------------------------------------------------------------------------


def _winners(names: Mapping[str, str], pots: list[dict[str, Any]]) -> list[str]:
    """Every pot's winners by name, each once, in the order the pots name them."""
    winners: list[str] = []
    for pot in pots:
        for winner in pot.get("winners", []):
            if player_name(names, winner) not in winners:
                winners.append(player_name(names, winner))
    return winners


def table_hand_list(*, table: Table) -> list[HandSummary]:
    """Every hand of the table, newest first."""
    names = seat_names(table=table)
    summaries = []
    for hand in Hand.objects.filter(table=table).order_by("-number"):
        result = hand.result or {}
        pots = result.get("pots") or []
        winners = _winners(names, pots)
        summaries.append(
            HandSummary(
                number=hand.number,
                players=tuple(player_name(names, player) for player, _stack in hand.plan.get("players", [])),
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


def _picture(game: Game[Any], state: AnyHandState, viewer: str | None) -> dict[str, Any]:
    """The engine's view for ``viewer``, and each hand the viewer could see named (``hand_name``)."""
    view: dict[str, Any] = dict(game.view(state, viewer))
    view.pop("legal", None)  # what the viewer could do then is not part of the picture
    board = [str(card) for card in view.get("board") or []]
    players = []
    for player in view.get("players") or []:
        cards = player.get("cards") or player.get("hole_cards")
        if cards:
            named = hand_label(player["hand"], cards) if player.get("hand") else holdem_label(cards, board)
            player = {**player, "hand_name": named}
        players.append(player)
    if "players" in view:
        view["players"] = players
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
    events = _hand_events(hand)
    actions = [event for event in events if is_recorded_action(event)]
    state_after = dict(hand_replay(table=table, hand=hand, actions=actions, state=state))
    steps: list[dict[str, Any]] = [{"seq": 0, "words": [], "view": None}]
    request_sentence: str = ""
    board: list[str] = []  # hold'em: the community cards so far, to name a shown hand
    for event in events:
        if is_recorded_action(event):
            _close_step(steps[-1], request_sentence, _picture(game, state, engine_viewer))
            state = state_after[event.seq]
            steps.append({"seq": event.seq, "words": [], "view": None, "_engine_said": False})
            request = frame_for_viewer(event_frame(event), viewer)
            request_sentence = (
                describe_event(EventKind.ACTION, request["data"], names, viewer) if "data" in request else ""
            )
            steps[-1]["_acted_for"] = acted_for_words(request["data"], names) if "data" in request else ""
            continue
        if event.kind in QUIET_KINDS:
            continue
        frame = frame_for_viewer(event_frame(event), viewer)
        if "kind" not in frame:
            continue  # a secret of someone else's: not even a sentence about it
        if frame["kind"] == EventKind.BOARD:
            cards = frame["data"].get("board")
            board = [str(card) for card in cards] if isinstance(cards, list) else []
        sentence = describe_event(frame["kind"], frame["data"], names, viewer, engine=True, board=board)
        if sentence:
            steps[-1]["words"].append(sentence)
            if frame["kind"] in ENGINE_ACTION_KINDS:
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
    # The host's move for an away player: "Asha acted for Bikash: Bikash calls 20."
    acted_for = step.pop("_acted_for", "")
    if acted_for and step["words"]:
        step["words"][0] = f"{acted_for} {step['words'][0]}"


# --- the exports ---------------------------------------------------------------------------


def _hand_actions(events: list[Event]) -> list[list[str | int]]:
    actions: list[list[str | int]] = []
    for event in events:
        if not is_recorded_action(event):
            continue
        action = recorded_action(event)
        actions.append([action.player, action.verb] + ([action.amount] if action.amount is not None else []))
    return actions


def hand_export_build(
    *, table: Table, hand: Hand, secret_seed: bytes, names: Mapping[str, str], seats: Mapping[str, int]
) -> dict[str, Any]:
    """One hand in the export format; ``secret_seed`` must be the revealed one, ``seats``
    where everyone sat at its deal (:func:`hand_seat_numbers`)."""
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
    export["names"] = {name: player_name(names, name) for name, _stack in players}
    if all(name in seats for name, _stack in players):
        export["seats"] = {name: seats[name] for name, _stack in players}
    return export


def hand_export_for(*, table: Table, hand: Hand) -> dict[str, Any] | None:
    """One hand's download, or ``None`` while the game runs (see :func:`history_exports_open`)."""
    secret_seed = _export_seed(table)
    if secret_seed is None:
        return None
    seats = hand_seat_numbers(table=table).get(hand.number, {})
    return hand_export_build(
        table=table, hand=hand, secret_seed=secret_seed, names=seat_names(table=table), seats=seats
    )


def game_export_build(*, table: Table) -> dict[str, Any] | None:
    """The whole game's download, with the secret seed, or ``None`` while the game runs."""
    secret_seed = _export_seed(table)
    if secret_seed is None:
        return None
    names = seat_names(table=table)
    seats = hand_seat_numbers(table=table)
    hands = [
        hand_export_build(
            table=table, hand=hand, secret_seed=secret_seed, names=names, seats=seats.get(hand.number, {})
        )
        for hand in Hand.objects.filter(table=table).order_by("number")
    ]
    export = game_export(
        table=table.code,
        game=table.game,
        commitment=table.seed_commitment,
        secret_seed=secret_seed,
        hands_played=table.hands_played,
        hands=hands,
        table_events=_chip_events(table),
        ledger=_ledger_entries(table),
    )
    export["names"] = names
    return export


#: The table's own events (outside any hand) that move chips, as the verifier follows them.
CHIP_EVENT_KINDS = (
    EventKind.SEAT_TAKEN,
    EventKind.SEAT_BOUGHT_BACK,
    EventKind.SEAT_LEFT,
    EventKind.SEAT_REMOVED,
    EventKind.SEAT_OUT,
    EventKind.GAME_ENDED,
)


def _chip_events(table: Table) -> list[dict[str, Any]]:
    """The table's log between the hands that moves chips (``engine.verify.check_chips``)."""
    events = Event.objects.filter(table=table, hand__isnull=True, kind__in=CHIP_EVENT_KINDS).order_by("seq")
    return [{"seq": frame["seq"], "kind": frame["kind"], "data": frame["data"]} for frame in map(event_frame, events)]


def _ledger_entries(table: Table) -> list[dict[str, Any]]:
    """The table's ledger in the order it was written: who, what, how many chips, the price,
    and for a reversal the index of the entry it cancels."""
    entries = list(table.ledger_entries.order_by("pk").values("pk", "seat_id", "kind", "chips", "price", "reverses_id"))
    index = {entry["pk"]: position for position, entry in enumerate(entries)}
    return [
        {
            "player": str(entry["seat_id"]),
            "kind": entry["kind"],
            "chips": int(entry["chips"]),
            "price": str(entry["price"]),
            "reverses": index.get(entry["reverses_id"]),
        }
        for entry in entries
    ]
