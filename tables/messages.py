"""The shapes of what travels: the news through the channel layer, the screens and snapshots,
and the frames a socket sends its page. Each is a ``TypedDict`` (plain JSON-ready dicts at
run time, checked by mypy where they are built and read); docs/live-play.md describes the
protocol they make.

Below everything of ``tables`` but the models: the readers (selectors, screens), the news,
the services and the consumer all name their messages from here, and write their text with
:func:`json_text`.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict

import orjson

from engine.view_types import HandView

#: A JSON value as ``json.loads`` gives it back: an event's data, a table's settings and rules.
JSONValue: TypeAlias = str | int | float | bool | None | list["JSONValue"] | dict[str, "JSONValue"]


class LegalPublic(TypedDict):
    """One verb the player on turn may use (``engine.api.LegalAction.to_json``) and what it
    costs now (``cost``: public, the same for every viewer; a raise's at ``min``)."""

    verb: str
    min: NotRequired[int]
    max: NotRequired[int]
    cost: NotRequired[int]


class TurnPublic(TypedDict):
    """Whose turn it is, what they may do and until when (``tables.what_viewers_see.turn_public``)."""

    player: str
    legal: list[LegalPublic]
    deadline: str | None
    away_from: str | None


class SeatPublic(TypedDict):
    """A seat as everyone at the table sees it (``tables.selectors.seat_public``)."""

    id: int
    name: str
    number: int | None
    stack: int
    status: str
    guest: bool
    computer: str | None
    local: bool
    buy_ins: int
    buy_backs_used: int


class TablePublic(TypedDict):
    """The table as everyone sees it (``tables.selectors.table_public``): never the seed,
    the invite token or the host's private choices."""

    id: int
    code: str
    game: str
    status: str
    host: int | None
    seed_commitment: str
    hands_played: int
    next_deal_at: str | None
    ending: bool
    settings: dict[str, JSONValue]
    rules: dict[str, JSONValue]


class RequestPublic(TypedDict):
    """A request to the host not answered yet (``tables.selectors.requests_pending``)."""

    request: int
    seat: int
    name: str
    what: str
    number: int | None
    chips: int | None
    price: str | None
    buy_ins: NotRequired[int | None]  # the services' own reading only (``private``)
    who: NotRequired[str]  # the services' own reading only: never sent
    claim: NotRequired[int]  # "This is me" (what: "claim"): the guest's seat asked for


class EventFrame(TypedDict):
    """One event as it travels through the channel layer (``tables.events.event_frame``):
    its visibility still attached, taken off by ``frame_for_viewer``."""

    seq: int
    kind: str
    hand: int | None
    data: dict[str, JSONValue]
    visible_to: list[str] | None


class ViewerFrame(TypedDict):
    """One event as one viewer receives it (``tables.selectors.frame_for_viewer``): a
    viewer who may not see it gets its seq alone, so a secret is never taken for a gap."""

    seq: int
    kind: NotRequired[str]
    data: NotRequired[dict[str, JSONValue]]
    hand: NotRequired[int]


class HandScreen(TypedDict):
    """Every distinct view of one hand (``tables.what_viewers_see.hand_screen``): each player's and
    the public one, as JSON text in the news (as data in a snapshot's ``only``)."""

    number: int
    dealer: int | None
    finished: bool
    turn: TurnPublic | None
    views: dict[str, str | HandView]  # each player's view, JSON text in the news
    public: str | HandView | None  # None: a snapshot's screen of a player dealt in


class HandForViewer(TypedDict):
    """One viewer's part of a hand's screen (``tables.selectors.hand_for_viewer``)."""

    number: int
    dealer: int | None
    finished: bool
    view: str | HandView | None
    turn: TurnPublic | None


class NewsScreen(TypedDict):
    """The screen that goes out with a write's events (``tables.what_viewers_see.news_screen_parts``),
    exact at ``seq``; each part only when it changed (``hand`` ``None``: no hand to show)."""

    seq: int
    table: NotRequired[TablePublic]
    seats: NotRequired[list[SeatPublic]]
    requests: NotRequired[list[RequestPublic]]
    hand: NotRequired[HandScreen | None]


class TableEventsMessage(TypedDict):
    """The channel-layer message of a write's news (``tables.broadcast.broadcast``)."""

    type: Literal["table.events"]
    events: list[EventFrame]
    screen: NotRequired[NewsScreen]


class Snapshot(TypedDict):
    """What one viewer may see of the table now (``tables.what_viewers_see.table_snapshot``)."""

    type: Literal["snapshot"]
    seq: int
    you: int | None
    table: TablePublic
    seats: list[SeatPublic]
    hand: HandForViewer | None
    requests: list[RequestPublic]
    denied: str | None
    # The seats with a page open now (tables.live.presence; None when the cache cannot say),
    # added by the socket that sends it.
    online: NotRequired[list[int] | None]


class CatchUpScreen(TypedDict):
    """The screen a catch-up ends with (``tables.what_viewers_see.table_catch_up``): the snapshot's,
    without its type and its viewer."""

    seq: int
    table: TablePublic
    seats: list[SeatPublic]
    hand: HandForViewer | None
    requests: list[RequestPublic]
    denied: str | None


class ErrorFrame(TypedDict):
    """A refusal or a fault, to the page: a stable ``code`` and a sentence in the viewer's language."""

    type: Literal["error"]
    code: str
    message: str
    field: NotRequired[str]
    id: NotRequired[str | int]  # the id of the request refused, when it had a valid one


def json_text(value: object) -> str:
    """``value`` as JSON text: the one encoder of the news' parts, the hands' views and every
    frame a table's socket sends, so a frame put together from parts is the text of the
    whole. orjson (pinned in requirements.txt) writes compact JSON (no space after ``,`` and
    ``:``) and UTF-8 as it is (no ``\\u`` escapes), which a page reads with ``JSON.parse`` as
    before, at about a twentieth of the standard library's CPU on a screen of a few kilobytes
    (docs/measurements/live-play.md, "Issue 37: the server's CPU a move"). Keys that are not
    strings become strings, as ``json.dumps`` makes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
