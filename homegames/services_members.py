"""Writing a home game's membership: the home game itself, its invite link, members and
co-hosts, the tables counted as its nights, guest seats claimed by members, and each member's
private calendar feed (deleted with the membership). Keyword-only,
one transaction each; every refusal raises :class:`HomeGameError` (``code`` stable,
``message`` translated) and writes nothing.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from homegames.models import CalendarFeed, HomeGame, Night, SeatClaim, new_feed_token
from homegames.selectors import user_can_view_home_game
from ledger.services import LedgerError

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from accounts.models import User
    from tables.models import Seat, Table


class HomeGameError(LedgerError):
    """A home game's write that cannot be made. A kind of the ledger's refusal, so that a page
    or a service that catches the ledger's refusals (the kitchen's) catches these too."""


# --- Home games -------------------------------------------------------------------------


@transaction.atomic
def home_game_create(*, name: str, host: User, members: list[User] | None = None) -> HomeGame:
    """A new home game; the host is always a member."""
    name = (name or "").strip()
    if not name:
        raise HomeGameError("bad_name", _("A home game needs a name."))
    if len(name) > 80:
        raise HomeGameError("bad_name", _("A home game's name has at most 80 characters."))
    home_game = HomeGame.objects.create(name=name, host=host, invite_token=secrets.token_urlsafe(32))
    home_game.members.add(host, *(members or []))
    return home_game


@transaction.atomic
def home_game_add_table(*, home_game: HomeGame, table: Table, by: User) -> Night:
    """Count ``table`` as a night of ``home_game`` (a night with no plan). Only the home game's
    host, for a table they host."""
    if home_game.host_id != by.pk:
        raise HomeGameError("not_host", _("Only the home game's host can add a night."))
    if table.host_id != by.pk:
        raise HomeGameError("not_table_host", _("You can only add a table you host."))
    existing = Night.objects.filter(table=table).select_related("home_game").first()
    if existing:
        if existing.home_game_id == home_game.pk:
            return existing
        raise HomeGameError("already_in_home_game", _("That table already belongs to another home game."))
    night = Night.objects.create(home_game=home_game, table=table, added_at=timezone.now())
    # Everyone with an account who sat at the table joins the group.
    users = [seat.user for seat in table.seats.filter(user__isnull=False).select_related("user") if seat.user]
    home_game.members.add(*users)
    return night


# --- Helpers of every home game's write ---------------------------------------------


def locked_home_game(home_game: HomeGame) -> HomeGame:
    """The home game's row, locked for this transaction (one close or switch at a time)."""
    return HomeGame.objects.select_for_update().get(pk=home_game.pk)


def check_home_game_host(home_game: HomeGame, by: User, message: StrPromise) -> None:
    if home_game.host_id != by.pk:
        raise HomeGameError("not_host", message)


# --- Members, co-hosts, the invite link, claimed seats -----------------------------------


@transaction.atomic
def home_game_invite_replace(*, home_game: HomeGame, by: User) -> HomeGame:
    """The host replaces the invite link: the old one joins no one from now on."""
    home_game = locked_home_game(home_game)
    check_home_game_host(home_game, by, _("Only the home game's host can replace its invite link."))
    home_game.invite_token = secrets.token_urlsafe(32)
    home_game.save(update_fields=["invite_token"])
    return home_game


@transaction.atomic
def home_game_join(*, home_game: HomeGame, token: str, user: User) -> HomeGame:
    """``user`` joins with the home game's current invite link (an account is needed)."""
    home_game = locked_home_game(home_game)
    if not token or not home_game.invite_token or not secrets.compare_digest(token, home_game.invite_token):
        raise HomeGameError("bad_invite", _("This invite link is not valid any more. Ask the host for a new one."))
    home_game.members.add(user)
    return home_game


@transaction.atomic
def home_game_remove_member(*, home_game: HomeGame, member: User, by: User) -> HomeGame:
    """The host removes a member (never the host). The invite link is replaced too, so the
    link the removed member knew joins no one; the host shares the new one."""
    home_game = locked_home_game(home_game)
    check_home_game_host(home_game, by, _("Only the home game's host can remove a member."))
    if member.pk == home_game.host_id:
        raise HomeGameError("remove_host", _("The host cannot be removed from their own home game."))
    if not home_game.members.filter(pk=member.pk).exists():
        raise HomeGameError("not_member", _("That person is not a member of this home game."))
    home_game.members.remove(member)
    home_game.co_hosts.remove(member)
    home_game.invite_token = secrets.token_urlsafe(32)
    home_game.save(update_fields=["invite_token"])
    return home_game


@transaction.atomic
def home_game_set_co_host(*, home_game: HomeGame, member: User, is_co_host: bool, by: User) -> HomeGame:
    """The host makes a member a co-host (who may schedule nights and open tables) or not."""
    home_game = locked_home_game(home_game)
    check_home_game_host(home_game, by, _("Only the home game's host chooses the co-hosts."))
    if member.pk == home_game.host_id or not home_game.members.filter(pk=member.pk).exists():
        raise HomeGameError("not_member", _("Only a member other than the host can be a co-host."))
    if is_co_host:
        home_game.co_hosts.add(member)
    else:
        home_game.co_hosts.remove(member)
    return home_game


@transaction.atomic
def seat_claim_make(*, home_game: HomeGame, seat: Seat, by: User) -> SeatClaim:
    """A member says a guest seat of one of the home game's nights was theirs; the host confirms it."""
    home_game = locked_home_game(home_game)
    if home_game.host_id != by.pk and not home_game.members.filter(pk=by.pk).exists():
        raise HomeGameError("not_member", _("Only a member of this home game can claim a seat."))
    night = Night.objects.filter(home_game=home_game, table_id=seat.table_id).first()
    if night is None:
        raise HomeGameError("not_a_night", _("That seat was not at a night of this home game."))
    if night.season_id is not None:
        raise HomeGameError("season_closed", _("That night's season is closed; its results stay as they were settled."))
    if seat.user_id is not None or seat.computer:
        raise HomeGameError("not_a_guest", _("Only a guest's seat can be claimed."))
    if (
        seat.table.seats.filter(user=by).exists()
        or SeatClaim.objects.filter(user=by, seat__table_id=seat.table_id).exists()
    ):  # one person, one seat a table: her results there would count twice
        raise HomeGameError(
            "own_seat", _("You had a seat of your own at that night, or have claimed one there already.")
        )
    if SeatClaim.objects.filter(seat=seat).exists():
        raise HomeGameError("already_claimed", _("Someone has already claimed that seat."))
    try:
        with transaction.atomic():
            return SeatClaim.objects.create(seat=seat, home_game=home_game, user=by)
    except IntegrityError as error:  # a claim made at the same moment won the seat
        raise HomeGameError("already_claimed", _("Someone has already claimed that seat.")) from error


@transaction.atomic
def seat_claim_answer(*, claim: SeatClaim, confirm: bool, by: User) -> SeatClaim | None:
    """The host confirms a claim (the seat's results then count as the member's) or refuses it (deleted)."""
    claim = SeatClaim.objects.select_for_update().select_related("home_game").get(pk=claim.pk)
    check_home_game_host(claim.home_game, by, _("Only the home game's host confirms a claimed seat."))
    if not confirm:
        claim.delete()
        return None
    # A payment of the open season made under the guest's name would no longer match the
    # person the seat then counts as (docs/ledger.md, "Paid during the season").
    guest = f"guest:{claim.seat.display_name.strip().casefold()}"
    named = claim.home_game.season_payments.filter(Q(payer_key=guest) | Q(payee_key=guest), season__isnull=True)
    if claim.confirmed_at is None and named.exists():
        raise HomeGameError(
            "season_being_paid",
            _("A payment of this season names this guest; take it back, or close the season first."),
        )
    if claim.confirmed_at is None:
        claim.confirmed_at = timezone.now()
        claim.save(update_fields=["confirmed_at"])
    return claim


# --- The members' calendar feeds ------------------------------------------------------------


@transaction.atomic
def calendar_feed_for(*, home_game: HomeGame, user: User) -> CalendarFeed:
    """The member's calendar feed of ``home_game`` (made on first use)."""
    if not user_can_view_home_game(user=user, home_game=home_game):
        raise HomeGameError("not_member", _("Only members of this home game have its calendar feed."))
    feed, _created = CalendarFeed.objects.get_or_create(home_game=home_game, user=user)
    return feed


@transaction.atomic
def calendar_feed_replace(*, home_game: HomeGame, user: User) -> CalendarFeed:
    """A new token for the member's feed: the old URL stops working at once."""
    feed = calendar_feed_for(home_game=home_game, user=user)
    feed.token = new_feed_token()
    feed.save(update_fields=["token"])
    return feed


def calendar_feeds_of_removed(
    *, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **_kwargs: Any
) -> None:
    """``m2m_changed`` of ``HomeGame.members``: the feeds of members removed are deleted."""
    if action not in ("post_remove", "post_clear"):
        return
    if reverse:  # user.home_games.remove(home_game)
        mine = CalendarFeed.objects.filter(user=instance).exclude(home_game__host=instance)
        (mine.filter(home_game_id__in=pk_set) if action == "post_remove" else mine).delete()
        return
    feeds = CalendarFeed.objects.filter(home_game=instance).exclude(user_id=instance.host_id)
    if action == "post_remove":
        feeds = feeds.filter(user_id__in=pk_set or ())
    feeds.delete()
