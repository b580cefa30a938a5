"""The shared hands' links and the two writes on them: make one, revoke it.

``share_token`` signs a row's id; ``shared_hand_by_token`` reads a token back to its row
(``None`` for a bad signature or a revoked link, told apart by nobody). ``share_make`` and
``share_revoke`` are the only writes; the pages (``shares.views``) check who may call them
(``tables.history.hand_may_share``).
"""

from __future__ import annotations

from django.core import signing
from django.db import transaction

from shares.models import SharedHand
from tables.models import Hand

_SIGNER = signing.Signer(salt="shares.hand", sep=".")


def share_token(shared: SharedHand) -> str:
    return _SIGNER.sign(str(shared.pk))


def shared_hand_by_token(token: str) -> SharedHand | None:
    try:
        value = _SIGNER.unsign(token)
    except signing.BadSignature:
        return None
    if not value.isdigit():
        return None
    return SharedHand.objects.select_related("hand", "hand__table").filter(pk=int(value)).first()


def shared_hand_of(hand: Hand) -> SharedHand | None:
    return SharedHand.objects.filter(hand=hand).first()


def share_make(*, hand: Hand, user_id: int | None, name: str) -> SharedHand:
    """The hand's link, made now unless it has one already."""
    with transaction.atomic():
        shared, _created = SharedHand.objects.get_or_create(
            hand=hand, defaults={"made_by_id": user_id, "made_by_name": name[:64]}
        )
    return shared


def share_revoke(*, hand: Hand) -> bool:
    """Revoke the hand's link (its page answers 404 from now on); whether there was one."""
    deleted, _by_model = SharedHand.objects.filter(hand=hand).delete()
    return deleted > 0
