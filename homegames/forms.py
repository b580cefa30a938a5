"""Forms of the home game's pages: a template (the lobby's table settings and a name), a night, an
answer, a time zone; a new home game, a table added to one, a transfer marked paid, a correction,
the settle-up, the e-mail address of someone joining."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.names import name_clean
from accounts.zones import zone_choices
from homegames.models import Answer, HomeGame, NightTemplate
from tables.models import Table

if TYPE_CHECKING:  # generic to the type checker only (django-stubs); a plain class at run time
    _ModelChoiceField = forms.ModelChoiceField[Table]
else:
    _ModelChoiceField = forms.ModelChoiceField


class TemplateNameForm(forms.Form):
    """The template's name; its settings are the lobby's form (``tables.pages.forms.OpenTableForm``)."""

    name = forms.CharField(label=_("Template name"), max_length=60, help_text=_("Such as “our Faras”."))


#: The value of a game offered on the night's form with its usual settings (no template).
GAME_VALUE = "game:"


class NightForm(forms.Form):
    """A night's date, time, place, game and seat limit. The game is one of ``templates`` (the
    home game's own) or, with ``games`` (``(game, name)`` pairs), a game with its usual
    settings: a new host schedules straight away. Cleaned, ``template`` is the template, or
    the game's name for its usual settings; ``seat_limit`` empty is None (every seat)."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, help_text=_("Where, in words: “Asha's flat”."))
    template = forms.ChoiceField(label=_("Game and house rules"))
    seat_limit = forms.IntegerField(
        label=_("Seat limit"),
        min_value=2,
        max_value=16,
        required=False,
        help_text=_("How many seats the night has; later yeses wait. Leave it empty for every seat at the table."),
    )

    def __init__(
        self,
        *args: Any,
        templates: Iterable[NightTemplate] = (),
        games: Sequence[tuple[str, Any]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.templates = {str(template.pk): template for template in templates}
        own = [(key, template.name) for key, template in self.templates.items()]
        usual = [(GAME_VALUE + game, name) for game, name in games]
        field = self.fields["template"]
        assert isinstance(field, forms.ChoiceField)  # declared above
        if own and usual:
            field.choices = [(_("Your templates"), own), (_("A game with its usual settings"), usual)]
        else:
            field.choices = own or usual
        if "template" not in self.initial and (own or usual):
            self.initial["template"] = (own or usual)[0][0]

    def clean_template(self) -> NightTemplate | str:
        value: str = self.cleaned_data["template"]
        return self.templates[value] if value in self.templates else value.removeprefix(GAME_VALUE)


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


class HomeGameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=80, help_text=_("What your group calls its game, such as “Friday Faras”.")
    )

    def clean_name(self) -> str:
        return name_clean(self.cleaned_data["name"], max_length=80)


class _TableChoiceField(_ModelChoiceField):
    """A table named with the day it was opened."""

    def label_from_instance(self, obj: Table) -> str:
        return f"{obj} · {obj.created_at:%Y-%m-%d}"


class AddTableForm(forms.Form):
    table = _TableChoiceField(label=_("Table"), queryset=Table.objects.none(), empty_label=None)

    def __init__(self, *args: Any, tables: QuerySet[Table] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tables is not None:
            field = self.fields["table"]
            assert isinstance(field, forms.ModelChoiceField)  # declared above
            field.queryset = tables


class TransferPaidForm(forms.Form):
    payer = forms.IntegerField(min_value=1)
    payee = forms.IntegerField(min_value=1)
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    paid = forms.BooleanField(required=False)


class SettleByForm(forms.Form):
    settle_by = forms.ChoiceField(label=_("Settle up"), choices=HomeGame.SettleBy.choices, widget=forms.RadioSelect)


class SeasonTransferPaidForm(forms.Form):
    paid = forms.BooleanField(required=False)


class CorrectionForm(forms.Form):
    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Why was it a mistake?"),
        max_length=200,
        help_text=_("Everyone at the table sees the reason and who corrected it."),
    )


class JoinEmailForm(forms.Form):
    """The e-mail address of someone joining a home game who has none yet."""

    email = forms.EmailField(
        label=_("Your e-mail address (optional)"),
        required=False,
        help_text=_(
            "The home game's invitations, reminders and waiting-list news come by e-mail. Without an "
            "address you get none of them; the host sees who has no address. You can add it later in your profile."
        ),
    )


class SeasonPaidForm(forms.Form):
    """A transfer the open season lists, marked paid: its people as the season keys them."""

    payer = forms.CharField(max_length=60)
    payee = forms.CharField(max_length=60)
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
