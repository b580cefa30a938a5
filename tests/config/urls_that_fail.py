"""The site's URLs plus one view that fails, to see the server-error page."""

import sqlite3

import psycopg.errors
from django.db import OperationalError
from django.urls import path

from config.urls import urlpatterns as site_patterns


def broken_view(request):
    raise RuntimeError("a bug in a view")


def database_gone_view(request):
    """What a view meets when PostgreSQL is stopped under it (raised from psycopg's own error)."""
    try:
        raise ConnectionRefusedError("connection refused")
    except ConnectionRefusedError as cause:
        raise OperationalError("connection to server failed: Connection refused") from cause


def during_database_gone_view(request):
    """Another error raised while the database's was being handled (kept as ``__context__``)."""
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        raise RuntimeError("a template could not be rendered")  # noqa: B904 (the context is the point)


def _driver_error(error: Exception):
    """A view that meets ``error`` from the driver, as Django raises it (its ``__cause__``)."""

    def view(request):
        try:
            raise error
        except Exception as cause:
            raise OperationalError(str(cause)) from cause

    return view


def not_the_database_view(request):
    """A bug raised while a database error was handled, on purpose without it (``from None``)."""
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        raise RuntimeError("a bug of its own") from None


urlpatterns = [
    *site_patterns,
    path("broken/", broken_view),
    path("database-gone/", database_gone_view),
    path("during-database-gone/", during_database_gone_view),
    path("server-shutting-down/", _driver_error(psycopg.errors.AdminShutdown("terminating connection"))),
    path("sqlite-locked/", _driver_error(sqlite3.OperationalError("database is locked"))),
    path("migration-not-run/", _driver_error(sqlite3.OperationalError("no such table: tables_table"))),
    path("statement-timeout/", _driver_error(psycopg.errors.QueryCanceled("canceling statement due to timeout"))),
    path("deadlock/", _driver_error(psycopg.errors.DeadlockDetected("deadlock detected"))),
    path("bug-from-none/", not_the_database_view),
]
handler500 = "config.views.server_error"
