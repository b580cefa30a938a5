"""Forms of the nights' pages: a template (the lobby's table settings and a name), a night, an answer, a time zone."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from homegames.models import Answer, NightTemplate


def zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class TemplateNameForm(forms.Form):
    """The template's name; its settings are the lobby's form (``tables.pages.forms.OpenTableForm``)."""

    name = forms.CharField(label=_("Template name"), max_length=60, help_text=_("Such as “our Faras”."))


class NightForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, help_text=_("Where, in words: “Asha's flat”."))
    template = forms.ModelChoiceField(label=_("Game and house rules"), queryset=NightTemplate.objects.none())
    seat_limit = forms.IntegerField(label=_("Seat limit"), min_value=2, max_value=16)

    def __init__(self, *args: Any, templates: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["template"]
        assert isinstance(field, forms.ModelChoiceField)
        if templates is not None:
            field.queryset = templates


class AnswerForm(forms.Form):
    reply = forms.ChoiceField(choices=Answer.Reply.choices)
    comment = forms.CharField(
        label=_("A word with your answer (optional)"),
        max_length=100,
        required=False,
        help_text=_("Such as “30 min late”; everyone in the home game sees it."),
    )


class PrefsForm(forms.Form):
    time_zone = forms.ChoiceField(label=_("Your time zone"), choices=zone_choices)
    reminders = forms.BooleanField(
        label=_("E-mail me the day before and an hour before a night I am coming to"), required=False
    )
