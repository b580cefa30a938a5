"""Paying during an open season (docs/ledger.md, "Paid during the season"): a transfer the open
season lists, marked paid before the season closes, becomes a payment kept apart from the
nights' chips; the season's transfers are then worked out from what is left
(``homegames.selectors_seasons.season_left_to_pay``). Keyword-only, one transaction each, the
home game's row locked; every refusal raises ``HomeGameError`` and writes nothing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from homegames.models import HomeGame, SeasonPayment
from homegames.selectors_seasons import season_open
from homegames.services_members import HomeGameError, locked_home_game

if TYPE_CHECKING:
    from accounts.models import User


def season_payment_marker(*, home_game: HomeGame, payer_key: str, payee_key: str, by: User) -> str:
    """As whom ``by`` may mark a season's transfer paid: its payer or its payee (their account),
    or the host (any); ``""`` for anyone else."""
    mine = f"user:{by.pk}"
    if mine == payer_key:
        return SeasonPayment.MarkedAs.PAYER
    if mine == payee_key:
        return SeasonPayment.MarkedAs.PAYEE
    if home_game.host_id == by.pk:
        return SeasonPayment.MarkedAs.HOST
    return ""


@transaction.atomic
def season_payment_mark(
    *, home_game: HomeGame, payer_key: str, payee_key: str, amount: Decimal, by: User
) -> SeasonPayment:
    """A transfer of the open season marked paid: only one it lists now, at its amount, by its
    payer, its payee or the host. The payment is then subtracted from what the season lists."""
    home_game = locked_home_game(home_game)
    marked_as = season_payment_marker(home_game=home_game, payer_key=payer_key, payee_key=payee_key, by=by)
    if not marked_as or not (marked_as == SeasonPayment.MarkedAs.HOST or home_game.members.filter(pk=by.pk).exists()):
        raise HomeGameError("not_party", _("Only the payer, the payee or the host can mark a transfer paid."))
    view = season_open(home_game=home_game)
    listed = next(
        (
            line
            for line in view.transfers
            if (line.payer_key, line.payee_key, line.amount) == (payer_key, payee_key, amount)
        ),
        None,
    )
    if listed is None or view.error:
        raise HomeGameError("no_such_transfer", _("The settlement has no such transfer."))
    return SeasonPayment.objects.create(
        home_game=home_game,
        payer_key=payer_key,
        payee_key=payee_key,
        payer_name=listed.payer_name[:40],
        payee_name=listed.payee_name[:40],
        amount=amount,
        currency=view.currency,
        marked_by=by,
        marked_as=marked_as,
    )


@transaction.atomic
def season_payment_unmark(*, payment: SeasonPayment, by: User) -> None:
    """A payment of the open season taken back (it was a note): by the host, any, or by whoever
    marked it. Refused once its season is closed (``season_closed``): the closed season's
    transfers were worked out after it."""
    home_game = locked_home_game(payment.home_game)
    payment = SeasonPayment.objects.select_for_update().get(pk=payment.pk)
    if home_game.host_id != by.pk and payment.marked_by_id != by.pk:
        raise HomeGameError("not_party", _("Only whoever marked it, or the host, can take the mark back."))
    if payment.season_id is not None:
        raise HomeGameError(
            "season_closed", _("This payment's season is closed; its transfers were worked out after it.")
        )
    payment.delete()
