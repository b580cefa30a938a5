"""Accounts' forms: sign-up (Django's UserCreationForm with a display name) and the profile.

Passwords are Django's business: hashing, the validators in AUTH_PASSWORD_VALIDATORS
and the "passwords differ" check all come from the base form.
"""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import name_clean
from accounts.zones import zone_choices

# Both forms ask for the same optional e-mail and explain it the same way.
EMAIL_HELP_TEXT = _(
    "Optional. Used for your home games' invitations, reminders and waiting-list news, and to send you a "
    "link if you forget your password."
)


class DisplayNameMixin:
    """The display name checked as every name players read is (``accounts.names``)."""

    def clean_display_name(self) -> str:
        value = self.cleaned_data.get("display_name", "")  # type: ignore[attr-defined]
        return name_clean(value) if value and value.strip() else ""


class SignUpForm(DisplayNameMixin, UserCreationForm[User]):
    """Username, display name, an optional e-mail, the time zone and the password twice.

    Usernames are unique ignoring case (the base form checks it). The e-mail carries the
    home games' mails and a forgotten password's reset link.
    """

    time_zone = forms.ChoiceField(
        label=_("Your time zone"),
        choices=zone_choices,
        initial="UTC",
        required=False,  # a browser always sends the list's choice; a form without it keeps none
        help_text=_("Your home games' nights are shown in it. The one your browser uses is chosen for you."),
    )

    # django-stubs does not declare the base form's Meta, which Django has (so mypy sees Any).
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {"email": EMAIL_HELP_TEXT}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:  # sent back with an error, the list keeps what the person chose
            self.fields["time_zone"].widget.attrs["data-browser-zone"] = ""


class ProfileForm(DisplayNameMixin, forms.ModelForm[User]):
    """What a player may change about themselves: the name shown at the table, the e-mail,
    the site's language (empty: the browser's)."""

    class Meta:
        model = User
        fields = ("display_name", "email", "language")
        help_texts = {"email": EMAIL_HELP_TEXT}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each language in its own name, as the switcher shows it, so a player can find theirs.
        language = self.fields["language"]
        assert isinstance(language, forms.ChoiceField)  # the model field has choices
        language.choices = [("", _("The browser's language"))] + [
            (code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES
        ]
