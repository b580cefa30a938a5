"""The text of each socket's ``events`` frame for pushed news: each distinct part encoded once.

A piece of news (the layer message ``{"events": [...], "screen": {...}}`` that
``tables.services.log`` broadcasts, with the views of ``tables.what_viewers_see``) reaches every
socket of its table in this process as one decoded message (``config.channel_layer``).
Each socket is sent

    {"type": "events", "events": <the events as its viewer may see them>,
     "screen": <the screen, with its viewer's view only>}

Before, every socket built that reply as new dictionaries and encoded all of it to JSON:
the same events, table, seats and turn once per socket, a few kilobytes each, on the
event loop that delivers every frame. Here the text is assembled from parts each encoded
once per message: the events for each pattern of what a viewer may see of them (one
pattern for news that hides nothing), the screen around the view, and each view, which
``tables.what_viewers_see`` already encoded in the writer's thread. Sockets whose viewers see the
same (every watcher) share one text. The text is the JSON the project's encoder
(``tables.messages.json_text``) makes of the whole reply, byte for byte (``tests/tables/test_news_frames.py``).

What a viewer may see is not decided here: :func:`tables.selectors.event_visible` and
:func:`tables.selectors.view_key` decide it (with ``frame_for_viewer``, the one place),
and the parts are kept by what they decided.

Parts are kept for the last few hundred messages, keyed by the message object itself (a
strong reference is held, so its id is not reused while kept); a message gone from the
cache is encoded again, never wrongly. Messages are read-only (``config.channel_layer``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from tables.messages import EventFrame, HandScreen, NewsScreen, TableEventsMessage, json_text
from tables.selectors import event_visible, frame_for_viewer, view_key

# The sockets of one table take a message within a few turns of the event loop.
KEPT = 256

_kept: OrderedDict[int, tuple[TableEventsMessage, dict[Any, str]]] = OrderedDict()
_kept_lock = threading.Lock()


def _parts(message: TableEventsMessage) -> dict[Any, str]:
    """The texts already made for this message (a dict to add to), kept by its identity."""
    key = id(message)
    with _kept_lock:
        entry = _kept.get(key)
        if entry is not None and entry[0] is message:
            return entry[1]
        parts: dict[Any, str] = {}
        _kept[key] = (message, parts)
        if len(_kept) > KEPT:
            _kept.popitem(last=False)
        return parts


def _events_text(parts: dict[Any, str], frames: list[EventFrame], start: int, viewer: str | None) -> str:
    if "open" not in parts:
        # News that hides nothing (most of it) is the same for every viewer.
        parts["open"] = "" if any(frame.get("visible_to") is not None for frame in frames) else "yes"
    pattern = None if parts["open"] else tuple(event_visible(frame, viewer) for frame in frames[start:])
    key = ("events", start, pattern)
    text = parts.get(key)
    if text is None:
        text = parts[key] = json_text([frame_for_viewer(frame, viewer) for frame in frames[start:]])
    return text


def _hand_text(parts: dict[Any, str], hand: HandScreen | None, which: str | None) -> str:
    if hand is None:
        return "null"
    view = hand["public"] if which is None else hand["views"][which]
    if not isinstance(view, str):  # a view sent as data (not by tables.what_viewers_see)
        view = json_text(view)
    before = parts.get(("hand", "before"))
    if before is None:
        # What every viewer's hand shares, encoded once per message: its view goes between.
        head = json_text({"number": hand["number"], "dealer": hand["dealer"], "finished": hand["finished"]})
        before = parts[("hand", "before")] = f'{head[:-1]},"view":'
        parts[("hand", "after")] = f',"turn":{json_text(hand["turn"])}}}'
    return f"{before}{view}{parts[('hand', 'after')]}"


def _screen_text(parts: dict[Any, str], screen: NewsScreen, viewer: str | None) -> str:
    hand = screen.get("hand")
    which = view_key(hand, viewer) if hand is not None else None
    key = ("screen", which)
    text = parts.get(key)
    if text is None:
        rest = parts.get(("rest",))
        if rest is None:
            # The table, seats and requests: the same for every viewer, encoded once per message.
            rest = parts[("rest",)] = json_text({name: value for name, value in screen.items() if name != "hand"})
        if "hand" in screen:
            rest = f'{rest[:-1]},"hand":{_hand_text(parts, hand, which)}}}'
        text = parts[key] = rest
    return text


def news_text(message: TableEventsMessage, *, after: int, viewer: str | None) -> str:
    """The ``events`` frame one socket is sent of ``message``: the events after seq
    ``after`` as ``viewer`` may see them, and the screen after them with ``viewer``'s view
    when the message has one exact at its last event."""
    frames = message["events"]
    start = 0
    while start < len(frames) and frames[start]["seq"] <= after:
        start += 1
    parts = _parts(message)
    text = f'{{"type":"events","events":{_events_text(parts, frames, start, viewer)}'
    screen = message.get("screen")
    if screen is not None and frames and screen["seq"] == frames[-1]["seq"]:
        text = f'{text},"screen":{_screen_text(parts, screen, viewer)}'
    return text + "}"


def text_with(text: str, key: str, value: Any) -> str:
    """A frame's JSON text with one more key, last (as adding it to the dict did)."""
    return f"{text[:-1]},{json_text(key)}:{json_text(value)}}}"
