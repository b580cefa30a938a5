"""The site's own error pages: not found, forbidden, bad request, server error, expired form.

Django renders a plain or technical page unless a project names its own. These handlers
render the site's templates instead, so a player who mistypes an invite or opens a
download too early reads a sentence in the site's look, never a URL pattern list.

A project's own refusal (``Http404(_("There is no table with that code."))``) is shown
as the page's message; Django's own texts (an unmatched URL, ``get_object_or_404``'s
"No Table matches the given query.") are not, since they name code, not what happened.

The server-error page does not extend the base layout and is rendered without the
request: whatever broke (the database, a context processor) must not break it too. When
what broke is the database being out of reach (stopped, restarting, a dropped connection),
the answer is 503 with ``Retry-After`` and a page that says to wait, not a bug's 500: the
same request can work once the database is back. Any other database error (a migration not
run, a statement timeout) is still a 500: waiting will not mend it.
"""

from __future__ import annotations

import sqlite3
import sys

from django.db import InterfaceError, OperationalError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotFound,
    HttpResponseServerError,
)
from django.template import loader


def _readable(exception: Exception | None) -> str:
    """The exception's message if the project wrote it for a player, else ""."""
    if exception is None or not exception.args or not isinstance(exception.args[0], str):
        return ""
    message = exception.args[0]
    if message.endswith("matches the given query."):  # get_object_or_404 names the model
        return ""
    return message


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    body = loader.render_to_string("errors/404.html", {"message": _readable(exception)}, request)
    return HttpResponseNotFound(body)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    body = loader.render_to_string("errors/403.html", {"message": _readable(exception)}, request)
    return HttpResponseForbidden(body)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    body = loader.render_to_string("errors/400.html", {}, request)
    return HttpResponseBadRequest(body)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """An expired or foreign form (CSRF_FAILURE_VIEW): say how to send it again."""
    body = loader.render_to_string("errors/403_csrf.html", {}, request)
    return HttpResponseForbidden(body)


#: Seconds a page asks a browser (or a proxy) to wait when the database is out of reach.
DATABASE_RETRY_SECONDS = 30


#: PostgreSQL's SQLSTATEs of a server out of reach: class 08 (the connection failed or broke),
#: and the server shutting down, crashed or starting up (57P01, 57P02, 57P03). A statement
#: cancelled by its timeout (57014) or a deadlock is the request's own trouble, not an outage.
OUTAGE_SQLSTATE_CLASSES = ("08",)
OUTAGE_SQLSTATES = ("57P01", "57P02", "57P03")


def _connection_lost(cause: BaseException | None) -> bool:
    """Whether the driver's error under Django's ``OperationalError`` says the database
    could not be reached, rather than that it refused this request."""
    if isinstance(cause, sqlite3.Error):
        # SQLite is a file: only a lock held by another writer passes; "no such table" (a
        # migration not run) or a broken file will not mend by waiting.
        return "database is locked" in str(cause)
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate is None:
        return True  # no answer from a server at all: refused, reset, timed out
    return str(sqlstate).startswith(OUTAGE_SQLSTATE_CLASSES) or sqlstate in OUTAGE_SQLSTATES


def _database_out_of_reach(error: BaseException | None) -> bool:
    """Whether ``error``, or the exception it was raised from or while handling (unless
    raised ``from None``), is the database being out of reach."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, InterfaceError):
            return True  # the connection is closed or unusable
        if isinstance(error, OperationalError):
            return _connection_lost(error.__cause__)
        seen.add(id(error))
        error = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls it while the exception is being handled, so ``sys.exc_info`` names it."""
    if _database_out_of_reach(sys.exc_info()[1]):
        response = HttpResponse(loader.render_to_string("errors/503.html"), status=503)
        response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
        return response
    return HttpResponseServerError(loader.render_to_string("errors/500.html"))
