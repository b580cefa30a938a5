"""Accounts' pages beyond Django's own auth views: sign up and the profile.

Log in, log out (POST only), password change and reset are Django's views, wired in
accounts/urls.py with templates under templates/registration/.
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.generic import CreateView, UpdateView

from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User


class SignUpView(CreateView):
    """Create an account and log the new player in (a logged-in player is sent home)."""

    form_class = SignUpForm
    template_name = "accounts/signup.html"
    success_url = reverse_lazy("home")

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: SignUpForm):
        response = super().form_valid(form)
        login(self.request, self.object, backend="django.contrib.auth.backends.ModelBackend")
        welcome = _("Welcome, %(name)s. Your account is ready.") % {"name": self.object.table_name}
        messages.success(self.request, welcome)
        return response


class ProfileView(LoginRequiredMixin, UpdateView):
    """The signed-in player changes their display name."""

    form_class = ProfileForm
    template_name = "accounts/profile.html"
    success_url = reverse_lazy("profile")

    def get_object(self, queryset=None) -> User:
        return self.request.user

    def form_valid(self, form: ProfileForm):
        messages.success(self.request, _("Your profile is saved."))
        return super().form_valid(form)
