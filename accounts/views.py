"""Accounts' pages beyond Django's own auth views: sign up and the profile.

Log in, log out (POST only), password change and reset are Django's views, wired in
accounts/urls.py with templates under templates/registration/. Logging in is throttled by
django-axes (``AXES_*`` in config/settings.py); its lockout page is :func:`login_locked_out`.
Asking for a password reset is limited per client address and per e-mail address
(:class:`LimitedPasswordResetView`).
"""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import CreateView, UpdateView

from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.services import email_change_tell
from accounts.signals import signed_up
from config.limits import CacheLimit, client_address, secret_digest


def safe_next(request: HttpRequest) -> str:
    """The ``next`` page asked for (an invite's join page, say), if it is on this site; else ""."""
    target = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME) or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


class SignUpView(CreateView[User, SignUpForm]):
    """Create an account and log the new player in, then go on to ``next`` (an invite they
    came from) when it is a page of this site, else home. A logged-in player goes there at once."""

    form_class = SignUpForm
    template_name = "accounts/signup.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return redirect(safe_next(request) or "home")
        return super().dispatch(request, *args, **kwargs)

    def get_success_url(self) -> str:
        return safe_next(self.request) or resolve_url("home")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["next"] = safe_next(self.request)
        return context

    def form_valid(self, form: SignUpForm) -> HttpResponse:
        response = super().form_valid(form)
        user = form.instance  # saved by form_valid above (it is also self.object)
        signed_up.send(sender=User, user=user, time_zone=form.cleaned_data.get("time_zone") or "")
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        welcome = _("Welcome, %(name)s. Your account is ready.") % {"name": user.table_name}
        messages.success(self.request, welcome)
        return response


class ProfileView(LoginRequiredMixin, UpdateView[User, ProfileForm]):
    """The signed-in player changes their display name, e-mail address and language; a new
    address gets the invitations that waited for one (``accounts.services.email_change_tell``)."""

    form_class = ProfileForm
    template_name = "accounts/profile.html"
    success_url = reverse_lazy("profile")

    def get_object(self, queryset: QuerySet[User] | None = None) -> User:
        user = self.request.user
        assert isinstance(user, User)  # LoginRequiredMixin lets only a signed-in player in
        return user

    def form_valid(self, form: ProfileForm) -> HttpResponse:
        messages.success(self.request, _("Your profile is saved."))
        with transaction.atomic():  # a new address and what it sends, together
            email_change_tell(user=form.instance, before=str(form.initial.get("email") or ""))
            return super().form_valid(form)


def login_locked_out(request: HttpRequest, original_response: HttpResponse | None, credentials: object) -> HttpResponse:
    """django-axes' answer to a login locked out (``AXES_LOCKOUT_CALLABLE``): a page saying
    why and for how long, status 429."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "registration/locked_out.html", context, status=429)


#: Password-reset requests one client address may make, and reset mails one e-mail address
#: is sent, in an hour from the first (docs/operations.md, "Password-reset mail").
RESETS_PER_ADDRESS = CacheLimit("reset-address", 10, window=3600, setting="DASHAIN_RESETS_PER_ADDRESS")
RESETS_PER_TARGET = CacheLimit("reset-target", 3, window=3600, setting="DASHAIN_RESETS_PER_TARGET")


class LimitedPasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, limited so that nobody can make the site mail one inbox
    again and again. Each request (a well-formed address, known or not) counts against the
    client's address: past ``RESETS_PER_ADDRESS`` the page answers 429 with ``Retry-After``
    and sends nothing. Each e-mail address asked for counts too, from whichever client:
    past ``RESETS_PER_TARGET`` no mail goes out, and the page says what it always says, so
    it never tells whether an account has that address."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        wait = RESETS_PER_ADDRESS.retry_after(client_address(request))
        if wait:
            minutes = max(1, -(-wait // 60))
            response = render(request, "registration/password_reset_limited.html", {"minutes": minutes}, status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        RESETS_PER_ADDRESS.hit(client_address(self.request))
        target = secret_digest(form.cleaned_data["email"].strip().lower())
        if RESETS_PER_TARGET.retry_after(target):
            return HttpResponseRedirect(self.get_success_url())  # the same page, and no mail
        RESETS_PER_TARGET.hit(target)
        return super().form_valid(form)
