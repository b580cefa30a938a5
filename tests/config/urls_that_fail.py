"""The site's URLs plus one view that fails, to see the server-error page."""

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


urlpatterns = [
    *site_patterns,
    path("broken/", broken_view),
    path("database-gone/", database_gone_view),
    path("during-database-gone/", during_database_gone_view),
]
handler500 = "config.views.server_error"
