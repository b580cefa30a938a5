"""What accounts write beyond Django's own forms: telling the apps above of a new e-mail address."""

from __future__ import annotations

from accounts.models import User
from accounts.signals import email_added


def email_change_tell(*, user: User, before: str) -> None:
    """Call in the transaction that saves ``user``'s e-mail address, with the new one on
    ``user`` and the one it replaces, before the row is written: a new address (set where
    there was none, or another; not one cleared, nor the same in other letter case) is told
    to the apps above (``accounts.signals.email_added``). Before, so that they lock their rows
    before the account's, in the order the mail sweep locks them (a notice, then its member's
    account), and the two never wait for each other."""
    if user.email and user.email.casefold() != (before or "").casefold():
        email_added.send(sender=User, user=user)
