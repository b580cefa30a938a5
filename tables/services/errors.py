"""The one error every table service raises: a stable code and a sentence for people.

A service that raises changes nothing: every service runs in one transaction, and
the error is raised before anything is written or rolls the transaction back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import InterfaceError, OperationalError
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

#: What Django raises when the database cannot be reached (stopped, restarting, a connection
#: it dropped): the request was not carried out, or, cut off in its commit, may have been.
#: Either way a resend with the same client action id is applied once (docs/operations.md).
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
#: The answer to a request the database's absence stopped (code ``unavailable``).
TRY_AGAIN = gettext_lazy("The table is catching its breath: its records cannot be reached. Try again in a moment.")


class ServiceError(Exception):
    """A request the table cannot carry out. ``code`` is stable (clients switch on it);
    ``message`` is translated (a lazy string) or, for the engine's refusals, plain English."""

    def __init__(self, code: str, message: str | StrPromise, *, field: str | None = None) -> None:
        super().__init__(force_str(message))
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, str]:
        out = {"code": self.code, "message": force_str(self.message)}
        if self.field:
            out["field"] = self.field
        return out


def unavailable_error() -> ServiceError:
    """The refusal of a request the database's absence stopped (``DATABASE_UNAVAILABLE``)."""
    return ServiceError("unavailable", TRY_AGAIN)
