"""The frames a scripted player of ``benchmarks/live_load.py`` sends, as the table page
would: :class:`PushedPage` (the page now) and :class:`PullingPage` (the page before views
were pushed). ``tests/browser/test_page_frames.py`` pins :class:`PushedPage` to the page."""

from __future__ import annotations

from typing import Any

#: The frames a page can carry: JSON objects as the socket sends and receives them.
Frame = dict[str, Any]

CLIENTS = ("page", "pull", "bare")


class PushedPage:
    """The frames the table page sends (static/js/table/store.js, connection.js, main.js):
    on connect, a ``visibility`` frame (the page is on screen: no push reminder to it) and
    one ``resync`` for the log in words; then nothing but its player's actions
    and the heartbeat's ``ping``, since each events frame brings the screen with it; a
    ``snapshot`` only after a gap or when a ``pong`` says news was lost. It acts on the
    pushed view. ``tests/browser/test_page_frames.py`` pins it to the page."""

    LOG_LOOKBACK = 400
    HEARTBEAT_SECONDS = 5.0  # connection.js HEARTBEAT_MS (a page on screen)
    BEATS_PER_PING = 5  # connection.js PING_MS / HEARTBEAT_MS

    def __init__(self) -> None:
        self.last_seq = 0
        self.view_seq = 0
        self.first = True
        self.snapshot_wanted = False
        self.you: str | None = None
        self.legal: list[Frame] = []
        self.pings = 0

    def _hand(self, hand: Frame | None) -> None:
        view = (hand or {}).get("view") or {}
        # The scripted player acts on its turn only (a Teen Patti view also offers "see" out of turn).
        self.legal = (view.get("legal") or []) if str(view.get("to_act")) == self.you else []

    def on_frame(self, frame: Frame) -> tuple[list[Frame], list[int], bool]:
        """(frames to send, seqs whose news this frame brought onto the screen, may act now)."""
        kind = frame.get("type")
        out: list[Frame] = []
        shown: list[int] = []
        if kind == "snapshot":
            self.snapshot_wanted = False
            self.you = str(frame.get("you"))
            self.last_seq = frame.get("seq") or 0
            shown = list(range(self.view_seq + 1, self.last_seq + 1))
            self.view_seq = self.last_seq
            if self.first:
                out.append({"type": "visibility", "visible": True})
                out.append({"type": "resync", "after": max(0, self.last_seq - self.LOG_LOOKBACK), "id": "hand-log"})
            self.first = False
            self._hand(frame.get("hand"))
            return out, shown, bool(self.legal)
        if kind == "pong" and isinstance(frame.get("seq"), int) and frame["seq"] > self.last_seq:
            if not self.snapshot_wanted:
                self.snapshot_wanted = True
                out.append({"type": "snapshot"})
            return out, shown, False
        if kind != "events" or frame.get("id") is not None:
            return out, shown, False
        for event in frame.get("events", []):
            if event["seq"] <= self.last_seq:
                continue
            if event["seq"] != self.last_seq + 1:
                if not self.snapshot_wanted:
                    self.snapshot_wanted = True
                    out.append({"type": "snapshot"})
                return out, shown, False
            self.last_seq = event["seq"]
        screen = frame.get("screen")
        if screen and screen["seq"] == self.last_seq:
            shown = list(range(self.view_seq + 1, self.last_seq + 1))
            self.view_seq = self.last_seq
            if "hand" in screen:
                self._hand(screen["hand"])
            return out, shown, bool(self.legal)
        return out, shown, False

    def ping(self, kind: str = "ping") -> Frame:
        self.pings += 1
        return {"type": kind, "id": f"heartbeat-{self.pings}"}

    @staticmethod
    def action(verb: str, amount: int | None, request_id: str) -> Frame:
        """main.js sendAction: "see" has its own message; an amount only when there is one."""
        frame: Frame = (
            {"type": "see", "id": request_id} if verb == "see" else {"type": "action", "verb": verb, "id": request_id}
        )
        if amount is not None:
            frame["amount"] = amount
        return frame


class PullingPage:
    """The frames the table page sent before views were pushed (static/js/table.js up to
    issue 13): on connect, one ``resync`` for the log in words; after each ``events`` frame
    with news, a ``snapshot`` (one at a time); it acts on the snapshot's view."""

    LOG_LOOKBACK = 400

    def __init__(self) -> None:
        self.last_seq = 0
        self.view_seq = 0  # seq of the newest view this page holds
        self.first = True
        self.snapshot_wanted = False
        self.legal: list[Frame] = []

    def on_frame(self, frame: Frame) -> tuple[list[Frame], list[int], bool]:
        """(frames to send, seqs whose news this frame brought onto the screen, may act now)."""
        kind = frame.get("type")
        out: list[Frame] = []
        if kind == "snapshot":
            self.snapshot_wanted = False
            seq = frame.get("seq") or 0
            shown = list(range(self.view_seq + 1, seq + 1))
            self.view_seq = max(self.view_seq, seq)
            self.last_seq = max(self.last_seq, seq)
            if self.first:
                out.append({"type": "resync", "after": max(0, seq - self.LOG_LOOKBACK), "id": "hand-log"})
            self.first = False
            view = (frame.get("hand") or {}).get("view") or {}
            # The scripted player acts on its turn only (a Teen Patti view also offers "see" out of turn).
            self.legal = (view.get("legal") or []) if str(view.get("to_act")) == str(frame.get("you")) else []
            return out, shown, bool(self.legal)
        if kind == "events" and frame.get("id") is None:
            news = gap = False
            for event in frame.get("events", []):
                if event["seq"] <= self.last_seq:
                    continue
                if event["seq"] != self.last_seq + 1:
                    gap = True
                    continue
                self.last_seq = event["seq"]
                news = news or "kind" in event
            if gap:
                out.append({"type": "resync", "after": self.last_seq})
            elif news and not self.snapshot_wanted:
                self.snapshot_wanted = True
                out.append({"type": "snapshot"})
            self.legal = []  # the page acts on its fresh view only
        return out, [], False
