"""The table's settle-up writes its times in the viewer's zone (issue 38, second trial): every
entry, every correction and the host's page of corrections, with the weekday, the date and
the time in the language's Django formats, as the nights' pages write a time. A member's
zone is her own (the calendar settings); a guest, who has none, reads UTC, and the page says
which zone it is."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, tzinfo

from django.urls import reverse
from django.utils import formats

from homegames.services import member_prefs_save
from ledger.models import LedgerEntry
from ledger.services import ledger_correct_buy_in
from tables.guests import GUEST_TOKEN_SESSION_KEY
from tests.ledger.conftest import make_user
from tests.ledger.test_corrections import correct_url, ended_night

#: UTC+14 all year: its clock is never UTC's, and its date differs from UTC's for ten hours a day.
KIRITIMATI = zoneinfo.ZoneInfo("Pacific/Kiritimati")


def written(moment: datetime, zone: tzinfo) -> str:
    local = moment.astimezone(zone)
    day = f"{formats.date_format(local, 'l')}, {formats.date_format(local, 'DATE_FORMAT')}"
    return f"{day}, {formats.time_format(local, 'TIME_FORMAT')}"


def test_a_member_reads_every_time_of_the_settle_up_in_her_zone_and_a_guest_in_utc(client, db):
    host = make_user("asha")
    member_prefs_save(user=host, time_zone="Pacific/Kiritimati")
    table, seats, entries, _bikash = ended_night(host)
    ledger_correct_buy_in(table=table, entry=entries["mistake"], reason="pressed twice", by=host)
    corrected = LedgerEntry.objects.get(reverses=entries["mistake"]).created_at
    report_url = reverse("ledger:table_report", kwargs={"code": table.code})

    client.force_login(host)
    page = client.get(report_url).content.decode()
    for entry in entries.values():
        assert written(entry.created_at, KIRITIMATI) in page
        assert written(entry.created_at, zoneinfo.ZoneInfo("UTC")) not in page
    assert written(corrected, KIRITIMATI) in page  # the corrections, below the transfers
    assert "Times in your time zone, Pacific/Kiritimati." in page
    correcting = client.get(correct_url(table)).content.decode()
    assert written(entries["asha"].created_at, KIRITIMATI) in correcting
    assert written(corrected, KIRITIMATI) in correcting

    client.logout()
    session = client.session  # Chandra, a guest by her seat's token
    session[GUEST_TOKEN_SESSION_KEY] = seats["chandra"].guest_token
    session.save()
    page = client.get(report_url).content.decode()
    assert written(entries["chandra"].created_at, zoneinfo.ZoneInfo("UTC")) in page
    assert written(entries["chandra"].created_at, KIRITIMATI) not in page
    assert "Times in UTC." in page
