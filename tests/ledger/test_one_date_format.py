"""One way of writing dates on a page (issue 38, point 10): the home game's page wrote its
nights as "Dec. 7, 2026" and a correction's time as "12/07/2026 1:39 a.m."; both now use
the language's DATE_FORMAT (and TIME_FORMAT for a time)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats, timezone

from homegames.services_members import home_game_add_table, home_game_create
from ledger.models import LedgerEntry
from ledger.services import ledger_correct_buy_in
from tests.ledger.conftest import make_user
from tests.ledger.test_corrections import ended_night


def test_the_home_game_page_writes_every_date_one_way(client, db):
    host = make_user("asha")
    table, _seats, entries, _bikash = ended_night(host)
    home_game = home_game_create(name="Friday Faras", host=host)
    home_game_add_table(home_game=home_game, table=table, by=host)
    ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="pressed twice", by=host)
    corrected = LedgerEntry.objects.get(reverses=entries["mistake"]).created_at
    client.force_login(host)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    local = timezone.localtime(corrected)
    assert formats.date_format(local, "SHORT_DATETIME_FORMAT") not in page
    assert f"{formats.date_format(local, 'DATE_FORMAT')}, {formats.time_format(local, 'TIME_FORMAT')}" in page
