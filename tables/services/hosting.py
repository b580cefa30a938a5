"""Tables: open one, join it by its code, and the host's controls.

Only the host (a signed-in user, never a guest) may start, pause, resume or end the
game, change its settings between hands, or remove a player between hands.
"""

from __future__ import annotations

import re
import secrets
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _

from accounts.names import name_clean, name_key, name_normal
from engine.fairness import commitment
from engine.games import get_game
from tables import selectors
from tables.broadcast import layer_send
from tables.events import EventKind
from tables.models import Seat, Table
from tables.services.between_hands import hand_deal_now
from tables.services.dealing import next_dealer, variant_called_by
from tables.services.errors import ServiceError
from tables.services.hand_end import game_end, seat_cash_out_and_unseat, seat_move_when_free
from tables.services.seat_state import AWAY_KEY, in_live_hand
from tables.services.table_settings import chip_value_kept, prizes_kept, table_settings_build
from tables.services.turns import (
    TURN_CLOCK_FIELDS,
    away_turn_clock,
    computer_turn_clock,
    ending_turn_deadline,
    seat_is_computer,
    turn_clock_due,
    turn_clock_start,
    turn_timer,
)
from tables.services.write import require_dealt, seat_at, table_write, table_write_new

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from tables.services.log import TableLog

# Codes avoid letters and digits that are easy to confuse when read aloud (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def guest_token_new() -> str:
    """A fresh token for a guest's session (the view keeps it in ``request.session``)."""
    return secrets.token_urlsafe(32)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def require_host(table: Table, seat_id: int | None) -> Seat:
    """The host's seat at ``table`` when ``seat_id`` is it; else ``not_host`` (``no_seat`` for a stranger)."""
    seat = seat_at(table, seat_id)
    if seat.user_id is None or seat.user_id != table.host_id:
        raise ServiceError("not_host", _("Only the host can do that."))
    return seat


def _require_between_hands(table: Table) -> None:
    if selectors.hand_live(table=table) is not None:
        raise ServiceError("hand_in_progress", _("Wait until this hand is over."))


def _clean_name(name: object) -> str:
    """A person's name as they gave it, checked (``accounts.names``) and not a computer's."""
    try:
        cleaned = name_clean(name)
    except ValidationError as error:
        raise ServiceError("bad_name", " ".join(error.messages), field="display_name") from None
    _refuse_computer_name(cleaned)
    return cleaned


def computer_name_taken(name: str) -> bool:
    """Whether ``name`` reads as a computer player's ("Computer 3", in any of the site's
    languages, any case or spacing): those names are kept for the computers, so a person
    can never pass for one in the seats, the log or the history."""
    wanted = " ".join(name.split()).casefold()
    for code, _language in django_settings.LANGUAGES:
        with translation.override(code):
            template = str(_("Computer %(number)s"))
        head, _mark, tail = template.partition("%(number)s")
        pattern = (
            re.escape(" ".join(head.split()).casefold()) + r"\s*\d+\s*" + re.escape(" ".join(tail.split()).casefold())
        )
        if re.fullmatch(pattern, wanted):
            return True
    return False


def _refuse_computer_name(name: str) -> None:
    if computer_name_taken(name):
        raise ServiceError(
            "name_reserved",
            _("Names like %(example)s are kept for the computer players; choose another name.")
            % {"example": _("Computer %(number)s") % {"number": 1}},
            field="display_name",
        )


def invite_token_new() -> str:
    """The secret of a table's invite link: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def invite_token_matches(table: Table, token: object) -> bool:
    """Whether ``token`` is the table's invite token (compared in constant time)."""
    return isinstance(token, str) and bool(table.invite_token) and secrets.compare_digest(token, table.invite_token)


# --- a guest's seat link (issue 28): a seat belongs to a person, not to a cookie ---------

#: The salt of the seat links' HMAC (Django's ``salted_hmac`` with the site's SECRET_KEY).
SEAT_LINK_SALT = "dashain.tables.seat_link"


def _link_key(table_id: int, seat_id: int, moves: int) -> str:
    # The first link of a seat has the message issue 28 gave it, so links handed out before
    # the count existed (issue 34) still work, once.
    message = f"{table_id}:{seat_id}" if moves == 0 else f"{table_id}:{seat_id}:{moves}"
    return salted_hmac(SEAT_LINK_SALT, message, algorithm="sha256").hexdigest()[:32]


def seat_link_key(seat: Seat) -> str:
    """The secret part of a guest's seat link ``/t/<code>/seat/<seat id>/<key>/``: an HMAC of
    the table, the seat and how many times its link has moved it, under the site's secret
    key (128 bits shown). Nothing secret is stored: the link is the same every time it is
    shown, to the guest and to the host, until it is used (issue 34: then the seat's count
    goes up and every link shown before works no more). It works for no other seat or table."""
    return _link_key(seat.table_id, seat.pk, seat.link_moves)


def seat_link_state(seat: Seat, key: object) -> str | None:
    """``"current"`` for the seat's link as it is shown now, ``"used"`` for a link of that seat
    that has moved it already (dead), ``None`` for anything else (not a guest's seat, a wrong
    key): compared in constant time."""
    if not seat.is_guest or not isinstance(key, str):
        return None
    if constant_time_compare(key, seat_link_key(seat)):
        return "current"
    if any(constant_time_compare(key, _link_key(seat.table_id, seat.pk, moves)) for moves in range(seat.link_moves)):
        return "used"
    return None


def seat_link_use(*, code: str, seat_id: object, key: object, guest_token: str) -> Seat:
    """Move a guest's seat to the browser whose session holds ``guest_token`` (a new phone,
    a browser whose cookies were cleared): the same seat, name and chips. The browser that
    held it before no longer does (``seat_moved`` in the log: its open pages close; a page
    opened there again is asked for the invite link), and the link is used up (issue 34).

    A seat dealt into the hand being played does not move during it (its cards are the
    holder's): the browser's claim is kept (``link_claim`` is its token in the returned
    seat) and the seat moves when the hand ends (``hand_end.seat_link_claims_apply``).

    Refused, changing nothing: ``bad_link`` (no such table, seat or key, or not a guest's
    seat: the same answer for each), ``used_link`` (a link of this seat that has moved it
    already), ``banned``, ``other_seat`` (this browser already has, or waits for, another
    seat at the table), ``link_waiting`` (another browser opened the link during this hand
    first), ``no_session``. Using the link in the browser that already holds the seat, or
    again in the one waiting for it, changes nothing.
    """
    refused = ServiceError("bad_link", _("That seat link does not work. Ask the host for your seat link."))
    table = selectors.table_by_code(code=code) if isinstance(code, str) else None
    if table is None or isinstance(seat_id, bool) or not isinstance(seat_id, int) or not isinstance(key, str):
        raise refused
    if not isinstance(guest_token, str) or not 20 <= len(guest_token) <= 64:
        raise ServiceError("no_session", _("Your session has expired; open the link again."))
    with table_write(table.pk) as (table, log):
        seat = Seat.objects.filter(table=table, pk=seat_id).first()
        state = seat_link_state(seat, key) if seat is not None else None
        if seat is None or state is None:
            raise refused
        if seat.banned:
            raise ServiceError("banned", _("The host has removed you from this game."))
        if seat.guest_token == guest_token or (seat.link_claim == guest_token and state == "current"):
            return seat
        if state == "used":
            raise ServiceError("used_link", SEAT_LINK_USED)
        others = Seat.objects.filter(table=table).exclude(pk=seat.pk)
        if others.filter(guest_token=guest_token).exists() or others.filter(link_claim=guest_token).exists():
            raise ServiceError(
                "other_seat",
                _("This browser already has another seat at this table; open the seat link in another browser."),
            )
        if not seat_move_when_free(log, seat=seat, guest_token=guest_token):
            raise ServiceError(
                "link_waiting",
                _(
                    "This seat link was opened in another browser during this hand already: "
                    "the seat goes there when the hand ends."
                ),
            )
    return seat


SEAT_LINK_USED = _(
    "This seat link has been used: it moved the seat once and works no more. Ask the host for the seat's link."
)


def _require_free_name(table: Table, name: str) -> None:
    """Display names are unique at a table as people read them (no "Asha pays Asha"):
    ignoring case, spaces, invisible characters and look-alike letters (``name_key``)."""
    wanted = name_key(name)
    taken = Seat.objects.filter(table=table).values_list("display_name", flat=True)
    if any(name_key(other) == wanted for other in taken):
        raise ServiceError(
            "name_taken",
            _("Someone at this table is already called %(name)s; choose another name.") % {"name": name},
            field="display_name",
        )


def table_create(*, host: User | AnonymousUser | None, game: str, choices: dict[str, Any] | None = None) -> Table:
    """Open a table for ``game`` with the host's ``choices`` (see ``services.table_settings``).

    The host joins as a watcher (they take a seat like anyone else). The seed
    commitment is the log's first event.
    """
    if host is None or not host.is_authenticated:
        raise ServiceError("not_signed_in", _("Sign in to host a table."))
    built = table_settings_build(game=game, choices=choices)
    seed = secrets.token_bytes(32)
    for _attempt in range(10):
        try:
            with table_write_new(
                lambda: Table.objects.create(
                    code=_new_code(),
                    game=game,
                    settings=built,
                    buy_in_chips=built["buy_in_chips"],
                    buy_in_price=Decimal(built["buy_in_price"]),
                    host=host,
                    secret_seed=seed,
                    seed_commitment=commitment(seed),
                    invite_token=invite_token_new(),
                )
            ) as (table, log):
                seat = Seat.objects.create(table=table, user=host, display_name=host.table_name)
                log.append(
                    EventKind.TABLE_CREATED,
                    {
                        "game": game,
                        "code": table.code,
                        "seed_commitment": table.seed_commitment,
                        "settings": {k: v for k, v in built.items() if k != "host"},
                    },
                )
                log.append(EventKind.SEAT_JOINED, {"seat": seat.pk, "name": seat.display_name, "guest": False})
            return table
        except IntegrityError:
            continue  # a code already taken: draw another
    raise ServiceError("busy", _("Could not open a table; please try again."))


def table_join(
    *,
    code: str,
    invite_token: str | None,
    user: User | AnonymousUser | None = None,
    guest_name: str | None = None,
    guest_token: str | None = None,
) -> Seat:
    """Join the table with ``code`` as a watcher: a signed-in ``user``, or a guest with a
    display name and the token kept in their session. Joining again returns the same seat.

    A newcomer needs the table's ``invite_token`` (the secret part of the invite link): the
    short code alone admits no one. Someone the host banned cannot join again, and a name
    already at the table (ignoring case and spaces) is refused.
    """
    table = selectors.table_by_code(code=code) if isinstance(code, str) else None
    if table is None:
        raise ServiceError("no_table", _("There is no table with that code."))
    account = user if user is not None and user.is_authenticated else None
    token = name = ""
    if account is None:
        if not isinstance(guest_token, str) or not 20 <= len(guest_token) <= 64:
            raise ServiceError("no_session", _("Your session has expired; open the link again."))
        token, name = guest_token, _clean_name(guest_name)
    existing = selectors.seat_for_viewer(table=table, user=account, guest_token=token or None)
    if existing is not None and not existing.banned:
        return existing  # joining again (even once the game is over) writes nothing
    with table_write(table.pk) as (table, log):
        existing = selectors.seat_for_viewer(table=table, user=account, guest_token=token or None)  # under the lock
        if existing is not None and existing.banned:
            raise ServiceError("banned", _("The host has removed you from this game."))
        if existing is not None:
            return existing
        if not invite_token_matches(table, invite_token):
            raise ServiceError("no_invite", _("Joining needs the table's invite link; ask the host for it."))
        if account is not None:
            _refuse_computer_name(account.table_name)
            _require_free_name(table, account.table_name)
            seat = Seat.objects.create(table=table, user=account, display_name=name_normal(account.table_name))
        else:
            _require_free_name(table, name)
            seat = Seat.objects.create(table=table, guest_token=token, display_name=name)
        log.append(EventKind.SEAT_JOINED, {"seat": seat.pk, "name": seat.display_name, "guest": seat.is_guest})
    return seat


def table_start(*, table_id: int, seat_id: int) -> Table:
    """The host starts the game: the first hand is dealt at once."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        if table.settings.get("not_dealt"):
            raise ServiceError("not_dealt", _("This table is played with real cards: nobody is dealt here."))
        if table.status != Table.Status.WAITING:
            raise ServiceError("already_started", _("The game has already started."))
        seated = Seat.objects.filter(table=table, status=Seat.Status.PLAYING, number__isnull=False)
        if seated.count() < max(2, get_game(table.game).min_players):
            raise ServiceError("too_few_players", _("More players must take a seat first."))
        if not seated.filter(computer="").exists():
            raise ServiceError("no_people", _("Computers play with people, not on their own: take a seat first."))
        paid_places = len(table.settings.get("payouts") or ()) if table.settings.get("prizes") == "places" else 0
        if seated.count() < paid_places:
            raise ServiceError(
                "too_few_players",
                _("The payout table pays %(places)s places, so at least %(places)s players must take a seat.")
                % {"places": paid_places},
            )
        table.status = Table.Status.PLAYING
        table.started_at = timezone.now()
        log.append(EventKind.GAME_STARTED, {"seed_commitment": table.seed_commitment})
        hand = hand_deal_now(log)
        if hand is None and table.status == Table.Status.PLAYING:
            raise ServiceError("too_few_players", _("Not enough players have chips to be dealt in."))
    return table


def table_pause(*, table_id: int, seat_id: int) -> Table:
    """The host pauses: no one may act and no hand is dealt until the game resumes."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("The game is not being played."))
        if table.ending:
            raise ServiceError("ending", _("The game ends when this hand ends; it cannot be paused now."))
        table.status = Table.Status.PAUSED
        log.append(EventKind.GAME_PAUSED, {})
    return table


def table_resume(*, table_id: int, seat_id: int) -> Table:
    """The host resumes: the waiting player's turn starts again (with its timer), or a hand is dealt."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        if table.status != Table.Status.PAUSED:
            raise ServiceError("not_paused", _("The game is not paused."))
        table.status = Table.Status.PLAYING
        log.append(EventKind.GAME_RESUMED, {})
        hand, state, action_seq = selectors.live_hand_and_state(table=table)
        if hand is None:
            hand_deal_now(log)
        elif hand.to_act:
            hand.turn_seq = log.last_seq
            turn_clock_start(hand, timer=turn_timer(table))
            computer_turn_clock(table, hand)  # a computer's turn starts again too
            away_turn_clock(hand)  # and an away player's is played
            hand.save(update_fields=["turn_seq", *TURN_CLOCK_FIELDS])
            turn_clock_due(log, hand)
            # The turn's new clock (its deadline, and when the host may act for them) goes
            # out with the news to every open page: a page never works a clock out itself.
            if state is not None:
                log.hand_now(hand, state, action_seq)
    return table


def table_end(*, table_id: int, seat_id: int) -> Table:
    """The host ends the game: at once between hands; during a hand, when that hand ends.

    A hand in progress is never called off (a host who has looked at a bad hand, or faces a
    big bet, could otherwise take back the pot): it is played out, the game marked
    ``ending`` with a ``game_ending`` event the page tells everyone. A paused game resumes,
    so the hand can end; each turn from then on is limited (the table's timer, or
    ``models.HOST_ACT_AFTER`` without one) and the clock acts for a player whose time runs
    out, by the away rules (``tables.services.away``), so nobody can hold the game open by
    not acting. The hand's end then ends the game (``between_hands.next_hand_schedule``).
    Asking again while it is ending changes nothing.
    """
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        hand = selectors.hand_live(table=table)
        if hand is None:
            game_end(log, reason="host")
            return table
        if table.ending:
            return table
        table.ending = True
        log.append(EventKind.GAME_ENDING, {"number": hand.number})
        paused = table.status == Table.Status.PAUSED
        if paused:
            table.status = Table.Status.PLAYING
            log.append(EventKind.GAME_RESUMED, {})
        if hand.to_act:
            limit = ending_turn_deadline(table)
            if paused:  # the turn starts again, as at a resume, with the ending's limit
                turn_clock_start(hand, timer=turn_timer(table))
                computer_turn_clock(table, hand)
                away_turn_clock(hand)
            elif seat_is_computer(hand, hand.to_act) or hand.to_act in hand.plan.get(AWAY_KEY, ()):
                pass  # a computer's move, or the away rule's, is on the clock already
            elif hand.turn_deadline is None or hand.turn_deadline > limit:
                # The turn under way gets the ending's limit, counted from now.
                hand.turn_deadline = hand.turn_alarm_at = limit
                hand.turn_alarms = 0
            elif hand.turn_alarm_at is None:  # its reminders were all given: act now
                hand.turn_alarm_at = hand.turn_deadline
            hand.turn_seq = log.last_seq
            hand.save(update_fields=["turn_seq", *TURN_CLOCK_FIELDS])
            turn_clock_due(log, hand)
    return table


def table_update_settings(
    *, table_id: int, choices: dict[str, Any], seat_id: int | None = None, by_admin: bool = False
) -> Table:
    """The host (``seat_id``) or the site's admin (``by_admin``) changes settings between hands.

    The game itself cannot change, and hold'em's settings are fixed once it starts (book
    001: everyone plays the same game from the first deal). The host's ``choices`` are
    merged into their earlier ones (the page sends what it changes); the admin's form
    shows all of them, so its ``choices`` replace them, and a save that changes nothing
    writes nothing. The change is logged as ``settings_changed`` (with ``"by": "admin"``
    for the admin's).
    """
    if not isinstance(choices, dict):
        raise ServiceError("invalid_settings", _("Settings must be given as names and values."))
    with table_write(table_id) as (table, log):
        if not by_admin:
            require_host(table, seat_id)
        _require_between_hands(table)
        if get_game(table.game).table_rules.settings_fixed_after_start and table.status != Table.Status.WAITING:
            raise ServiceError("already_started", _("Hold'em settings are fixed once the game starts."))
        merged = dict(choices) if by_admin else {**table.settings.get("host", {}), **choices}
        built = table_settings_build(game=table.game, choices=merged)
        if bool(built.get("not_dealt")) != bool(table.settings.get("not_dealt")):
            raise ServiceError(
                "invalid_settings", _("Whether a table is dealt is fixed when it opens."), field="not_dealt"
            )
        chip_value_kept(table=table, settings=built)
        prizes_kept(table=table, settings=built)
        highest = selectors.seat_number_highest(table=table)
        if highest > built["seats"]:
            raise ServiceError(
                "invalid_settings",
                _("Seat %(n)s is taken; keep at least that many seats.") % {"n": highest},
                field="seats",
            )
        if by_admin and built == table.settings:
            return table
        table.settings = built
        table.buy_in_chips = built["buy_in_chips"]
        table.buy_in_price = Decimal(built["buy_in_price"])
        payload: dict[str, Any] = {"settings": {k: v for k, v in built.items() if k != "host"}}
        if by_admin:
            payload["by"] = "admin"
        log.append(EventKind.SETTINGS_CHANGED, payload)
    return table


def _shared_by_places_and_started(table: Table) -> bool:
    return table.settings.get("prizes") == "places" and table.status in (Table.Status.PLAYING, Table.Status.PAUSED)


def variant_call(*, table_id: int, seat_id: int | None, variant: object) -> int:
    """Dealer's choice: the player who deals the next hand calls its variant, one of those the
    host allows (``settings["dealers_choice"]``), before that hand is dealt. Logged for everyone
    (``variant_called``); the deal reads it (``tables.services.dealing``). Returns the number of
    the hand it is for.

    A dealer calls once per hand, as at a table where the dealer names the game once and
    everyone heard it: the same call again is answered as done and writes nothing; another
    variant is refused (``already_called``) and writes nothing. So however many pages of the
    dealer call, however often, the hand's log holds one call of theirs (issue 34).
    """
    with table_write(table_id) as (table, log):
        seat = seat_at(table, seat_id)
        allowed = table.settings.get("dealers_choice") or []
        if not allowed:
            raise ServiceError("no_dealers_choice", _("At this table the host has not left the variant to the dealer."))
        if variant not in allowed:
            raise ServiceError(
                "variant_not_allowed",
                _("The host allows these variants: %(choices)s.") % {"choices": ", ".join(allowed)},
                field="variant",
            )
        if seat.banned or seat.status != Seat.Status.PLAYING or seat.number is None:
            raise ServiceError("not_the_dealer", _("Only the player who deals the next hand calls its variant."))
        if next_dealer(table) != seat.engine_name:
            raise ServiceError("not_the_dealer", _("Only the player who deals the next hand calls its variant."))
        number = table.hands_played + 1
        called = variant_called_by(table, number=number, seat_id=seat.pk)
        if called == variant:
            return number  # said already: nothing more to write
        if called is not None:
            raise ServiceError(
                "already_called", _("You have already called the next hand; a dealer's call stands once made.")
            )
        log.append(EventKind.VARIANT_CALLED, {"seat": seat.pk, "variant": variant, "number": number})
    return number


def seat_remove(*, table_id: int, seat_id: int, remove_seat_id: int, ban: bool = False) -> Seat:
    """The host sends a player from their seat between hands; their chips are cashed out.

    With ``ban`` the player is also barred for the rest of the game: they cannot sit down,
    watch, read the table's history or join again, their open sockets are told and closed,
    and the invite link is replaced (the banned player knows the old one)."""
    if not isinstance(ban, bool):
        raise ServiceError("bad_message", _("Say yes or no to banning."))
    with table_write(table_id) as (table, log):
        host = require_host(table, seat_id)
        require_dealt(table)  # a kitchen night's chips are counted on its page
        target = seat_at(table, remove_seat_id)
        if ban and target.pk == host.pk:
            raise ServiceError("not_yourself", _("The host cannot ban themselves."))
        if in_live_hand(table, target):
            raise ServiceError("hand_in_progress", _("Wait until this hand is over."))
        if target.number is None and not ban:
            raise ServiceError("not_seated", _("That player has no seat."))
        if target.number is not None and target.stack > 0 and _shared_by_places_and_started(table):
            # Issue 25: a player sent out would be placed when they went, below everyone still
            # in: the host could drop the chip leader out of the prizes. They may leave themselves.
            raise ServiceError(
                "keeps_place",
                _(
                    "The pool here is shared by places: a player with chips keeps their place until "
                    "the game ends. They can leave their seat themselves."
                ),
            )
        if target.number is not None:
            seat_cash_out_and_unseat(log, seat=target, kind=EventKind.SEAT_REMOVED)
        if ban and not target.banned:
            target.banned = True
            target.save(update_fields=["banned"])
            log.append(EventKind.SEAT_BANNED, {"seat": target.pk, "name": target.display_name})
            log.on_commit(lambda: layer_send(table.group_name, {"type": "seat.banned", "seat": target.pk}))
            # A ban binds the link too: the one the banned player holds lets no one in any more.
            _invite_rotate(log)
    return target


def _invite_rotate(log: TableLog) -> None:
    """A new invite token for the table (the old link lets no one join from now on), and an
    ``invite_rotated`` event that says so without the token (the log is read by everyone at
    the table; only the host's page shows the link). People with a seat row keep it."""
    log.table.invite_token = invite_token_new()
    log.append(EventKind.INVITE_ROTATED, {})


def invite_rotate(*, table_id: int, seat_id: int) -> str:
    """The host replaces the invite link, at any time before the game ends; returns the new
    token. The old link then admits no one; everyone at the table keeps their place (they
    come back by their account or their session, not by the link)."""
    with table_write(table_id) as (table, log):
        require_host(table, seat_id)
        _invite_rotate(log)
        token = table.invite_token
    return token
