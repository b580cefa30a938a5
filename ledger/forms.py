"""Forms of the ledger's pages: a new home game, a table added to one, a transfer marked paid."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.names import name_clean
from ledger.models import HomeGame
from tables.models import Table


class HomeGameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=80, help_text=_("What your group calls its game, such as “Friday Faras”.")
    )

    def clean_name(self) -> str:
        return name_clean(self.cleaned_data["name"], max_length=80)


class _TableChoiceField(forms.ModelChoiceField[Table]):
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
