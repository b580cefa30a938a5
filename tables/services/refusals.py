"""The engine's refusals in the player's language.

The engine (standard library only) refuses with a stable code and a plain English
sentence (:class:`engine.api.RuleError`, :class:`engine.api.SettingsError`). The site
shows people a translated sentence chosen by that code; the English one stays for logs,
the replay command and the exports. A test (tests/tables/test_refusals.py) reads every
code the engine can raise and fails if one is missing here.

The sentences say what to do without the engine's numbers: the action bar already shows
the amounts that are allowed now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from engine.api import RuleError, SettingsError
from tables.services.errors import ServiceError

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

RULE_MESSAGES: dict[str, StrPromise] = {
    # Both games
    "hand_over": _("The hand is over."),
    "unknown_player": _("You are not playing this hand."),
    "not_your_turn": _("It is not your turn."),
    "unknown_verb": _("That move does not exist in this game."),
    "bad_amount": _("Give the amount as a whole number of chips above 0."),
    "not_enough_chips": _("You do not have enough chips for that."),
    "raise_too_small": _("That raise is too small."),
    # Teen Patti (book 000, book 004)
    "amount_required": _("Say the stake you raise to."),
    "amount_not_allowed": _("That move takes no amount."),
    "already_packed": _("You have packed and are out of this hand."),
    "already_seen": _("You have already seen your cards."),
    "sideshow_answer_needed": _("Answer the sideshow first: accept or refuse it."),
    "no_sideshow_pending": _("Nobody has asked for a sideshow."),
    "must_see": _("You have played blind as many times as this table allows: see your cards first."),
    "raise_not_multiple_of_boot": _("A raise goes in steps of the boot."),
    "raise_too_large": _("At this table a raise may at most double the stake."),
    "raise_over_stake_limit": _("That raise is over the table's stake limit."),
    "show_needs_two": _("A show can be asked only when two players are left."),
    "show_blind_not_allowed": _("See your cards first: at this table a blind player cannot ask for a show."),
    "show_against_blind": _("The other player is still blind: a seen player cannot ask a blind one for a show."),
    "sideshow_off": _("Sideshows are off at this table."),
    "sideshow_needs_three": _("A sideshow needs at least three players still in: ask for a show."),
    "sideshow_needs_seen": _("See your cards before asking for a sideshow."),
    "sideshow_no_partner": _("Nobody before you could be asked for a sideshow."),
    "sideshow_partner_blind": _("The player before you is still blind and cannot be asked for a sideshow."),
    # Hold'em (book 001)
    "cannot_check": _("You cannot check: there is a bet. Call or fold."),
    "nothing_to_call": _("There is nothing to call: check instead."),
    "cannot_raise": _("You cannot raise now: call or fold (or bet, if nobody has bet yet)."),
    "cannot_bet": _("There is already a bet: raise instead."),
    "betting_closed": _("An all-in for less than a full raise does not reopen the betting: call or fold."),
    "bet_too_small": _("A bet is at least the big blind."),
}

#: For a code the table above does not know yet (the test keeps that from happening).
UNKNOWN_RULE = _("The rules do not allow that move now.")
SETTINGS_REFUSED = _("The rules of this game do not allow that value.")


def rule_refusal(error: RuleError) -> ServiceError:
    """The engine's refusal as a service error with the same code and a translated sentence."""
    return ServiceError(error.code, RULE_MESSAGES.get(error.code, UNKNOWN_RULE))


def settings_refusal_message(error: SettingsError) -> StrPromise:
    """A translated sentence for an engine settings check (``error.field`` names the setting)."""
    return SETTINGS_REFUSED
