"""The site's language for one visitor: the account's choice, else the cookie, else the browser.

Django's LocaleMiddleware picks the language from the language cookie (a guest's choice,
made with the switcher) or the browser's Accept-Language header on the first visit.
:class:`AccountLanguageMiddleware` runs after authentication and puts a logged-in
player's own choice (``User.language``) above both, so the language follows the account
to every device; it also writes the cookie, so the choice stays after logging out. An
account with no choice ("the browser's language") keeps the language its pages were last
shown in (``User.browser_language``), so :func:`mail_language` writes its mails, which
have no browser to ask, in the language its player reads the site in.

:func:`set_language` is Django's view of the same name that also saves the choice to the
account. :func:`language_for_scope` gives a WebSocket the same answer a page would get.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from accounts.models import User

SUPPORTED = frozenset(code for code, _name in settings.LANGUAGES)


def account_language(user: Any) -> str | None:
    """The language a logged-in player chose, or None (guest, or no choice yet)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    language = getattr(user, "language", "")
    return language if language in SUPPORTED else None


def mail_language(user: Any) -> str:
    """The language of a mail to ``user``: the account's choice, else the one its pages were
    last shown in (the browser's), else the site's default."""
    for language in (getattr(user, "language", ""), getattr(user, "browser_language", "")):
        if language in SUPPORTED:
            return str(language)
    return str(settings.LANGUAGE_CODE)


def _remember_browser_language(request: HttpRequest) -> None:
    """A logged-in player who follows the browser: the language this page was shown in, kept
    on the account when it changed (one UPDATE then, none on the other requests)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or account_language(user):
        return
    shown = getattr(request, "LANGUAGE_CODE", "")
    if shown in SUPPORTED and user.browser_language != shown:
        User.objects.filter(pk=user.pk).update(browser_language=shown)
        user.browser_language = shown


def _set_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class AccountLanguageMiddleware:
    """A logged-in player's language wins over the cookie and the browser (after AuthenticationMiddleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = account_language(getattr(request, "user", None))
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # The user may have changed in this request (login, logout, the switcher).
        _remember_browser_language(request)
        language = account_language(getattr(request, "user", None))
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            if not response.cookies.get(settings.LANGUAGE_COOKIE_NAME):
                _set_cookie(response, language)
        return response


@receiver(user_logged_in)
def _apply_language_at_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """At login the account's language takes over; an account with no choice yet keeps the
    one the visitor made as a guest with the switcher (the cookie)."""
    if request is None:
        return
    language = account_language(user)
    if language is None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen in SUPPORTED:
            user.language = chosen
            user.save(update_fields=["language"])
            language = chosen
    if language:
        translation.activate(language)
        request.LANGUAGE_CODE = language


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (POST ``language`` and ``next``), remembered by the account too."""
    response = django_set_language(request)
    language = request.POST.get("language") if request.method == "POST" else None
    user = getattr(request, "user", None)
    if language in SUPPORTED and user is not None and user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a WebSocket (Channels scope): the same rule as for a page."""
    language = account_language(scope.get("user"))
    if language:
        return language
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
