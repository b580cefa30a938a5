"""A WebSocket's ``Origin`` checked in full: scheme, host and port.

Channels' ``AllowedHostsOriginValidator`` compares only the origin's host with
``ALLOWED_HOSTS``, so a page at ``http://127.0.0.1:9999``, ``http://localhost:1234`` or
``https://127.0.0.1`` could open a socket to a site at ``http://127.0.0.1:8000`` with the
visitor's cookies (issue 24). A socket is accepted here only when its ``Origin`` is

- the site's own origin, as the browser addressed it: the scheme the site is served with
  (the socket's own ``wss``/``ws`` when the server says, else ``X-Forwarded-Proto`` from the
  proxy, else ``https`` when ``HTTPS_ONLY`` is on and ``http`` when it is off), and the
  socket request's ``Host`` (host and port), that ``Host`` being one of ``ALLOWED_HOSTS``
  (so a name rebound to this server's address is still refused); or
- one of ``CSRF_TRUSTED_ORIGINS``, as Django's CSRF check reads them (scheme, host, port;
  ``https://*.example.org`` for any subdomain).

Default ports are the same as none (``https://example.org:443`` is ``https://example.org``).
Anything else, a missing or unreadable ``Origin`` included, is refused before the socket
is accepted, as Channels' validators refuse (an HTTP 403 to the handshake).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://cards.example.org:8443``."""
    try:
        parts = urlsplit(origin.strip())
        scheme, host, port = parts.scheme.lower(), (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.username:
        return None
    return scheme, host, port if port is not None else DEFAULT_PORTS[scheme]


def _allowed_hosts() -> list[str]:
    """``ALLOWED_HOSTS`` as Django's ``HttpRequest.get_host`` reads it (with DEBUG and none set, localhost)."""
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return allowed


def own_scheme(scope: dict[str, Any] | Any) -> str:
    """The scheme the browser reached this site with."""
    scheme = str(scope.get("scheme") or "").lower()
    if scheme in ("wss", "https"):
        return "https"
    if scheme in ("ws", "http"):
        return "http"
    forwarded = _header(scope, b"x-forwarded-proto")
    if forwarded is not None and forwarded.split(",")[0].strip().lower() in DEFAULT_PORTS:
        return forwarded.split(",")[0].strip().lower()
    return "https" if getattr(settings, "HTTPS_ONLY", True) else "http"


def _header(scope: dict[str, Any] | Any, name: bytes) -> str | None:
    for header, value in scope.get("headers", []):
        if header == name:
            try:
                return bytes(value).decode("latin1")
            except (TypeError, ValueError):
                return None
    return None


def origin_allowed(origin: str | None, *, host: str | None, scheme: str) -> bool:
    """Whether a socket whose request came to ``host`` (its ``Host`` header) over ``scheme``
    (``http`` or ``https``) may be opened from ``origin``."""
    if not origin:
        return False
    parts = _origin_parts(origin)
    if parts is None:
        return False
    if host:
        domain, port = split_domain_port(host.strip().lower())
        if domain and validate_host(domain, _allowed_hosts()):
            own = (scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme])
            if parts == own:
                return True
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:  # as Django's CSRF check reads one: any subdomain, same scheme
            wanted = urlsplit(trusted)
            if wanted.scheme.lower() == parts[0] and is_same_domain(
                urlsplit(origin.strip()).netloc.lower(), wanted.netloc.lower().lstrip("*")
            ):
                return True
        elif _origin_parts(trusted) == parts:
            return True
    return False


class SiteOriginValidator:
    """An ASGI middleware in the place of Channels' ``OriginValidator``, its list replaced by
    :func:`origin_allowed`: the site's own origin (scheme, host and port of the socket's
    request) and ``CSRF_TRUSTED_ORIGINS``. A refused socket gets Channels' own denial."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("You cannot use SiteOriginValidator on a non-WebSocket connection")
        if origin_allowed(_header(scope, b"origin"), host=_header(scope, b"host"), scheme=own_scheme(scope)):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
