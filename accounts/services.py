"""What accounts write beyond Django's own forms: telling the apps above of a new e-mail address."""

from __future__ import annotations

from accounts.models import User
from accounts.signals import email_added


def email_saved(*, user: User, before: str) -> None:
    """Call in the transaction that saved ``user``'s e-mail address, with the address it
    replaced: a new one (set where there was none, or another; not one cleared, nor the same
    in other letter case) is told to the apps above (``accounts.signals.email_added``)."""
    if user.email and user.email.casefold() != (before or "").casefold():
        email_added.send(sender=User, user=user)
