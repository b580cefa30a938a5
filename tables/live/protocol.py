"""What a table's page may send over its socket, read once: :func:`parse` turns a frame's
text into one :class:`Command` (a frozen dataclass per verb), or raises :class:`FrameError`.

A frame is a JSON object with a ``type`` and, optionally, an ``id`` (a short text or
number) that the answer carries back; docs/live-play.md lists the types. Each field is
checked here for its type, with the code and sentence the service it is for gives the same
mistake (``bad_verb``, ``bad_amount``, ``bad_seat``...): what a field means (a legal move, a
free seat, a known request) is the service's to say. A frame refused here reaches no
service and changes nothing.

The close codes and the error frame every refusal is sent as are here too: the page knows
them all (``static/js/table/connection.js``, ``main.js``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.messages import ErrorFrame

if TYPE_CHECKING:
    from collections.abc import Callable

    from django_stubs_ext import StrPromise

MAX_FRAME_BYTES = 4096
CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_SEAT_MOVED = 4409  # a guest's seat link was opened in another browser (issue 28): not retried
CLOSE_UNAVAILABLE = 4503  # like HTTP 503, try again later (daphne sends only 1000 and 3000-4999)
UNAVAILABLE = gettext_lazy("The server cannot reach the table right now; retrying.")

#: An ``id`` a page gave its request, sent back with the answer.
RequestId = str | int
#: What a frame costs of its sender's limits (``tables.live.socket_limits``): a command
#: (it makes the site write), a read of the table, or neither.
Limit = Literal["command", "read"] | None


class FrameError(Exception):
    """A frame refused before any service: ``code`` and ``message`` for the page, the
    frame's ``request_id`` when it had a valid one, and ``limit``: what the frame costs of
    its sender's limits once its type is known (it is counted before it is refused, as a
    frame that reaches a service)."""

    def __init__(
        self, code: str, message: str | StrPromise, request_id: RequestId | None = None, limit: Limit = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.limit = limit


def error_frame(code: str, message: str | StrPromise, request_id: RequestId | None = None) -> ErrorFrame:
    """The frame of a refusal: its stable code, a sentence in the viewer's language and the
    request's id if it had one."""
    frame: ErrorFrame = {"type": "error", "code": code, "message": str(message)}
    if request_id is not None:
        frame["id"] = request_id
    return frame


class Ack(TypedDict):
    """A request done."""

    type: Literal["ack"]
    seq: NotRequired[int]
    holding: NotRequired[int | None]
    request: NotRequired[int]
    for_hand: NotRequired[int]
    id: NotRequired[RequestId]


class Pong(TypedDict):
    """The answer to a ``ping`` or a ``beat``: a seq (docs/live-play.md says which)."""

    type: Literal["pong"]
    seq: int
    id: NotRequired[RequestId]


Reply = Ack | Pong


# --- the commands ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One frame from the page, checked."""

    limit: ClassVar[Limit] = None
    request_id: RequestId | None


@dataclass(frozen=True, slots=True)
class Act(Command):
    """A move in the hand: ``{"type": "action", "verb", "amount", "id"}`` (the id is required)."""

    limit: ClassVar[Limit] = "command"
    request_id: RequestId
    verb: str
    amount: int | None


@dataclass(frozen=True, slots=True)
class See(Command):
    """Look at one's cards (Teen Patti)."""

    limit: ClassVar[Limit] = "command"


@dataclass(frozen=True, slots=True)
class Hold(Command):
    """Pass and play: "I am <name>" (``seat``), or ``None`` to hide every card again."""

    seat: object


@dataclass(frozen=True, slots=True)
class Resync(Command):
    """The events after seq ``after`` (from the log)."""

    limit: ClassVar[Limit] = "read"
    after: int


@dataclass(frozen=True, slots=True)
class SnapshotAsk(Command):
    """A fresh snapshot."""

    limit: ClassVar[Limit] = "read"


@dataclass(frozen=True, slots=True)
class Ping(Command):
    """Send what the log has past this socket; answered with the table's latest seq."""


@dataclass(frozen=True, slots=True)
class Beat(Command):
    """The page's frequent heartbeat: answered with the last seq this socket sent, no read."""


@dataclass(frozen=True, slots=True)
class Visibility(Command):
    """Whether the page is on screen now."""

    visible: bool


@dataclass(frozen=True, slots=True)
class SeedSubmit(Command):
    """The player's own seed for the next hand's deck."""

    limit: ClassVar[Limit] = "command"
    seed: str


# A seat request (``{"type": "seat", "verb": ...}``), for the socket's seat or, on the
# host's phone with pass and play, for ``phone_seat`` (one of its players; None: its own).


@dataclass(frozen=True, slots=True)
class SeatCommand(Command):
    limit: ClassVar[Limit] = "command"
    phone_seat: object


@dataclass(frozen=True, slots=True)
class SeatTake(SeatCommand):
    number: int | None


@dataclass(frozen=True, slots=True)
class SeatLeave(SeatCommand):
    pass


@dataclass(frozen=True, slots=True)
class SeatSitOut(SeatCommand):
    pass


@dataclass(frozen=True, slots=True)
class SeatComeBack(SeatCommand):
    pass


@dataclass(frozen=True, slots=True)
class SeatBuyBack(SeatCommand):
    pass


@dataclass(frozen=True, slots=True)
class SeatAsk(SeatCommand):
    """Ask the host for a seat or a buy-back (``what`` and ``number`` checked by ``seat_ask``)."""

    what: object
    number: object


@dataclass(frozen=True, slots=True)
class RequestCancel(SeatCommand):
    pass


@dataclass(frozen=True, slots=True)
class VariantCall(SeatCommand):
    """Dealer's choice: the next dealer calls the variant (checked by ``variant_call``)."""

    variant: object


# A host control (``{"type": "host", "verb": ...}``).


@dataclass(frozen=True, slots=True)
class HostCommand(Command):
    limit: ClassVar[Limit] = "command"


@dataclass(frozen=True, slots=True)
class TableStart(HostCommand):
    pass


@dataclass(frozen=True, slots=True)
class TablePause(HostCommand):
    pass


@dataclass(frozen=True, slots=True)
class TableResume(HostCommand):
    pass


@dataclass(frozen=True, slots=True)
class TableEnd(HostCommand):
    pass


@dataclass(frozen=True, slots=True)
class SettingsChange(HostCommand):
    choices: dict[str, object]


@dataclass(frozen=True, slots=True)
class SeatRemove(HostCommand):
    remove_seat: int
    ban: bool


@dataclass(frozen=True, slots=True)
class ActFor(HostCommand):
    """The host acts for the away player on turn: ``move`` one of their moves (``amount``
    where it takes one), or ``None`` / ``"away"`` for away for the hand."""

    player_seat: int
    move: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class RequestApprove(HostCommand):
    request: object


@dataclass(frozen=True, slots=True)
class RequestDeny(HostCommand):
    request: object


# --- reading a frame ---------------------------------------------------------------------

Frame = dict[str, object]


def parse(text: str) -> Command:
    """The command ``text`` holds, or :class:`FrameError` (the frame changes nothing)."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser's stack
        raise FrameError("bad_json", _("That message is not JSON.")) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise FrameError("bad_message", _("A message is an object with a type."))
    request_id = message.get("id")
    if request_id is not None and (
        isinstance(request_id, bool) or not isinstance(request_id, str | int) or len(str(request_id)) > 40
    ):
        raise FrameError("bad_id", _("An id must be a short text or number."))
    read = _READERS.get(message["type"])
    if read is None:
        raise FrameError("bad_type", _("Unknown message type."), request_id)
    return read(message, request_id)


def _refused(code: str, message: str | StrPromise, request_id: RequestId | None, command: type[Command]) -> FrameError:
    return FrameError(code, message, request_id, command.limit)


def _whole(value: object) -> int | None:
    """``value`` if it is a whole number (JSON's ``true`` is not), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _act(frame: Frame, request_id: RequestId | None) -> Command:
    if request_id is None:
        raise _refused("bad_id", _("An action needs an id."), request_id, Act)
    verb, amount = frame.get("verb"), frame.get("amount")
    if not isinstance(verb, str):
        raise _refused("bad_verb", _("That is not an action."), request_id, Act)
    whole = _whole(amount)
    if amount is not None and whole is None:
        raise _refused("bad_amount", _("The amount must be a whole number of chips."), request_id, Act)
    return Act(request_id=request_id, verb=verb, amount=whole)


def _resync(frame: Frame, request_id: RequestId | None) -> Command:
    after = frame.get("after")
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        raise _refused("bad_after", _("Give the last seq you have."), request_id, Resync)
    return Resync(request_id=request_id, after=after)


def _visibility(frame: Frame, request_id: RequestId | None) -> Command:
    visible = frame.get("visible")
    if not isinstance(visible, bool):
        raise _refused("bad_visibility", _("Say whether the page is visible: true or false."), request_id, Visibility)
    return Visibility(request_id=request_id, visible=visible)


def _seed(frame: Frame, request_id: RequestId | None) -> Command:
    seed = frame.get("seed")
    if not isinstance(seed, str):
        raise _refused("bad_seed", _("A seed is 1 to 64 letters, digits, '-' or '_'."), request_id, SeedSubmit)
    return SeedSubmit(request_id=request_id, seed=seed)


def _seat(frame: Frame, request_id: RequestId | None) -> Command:
    verb, phone_seat = frame.get("verb"), frame.get("seat")
    if verb == "take":
        number = frame.get("number")
        whole = _whole(number)
        if number is not None and whole is None:
            raise _refused("bad_seat", _("Choose a seat by its number."), request_id, SeatTake)
        return SeatTake(request_id=request_id, phone_seat=phone_seat, number=whole)
    if verb == "ask":
        return SeatAsk(request_id=request_id, phone_seat=phone_seat, what=frame.get("what"), number=frame.get("number"))
    if verb == "call_variant":
        return VariantCall(request_id=request_id, phone_seat=phone_seat, variant=frame.get("variant"))
    plain: dict[object, type[SeatCommand]] = {
        "leave": SeatLeave,
        "sit_out": SeatSitOut,
        "come_back": SeatComeBack,
        "buy_back": SeatBuyBack,
        "cancel": RequestCancel,
    }
    command = plain.get(verb)
    if command is None:
        raise _refused("bad_verb", _("That is not something you can do with a seat."), request_id, SeatCommand)
    return command(request_id=request_id, phone_seat=phone_seat)


def _host(frame: Frame, request_id: RequestId | None) -> Command:
    verb = frame.get("verb")
    if verb == "settings":
        choices = frame.get("settings")
        if not isinstance(choices, dict):
            raise _refused(
                "invalid_settings", _("Settings must be given as names and values."), request_id, SettingsChange
            )
        return SettingsChange(request_id=request_id, choices=choices)
    if verb == "remove":
        remove_seat, ban = frame.get("seat"), frame.get("ban", False)
        if not isinstance(ban, bool):
            raise _refused("bad_message", _("Say yes or no to banning."), request_id, SeatRemove)
        whole = _whole(remove_seat)
        if whole is None:
            raise _refused("no_seat", _("You have not joined this table."), request_id, SeatRemove)
        return SeatRemove(request_id=request_id, remove_seat=whole, ban=ban)
    if verb == "act_for":
        player_seat = _whole(frame.get("seat"))
        if player_seat is None:
            raise _refused("no_seat", _("Choose a player at this table."), request_id, ActFor)
        move, amount = frame.get("move"), frame.get("amount")
        if move is not None and not isinstance(move, str):
            raise _refused("bad_move", _("Choose a move, or away for the hand."), request_id, ActFor)
        if amount is not None and _whole(amount) is None:
            raise _refused("bad_amount", _("The amount must be a whole number of chips."), request_id, ActFor)
        return ActFor(request_id=request_id, player_seat=player_seat, move=move, amount=_whole(amount))
    if verb in ("approve", "deny"):
        answer = RequestApprove if verb == "approve" else RequestDeny
        return answer(request_id=request_id, request=frame.get("request"))
    plain: dict[object, type[HostCommand]] = {
        "start": TableStart,
        "pause": TablePause,
        "resume": TableResume,
        "end": TableEnd,
    }
    command = plain.get(verb)
    if command is None:
        raise _refused("bad_verb", _("That is not a host control."), request_id, HostCommand)
    return command(request_id=request_id)


_READERS: dict[str, Callable[[Frame, RequestId | None], Command]] = {
    "action": _act,
    "see": lambda frame, request_id: See(request_id=request_id),
    "hold": lambda frame, request_id: Hold(request_id=request_id, seat=frame.get("seat")),
    "resync": _resync,
    "snapshot": lambda frame, request_id: SnapshotAsk(request_id=request_id),
    "seat": _seat,
    "host": _host,
    "seed": _seed,
    "ping": lambda frame, request_id: Ping(request_id=request_id),
    "beat": lambda frame, request_id: Beat(request_id=request_id),
    "visibility": _visibility,
}
