"""Writing a home game's seasons: how it settles up, closing a season, its transfers marked
paid; and the ledger's two writes that a night's season limits (a correction, a transfer of
the night's own settlement marked paid). Keyword-only, one transaction each; every refusal
raises ``HomeGameError`` and writes nothing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from homegames.models import HomeGame, Night, Season, SeasonTransfer
from homegames.selectors_seasons import night_settled_by_season, season_open
from homegames.services_members import HomeGameError, check_home_game_host, locked_home_game
from ledger.models import TransferPaid
from ledger.services import ledger_correct_buy_in, transfer_mark_paid

if TYPE_CHECKING:
    from accounts.models import User
    from ledger.models import LedgerEntry
    from tables.models import Seat, Table


@transaction.atomic
def home_game_set_settle_by(*, home_game: HomeGame, settle_by: str, by: User) -> HomeGame:
    """The host chooses whether the nights are paid one by one or once a season.

    Switching to the season is refused while a night of the open season has a transfer
    marked paid (that night was already being paid on its own), and switching to night by
    night while the open season has a payment marked (the season was already being paid).
    """
    home_game = locked_home_game(home_game)
    check_home_game_host(home_game, by, _("Only the home game's host chooses how it settles up."))
    if settle_by not in HomeGame.SettleBy.values:
        raise HomeGameError("bad_settle_by", _("Choose night by night or once a season."))
    if settle_by == home_game.settle_by:
        return home_game
    open_tables = Night.objects.played().filter(home_game=home_game, season__isnull=True).values("table_id")
    if settle_by == HomeGame.SettleBy.SEASON and TransferPaid.objects.filter(table_id__in=open_tables).exists():
        raise HomeGameError(
            "nights_being_paid",
            _("A night of this season already has a transfer marked paid; close the season first, then switch."),
        )
    if settle_by == HomeGame.SettleBy.NIGHT and home_game.season_payments.filter(season__isnull=True).exists():
        raise HomeGameError(
            "season_being_paid",
            _("This season already has a transfer marked paid; close the season first, then switch."),
        )
    home_game.settle_by = settle_by
    home_game.save(update_fields=["settle_by"])
    return home_game


@transaction.atomic
def season_close(*, home_game: HomeGame, by: User) -> Season:
    """The host closes the open season: its settled nights are counted in it and, when the
    home game settles by season, its fewest transfers are frozen to be marked paid.

    Nights still being played stay for the next season. Refused with no settled night,
    or when the season cannot be netted (nights in different currencies).
    """
    home_game = locked_home_game(home_game)
    check_home_game_host(home_game, by, _("Only the home game's host can close a season."))
    view = season_open(home_game=home_game)
    if not view.nights:
        raise HomeGameError("empty_season", _("No night of this season has been settled yet."))
    if view.error:
        raise HomeGameError("season_not_netted", view.error)
    season = Season.objects.create(
        home_game=home_game,
        number=view.number,
        settle_by=home_game.settle_by,
        currency=view.currency,
        closed_by=by,
    )
    Night.objects.filter(pk__in=[result.night.pk for result in view.nights]).update(season=season)
    # What was paid during the season is the season's own, fixed from now on: its frozen
    # transfers below were worked out after it.
    home_game.season_payments.filter(season__isnull=True).update(season=season)
    if view.by_season:
        SeasonTransfer.objects.bulk_create(
            SeasonTransfer(
                season=season,
                payer_key=line.payer_key,
                payee_key=line.payee_key,
                payer_name=line.payer_name[:40],
                payee_name=line.payee_name[:40],
                amount=line.amount,
            )
            for line in view.transfers
        )
    return season


@transaction.atomic
def season_transfer_mark_paid(*, transfer: SeasonTransfer, paid: bool, by: User) -> SeasonTransfer:
    """A closed season's transfer marked paid, or the mark taken back (a note; ``paid_by``
    shows who made it). The host may mark any; the payer and the payee may mark their own
    transfer, and take back a mark they made themselves (``not_party`` otherwise)."""
    transfer = SeasonTransfer.objects.select_for_update().select_related("season__home_game").get(pk=transfer.pk)
    if transfer.season.home_game.host_id != by.pk:
        if f"user:{by.pk}" not in (transfer.payer_key, transfer.payee_key):
            raise HomeGameError("not_party", _("Only the payer, the payee or the host can mark a transfer paid."))
        if not paid and transfer.paid_by_id not in (None, by.pk):
            raise HomeGameError("not_party", _("Only whoever marked it, or the host, can take the mark back."))
    if paid and transfer.paid_at is None:
        transfer.paid_at, transfer.paid_by = timezone.now(), by
    elif not paid:
        transfer.paid_at, transfer.paid_by = None, None
    transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


@transaction.atomic
def night_correct_buy_in(*, table: Table, entry: LedgerEntry, reason: str, by: User) -> LedgerEntry:
    """The host's correction of a buy-in (``ledger.services.ledger_correct_buy_in``), refused
    (``season_closed``) at a night of a closed season: its results stay as they were settled."""
    if Night.objects.filter(table=table, season__isnull=False).exists():
        raise HomeGameError("season_closed", _("This night's season is closed; its record can no longer change."))
    return ledger_correct_buy_in(table=table, entry=entry, reason=reason, by=by)


@transaction.atomic
def night_transfer_mark_paid(
    *, table: Table, payer_seat: Seat, payee_seat: Seat, amount: Decimal, by: User | None, guest_token: str = ""
) -> TransferPaid:
    """A transfer of a table's own settlement marked paid (``ledger.services.transfer_mark_paid``:
    by its payer, its payee or the host), refused (``settled_by_season``) at a night paid with
    its home game's season."""
    if night_settled_by_season(table=table) is not None:
        raise HomeGameError(
            "settled_by_season", _("This night is settled with its home game's season, not on its own.")
        )
    return transfer_mark_paid(
        table=table, payer_seat=payer_seat, payee_seat=payee_seat, amount=amount, by=by, guest_token=guest_token
    )
