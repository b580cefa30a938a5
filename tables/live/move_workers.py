"""Players' moves played by Channels' own workers (``manage.py runworker``), off the socket servers.

A daphne process runs every socket's frames on its event loop and, by default, the
services it calls for them in its own threads, under one interpreter lock. With
``DASHAIN_MOVE_WORKERS`` on (PostgreSQL and Redis), a move (``tables.services.hand_act``,
``hand_see``) is sent instead on the channel ``table-moves`` of the ``moves`` channel
layer, a channels-redis *core* layer (a list on Redis: each message goes to one receiver),
and played by whichever worker takes it::

    python manage.py runworker --layer moves table-moves     (one or more, on any machine)

The worker runs the service as a thread of daphne would, in its own transaction on its own
database connection, publishes the news through the default (pub/sub) layer like any
process, and answers on the consumer's own reply channel with the seq or the refusal (in
the player's language). So socket servers and move workers may run on different machines,
and as many of each as the site needs.

Nothing is lost when a message or a worker is: a consumer that gets no answer within
``ANSWER_SECONDS`` sends a move that carries a client action id (the page's always do) once
more, which any worker plays once, as a resend is a no-op (``hand_act``); a move without one
is answered ``lost`` (it may or may not have been played: the page looks at the table).
Each answer names its request, so a late answer to a request already given up on is dropped.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import Any

from channels.consumer import AsyncConsumer
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from tables import services
from tables.news import remember_server_loop
from tables.services.errors import DATABASE_UNAVAILABLE, ServiceError, unavailable_error

logger = logging.getLogger(__name__)

#: The channel layer alias and the channel the moves go on.
MOVES_LAYER = "moves"
MOVES_CHANNEL = "table-moves"
#: How long a consumer waits for a worker's answer before it sends the move again (or gives up).
ANSWER_SECONDS = 10.0
#: Moves one worker plays at once (each in a thread, on its own database connection): most
#: of a move is waiting for PostgreSQL.
WORKER_THREADS = 4

NOT_AN_ACTION = gettext_lazy("That is not an action.")
LOST = gettext_lazy("The server lost your move on the way. Look at the table, then try again if it is not there.")

#: The moves a worker plays, by the name a consumer sends for the function it was given
#: (never a name from the client).
MOVES: dict[str, Callable[..., int]] = {"hand_act": services.hand_act, "hand_see": services.hand_see}
_MOVE_NAMES = {move: name for name, move in MOVES.items()}


def move_workers_enabled() -> bool:
    return bool(getattr(settings, "DASHAIN_MOVE_WORKERS", False))


class MoveFailed(Exception):
    """The worker met something other than a refusal (its text); the move was rolled back."""


class MoveClient:
    """A consumer's end: sends its moves to the workers and waits for each answer on the
    consumer's own reply channel (made at the first move)."""

    def __init__(self) -> None:
        self.reply_channel: str | None = None
        self._numbers = itertools.count(1)

    async def play(self, move: Callable[..., int], kwargs: dict[str, Any], *, repeatable: bool) -> int:
        """The seq of ``move`` (one of :data:`MOVES`) played by a worker, or its :class:`ServiceError`."""
        name = _MOVE_NAMES[move]
        layer = get_channel_layer(MOVES_LAYER)
        if layer is None:
            raise RuntimeError("DASHAIN_MOVE_WORKERS is on but the 'moves' channel layer is not configured")
        if self.reply_channel is None:
            self.reply_channel = await layer.new_channel("moves-reply.")
        for attempt in (1, 2):
            request = next(self._numbers)
            try:
                await layer.send(
                    MOVES_CHANNEL,
                    {
                        "type": "move.play",
                        "move": name,
                        "kwargs": kwargs,
                        "reply_to": self.reply_channel,
                        "request": request,
                        "language": translation.get_language() or settings.LANGUAGE_CODE,
                    },
                )
            except (TypeError, ValueError):  # a value msgpack cannot carry (nested too deep, say)
                raise ServiceError("bad_verb", NOT_AN_ACTION) from None
            answer = await self._answer(layer, request)
            if answer is None:
                logger.warning("no worker answered move %s (attempt %s)", move, attempt)
                if attempt == 2 or not repeatable:
                    raise ServiceError("lost", LOST)
                continue
            if answer["outcome"] == "refused":
                raise ServiceError(answer["code"], answer["message"], field=answer.get("field"))
            if answer["outcome"] == "failed":
                raise MoveFailed(answer["error"])
            seq: int = answer["seq"]
            return seq
        raise AssertionError("unreachable")

    async def _answer(self, layer: Any, request: int) -> dict[str, Any] | None:
        """The answer to ``request`` (answers to requests given up on are dropped), or None."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_SECONDS
        assert self.reply_channel is not None
        while (left := deadline - loop.time()) > 0:
            try:
                answer: dict[str, Any] = await asyncio.wait_for(layer.receive(self.reply_channel), left)
            except TimeoutError:
                return None
            if answer.get("request") == request:
                return answer
        return None


class MoveWorker(AsyncConsumer):
    """The worker's end (``runworker --layer moves table-moves``): each move in a thread of
    its own (at most ``WORKER_THREADS`` at once), answered on its reply channel."""

    channel_layer_alias = MOVES_LAYER

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._threads = asyncio.Semaphore(WORKER_THREADS)
        self._playing: set[asyncio.Task[None]] = set()

    async def move_play(self, message: dict[str, Any]) -> None:
        # The news of each move is handed to this loop's publisher (tables.news), as in daphne.
        remember_server_loop(asyncio.get_running_loop())
        await self._threads.acquire()  # no more taken off the channel than can be played
        task = asyncio.ensure_future(self._play(message))
        self._playing.add(task)
        task.add_done_callback(self._playing.discard)

    async def _play(self, message: dict[str, Any]) -> None:
        try:
            answer = await database_sync_to_async(_played, thread_sensitive=False)(message)
            await self.channel_layer.send(message["reply_to"], {**answer, "request": message.get("request")})
        except Exception:  # the consumer gives up after ANSWER_SECONDS and says so
            logger.exception("a move could not be answered")
        finally:
            self._threads.release()


def _played(message: dict[str, Any]) -> dict[str, Any]:
    """Play one move (in a worker's thread); its answer, in the player's language."""
    move = MOVES.get(message.get("move"))  # type: ignore[arg-type]
    kwargs = message.get("kwargs")
    if move is None or not isinstance(kwargs, dict):
        return {"outcome": "failed", "error": f"not a move: {message.get('move')!r}"}
    language = message.get("language")
    with translation.override(language if isinstance(language, str) else settings.LANGUAGE_CODE):
        try:
            return {"outcome": "played", "seq": move(**kwargs)}
        except ServiceError as refusal:
            return {"outcome": "refused", "code": refusal.code, "message": str(refusal.message), "field": refusal.field}
        except DATABASE_UNAVAILABLE:  # the database is away: the player is told to try again
            logger.warning("move %s: database unavailable", message.get("move"), exc_info=True)
            return {"outcome": "refused", "code": "unavailable", "message": str(unavailable_error().message)}
        except Exception as error:
            logger.exception("move %s failed", message.get("move"))
            return {"outcome": "failed", "error": f"{type(error).__name__}: {error}"}
