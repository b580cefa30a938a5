"""Whose eyes a table socket sees with: its own seat's, or on the host's phone with pass and
play on, the eyes of the player holding the phone (or nobody's, between holders).

A plain object the socket's session (``tables.live.session.TableSession``) holds. It
does no I/O: the session tells it what it read or heard (a snapshot, a catch-up, a piece
of news) and asks it whose eyes to read the next thing with. Each ``heard_*`` method
returns whether the eyes changed, in which case what was read with the old eyes must be
read again (tables.services.pass_and_play says who may hold the phone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext as _

from tables.messages import NewsScreen, SeatPublic
from tables.selectors import phone_seat_ids_from_public
from tables.services import ServiceError


class PhonePublic(TypedDict):
    """What the host's phone shows about passing, sent beside each frame to it."""

    seats: list[int] | None
    holding: int | None
    pass_to: int | None


def turn_player(hand: Mapping[str, Any] | None) -> str | None:
    """Who is to act in a hand as a screen or snapshot carries it (``None``: nobody, or no hand)."""
    if not hand or hand.get("finished"):
        return None
    turn = hand.get("turn")
    return None if not turn or not turn.get("player") else str(turn["player"])


def turn_leaves(frames: Sequence[Mapping[str, Any]], holder: str) -> bool:
    """Whether news (the events as written, before any filter) passes the turn from
    ``holder`` to someone else, or ends the hand."""
    for frame in frames:
        kind = frame.get("kind")
        if kind in ("hand_ended", "hand_void", "game_ended"):
            return True
        if kind == "turn" and str((frame.get("data") or {}).get("player")) != holder:
            return True
    return False


class Viewer:
    """One socket's eyes. ``phone``: the seats of the host's phone when pass and play is on
    (the host's own first), else ``None``; ``holding``: the phone's seat that holds it now."""

    def __init__(self, *, seat_id: int | None, is_host: bool, phone: list[int] | None) -> None:
        self.seat_id = seat_id
        self.is_host = is_host
        self.phone = phone
        self.holding: int | None = None
        self.turn_player: str | None = None  # who is to act, as this socket last heard

    @property
    def seat(self) -> int | None:
        """The seat whose eyes this socket sees with: its own; on the host's phone when pass
        and play is on, the seat holding the phone, or nobody's (the public view) between holders."""
        return self.seat_id if self.phone is None else self.holding

    @property
    def name(self) -> str | None:
        """The seat as the log's visibility rules name a viewer (``None``: the public view)."""
        seat = self.seat
        return None if seat is None else str(seat)

    @property
    def passing(self) -> bool:
        """Whether this socket is the host's phone with pass and play on."""
        return self.phone is not None

    def acting_seat(self) -> int | None:
        """The seat a move from this socket is for: its own; on a passed phone, the holder's."""
        if self.phone is None:
            return self.seat_id
        if self.holding is None:
            raise ServiceError(
                "not_holding", _("Pass the phone to the player whose turn it is; they tap their name first.")
            )
        return self.holding

    def hold(self, *, seat_id: int, phone: list[int] | None) -> None:
        """A player of the phone tapped their name (checked by ``services.phone_hold_check``)."""
        self.phone, self.holding = phone, seat_id

    def let_go(self) -> None:
        self.holding = None

    def heard_turn(self, hand: Mapping[str, Any] | None) -> bool:
        """Note who is to act now; the phone's holder lets go the moment the turn leaves
        them (before anything of the news is filtered)."""
        self.turn_player = turn_player(hand)
        if self.holding is not None and self.turn_player != str(self.holding):
            self.holding = None
            return True
        return False

    def heard_seats(self, seats: list[SeatPublic]) -> bool:
        """The seats changed: the host's phone starts or stops passing (local players added
        or all gone)."""
        if not self.is_host or self.seat_id is None:
            return False
        phone = phone_seat_ids_from_public(seats, self.seat_id)
        if phone == self.phone:
            return False
        was = self.name
        self.phone = phone
        if phone is None or self.holding not in phone:
            self.holding = None
        return self.name != was

    def heard_read(self, screen: Mapping[str, Any]) -> bool:
        """A snapshot or catch-up was read with these eyes: note its seats and turn."""
        if not self.is_host:
            return False
        changed = self.heard_seats(screen["seats"])
        if self.phone is not None:
            changed = self.heard_turn(screen.get("hand")) or changed
        return changed

    def heard_news(self, frames: Sequence[Mapping[str, Any]], screen: NewsScreen | None) -> bool:
        """News came (the events as written, and the screen after them if it came with
        them): whose eyes it is filtered with is settled first, from that screen; a holder
        whose turn ended sees none of it."""
        if not self.is_host:
            return False
        changed = False
        if screen is not None and "seats" in screen:
            changed = self.heard_seats(screen["seats"])
        if self.phone is not None:
            if screen is not None and "hand" in screen:
                changed = self.heard_turn(screen["hand"]) or changed
            elif self.holding is not None and (screen is None or turn_leaves(frames, str(self.holding))):
                # Not known whose turn it is, or the news itself says the turn left the
                # holder (its screen lacks the hand: the writer could not build it): hide.
                self.holding, changed = None, True
        return changed

    def phone_public(self) -> PhonePublic | None:
        """What the host's phone shows about passing: its seats, who holds it, and whom to
        pass it to (a seat of this phone to act while nobody holds it); ``None`` elsewhere."""
        if self.phone is None:
            return None
        turn = self.turn_player
        pass_to = (
            int(turn)
            if self.holding is None and turn is not None and turn.isdigit() and int(turn) in self.phone
            else None
        )
        return {"seats": self.phone, "holding": self.holding, "pass_to": pass_to}

    def with_phone(self, reply: Mapping[str, Any]) -> dict[str, Any]:
        """The reply with what the host's phone shows about passing, if it passes."""
        phone = self.phone_public()
        return dict(reply) if phone is None else {**reply, "phone": phone}
