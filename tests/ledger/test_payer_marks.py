"""Who may mark a season's transfer paid (issue 38, payments): the payer and the payee of that
transfer, and the host (any); the mark shows who made it; a mark is taken back by whoever
made it or by the host; anyone else gets a 403 and nothing changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from homegames.models import SeasonTransfer
from homegames.services_seasons import season_close, season_transfer_mark_paid
from ledger.services import LedgerError
from tests.ledger.test_seasons import friends, three_nights  # noqa: F401 (the fixture)


def test_the_payer_marks_their_transfer_paid_and_the_mark_names_them(client, host, friends):  # noqa: F811
    home_game, _tables = three_nights(host, friends)
    home_game.members.add(friends["Bikash"], friends["Chandra"])
    season_close(home_game=home_game, by=host)
    transfer = SeasonTransfer.objects.get(payer_name="Bikash")
    paid_url = reverse("ledger:season_transfer_paid", kwargs={"home_game_id": home_game.pk, "transfer_id": transfer.pk})
    detail = reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})
    bikash = friends["Bikash"]
    client.force_login(bikash)
    assert paid_url in client.get(detail).content.decode()  # the payer has the button
    assert client.post(paid_url, {"paid": "1"}).status_code == 302
    transfer.refresh_from_db()
    assert transfer.paid_at is not None and transfer.paid_by == bikash
    client.force_login(host)
    page = client.get(reverse("ledger:season_detail", kwargs={"home_game_id": home_game.pk, "number": 1}))
    assert f"Paid (marked by {bikash.table_name})" in page.content.decode()
    # Chandra may neither take Bikash's mark back nor mark his transfer.
    client.force_login(friends["Chandra"])
    assert client.post(paid_url, {}).status_code == 403
    transfer.refresh_from_db()
    assert transfer.paid_by == bikash
    # Bikash takes his own mark back; he cannot take back the host's.
    client.force_login(bikash)
    client.post(paid_url, {})
    transfer.refresh_from_db()
    assert transfer.paid_at is None
    season_transfer_mark_paid(transfer=transfer, paid=True, by=host)
    with pytest.raises(LedgerError) as refused:
        season_transfer_mark_paid(transfer=transfer, paid=False, by=bikash)
    assert refused.value.code == "not_party"
    transfer.refresh_from_db()
    assert transfer.paid_by == host
