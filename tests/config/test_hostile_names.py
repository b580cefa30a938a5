"""Display names and home game names are the only text players write for each other
(issue 14): hostile ones are refused at every way in with a clear message, and those
already stored (an older record, a name set in the admin) are shown as text on every page
and in the CSV downloads, never as markup or a spreadsheet formula."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import name_clean
from homegames.models import HomeGame
from tables.models import Seat
from tables.services import ServiceError, table_create, table_join
from tests.config.pages import ADMIN_PAGES, page_urls

pytestmark = pytest.mark.django_db

BIDI = ["Asha\u202eevil", "\u2066Bikash\u2069", "Chandra\u200f", "Dipesh\u061c"]
CONTROL = ["Asha\x00", "Asha\x1b[31m", "Asha\x9b"]
MARKUP = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<b>bold</b>"]
TOO_LONG = ["A" * 41]
REFUSED = BIDI + CONTROL + MARKUP + TOO_LONG
ACCEPTED = ["Asha", "O'Brien & Co", "क्‍षितिज", "  Many   spaces  ", "=1+1", "A" * 40, "👩‍👩‍👧 family"]


@pytest.mark.parametrize("name", REFUSED)
def test_name_clean_refuses_each_kind(name):
    with pytest.raises(Exception) as refused:
        name_clean(name)
    assert refused.value.messages  # a sentence to show beside the field


@pytest.mark.parametrize("name", ACCEPTED)
def test_name_clean_keeps_real_names(name):
    assert name_clean(name) == " ".join(name.split())


@pytest.mark.parametrize("name", REFUSED)
def test_a_guest_cannot_join_with_a_hostile_name(name):
    host = User.objects.create(username="asha")
    table = table_create(host=host, game="faras", choices={})
    seats_before = Seat.objects.filter(table=table).count()
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token="g" * 32)
    assert refused.value.code == "bad_name" and refused.value.field == "display_name"
    page = Client().post(
        reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token}),
        {"display_name": name, "role": "watch"},
    )
    assert (page.status_code == 200 and "field-error" in page.content.decode()) or "errorlist" in page.content.decode()
    assert Seat.objects.filter(table=table).count() == seats_before


@pytest.mark.parametrize("name", REFUSED)
def test_sign_up_and_profile_refuse_a_hostile_display_name(name):
    password = "turn-the-river-7"
    response = Client().post(
        reverse("signup"),
        {"username": "sita", "display_name": name, "email": "", "password1": password, "password2": password},
    )
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not User.objects.filter(username="sita").exists()
    user = User.objects.create(username="gita", display_name="Gita")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": name, "email": ""})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Gita"


@pytest.mark.parametrize("name", BIDI + CONTROL + MARKUP)
def test_a_home_game_cannot_get_a_hostile_name(name):
    client = Client()
    client.force_login(User.objects.create(username="hari"))
    response = client.post(reverse("ledger:home_game_new"), {"name": name})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not HomeGame.objects.exists()


# --- names already stored are text on every page and in the CSV ------------------------------

STORED = {
    "host": "<script>alert(1)</script>",
    "guest": '"><img src=x onerror=alert(1)>',
    "long": ('=HYPERLINK("http://evil.example")' + "x" * 40)[:40],  # the longest a name may be
}


def _store_hostile_names(site) -> None:
    table = site["table"]
    seats = list(Seat.objects.filter(table=table).order_by("pk"))
    site["host"].display_name = STORED["host"]
    site["host"].save(update_fields=["display_name"])
    Seat.objects.filter(pk=seats[0].pk).update(display_name=STORED["host"])
    Seat.objects.filter(pk=seats[1].pk).update(display_name=STORED["guest"])
    Seat.objects.filter(pk=seats[2].pk).update(display_name=STORED["long"])
    HomeGame.objects.filter(pk=site["home_game"].pk).update(name="<i>Friday</i>")


def test_stored_hostile_names_are_text_on_every_page(site):
    _store_hostile_names(site)
    client = Client()
    client.force_login(site["host"])
    shown = 0
    for url in page_urls(site)[:-ADMIN_PAGES]:
        response = client.get(url)
        if "text/html" not in response.get("Content-Type", "text/html"):
            # CSV and JSON downloads hold names as data, never read as a page (nosniff).
            assert response["X-Content-Type-Options"] == "nosniff"
            continue
        body = response.content.decode(errors="replace")
        assert "<script>alert(1)" not in body, url
        assert "<img src=x" not in body, url
        assert "<i>Friday</i>" not in body, url
        if "&lt;script&gt;alert(1)" in body or "\\u003Cscript\\u003Ealert(1)" in body:
            shown += 1
    assert shown >= 5  # the names are there, as text, on the pages that show them


def test_the_csv_downloads_keep_names_as_text_and_never_a_formula(site):
    _store_hostile_names(site)
    client = Client()
    client.force_login(site["host"])
    for url in (
        reverse("ledger:table_report_csv", kwargs={"code": site["table"].code}),
        reverse("ledger:home_game_csv", kwargs={"home_game_id": site["home_game"].pk}),
    ):
        response = client.get(url)
        assert response["Content-Type"].startswith("text/csv")
        assert response["Content-Disposition"].startswith("attachment")
        cells = [cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row]
        assert any(STORED["host"] in cell for cell in cells)  # markup is only text in a CSV
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells if not _is_number(cell)), cells
        assert any(cell.startswith("'=HYPERLINK") for cell in cells)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
