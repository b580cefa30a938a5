"""Celery behind a typed face: Celery ships no type information, so a task or a signal
receiver made with its decorators would be untyped to mypy, and so would every call to it.

``task`` registers a function with the app (``config.celery.app``) as Celery's own
``app.task`` does and gives it back as a :class:`QueuedTask`: callable as the function
it was, queued with ``delay`` or ``apply_async``, each checked against the function's
parameters. ``on_worker_ready`` connects a receiver to Celery's ``worker_ready`` signal.
These are the only places the project touches Celery's untyped decorators.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, Protocol, TypeVar

from celery.signals import worker_ready

from config.celery import app

P = ParamSpec("P")
R = TypeVar("R", covariant=True)


class QueuedTask(Protocol[P, R]):
    """A Celery task as the project uses it (what Celery's ``Task`` offers, typed)."""

    name: str

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run it here and now, as the function."""
        ...

    def delay(self, *args: P.args, **kwargs: P.kwargs) -> object:
        """Queue it at once with these arguments."""
        ...

    def apply_async(self, args: tuple[object, ...] = (), *, countdown: float | None = None) -> object:
        """Queue it with ``args``, to run ``countdown`` seconds from now (at once: ``None``)."""
        ...


def task(*, name: str, ignore_result: bool = True) -> Callable[[Callable[P, R]], QueuedTask[P, R]]:
    """``@task(name=...)``: register the function as the Celery task ``name`` (see the module)."""

    def register(function: Callable[P, R]) -> QueuedTask[P, R]:
        registered: QueuedTask[P, R] = app.task(name=name, ignore_result=ignore_result)(function)
        return registered

    return register


def on_worker_ready(receiver: Callable[..., None]) -> Callable[..., None]:
    """``@on_worker_ready``: call ``receiver`` when a Celery worker of this process is ready."""
    worker_ready.connect(receiver)
    return receiver
