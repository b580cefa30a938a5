"""Names compared as people read them (issue 24, item 3): with "Asha" at the table, no one
joins as "Asha" with an invisible character, a Cyrillic A, a joiner, a soft hyphen or in
fullwidth letters; and a name that hides a formula behind an invisible character is kept
as text in both CSV downloads."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import name_clean, name_key
from homegames.views_report import safe_cell
from tables.models import Seat
from tables.services import ServiceError, table_create, table_join
from tables.services.pass_and_play import local_player_add
from tests.tables.conftest import make_user

pytestmark = pytest.mark.django_db

LOOKALIKES = {
    "zero-width space": "Asha\u200b",
    "Cyrillic A": "\u0410sha",
    "zero-width joiner": "As\u200dha",
    "soft hyphen": "Asha\u00ad",
    "fullwidth A": "\uff21sha",
    "word joiner": "\u2060Asha",
    "Greek alpha and capitals": "ASH\u0391",
}

DIFFERENT = ["Asha 2", "Aisha", "आशा", "Bikash", "Ashok"]


@pytest.mark.parametrize("name", LOOKALIKES.values(), ids=LOOKALIKES.keys())
def test_a_lookalike_of_a_seated_name_is_refused_as_taken(name):
    table = table_create(host=make_user("host"), game="faras")
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Asha", guest_token="a" * 40)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token="b" * 40)
    assert refused.value.code == "name_taken"
    assert Seat.objects.filter(table=table).count() == 2  # the host and Asha: nothing changed


@pytest.mark.parametrize("name", DIFFERENT)
def test_names_people_read_as_different_are_all_welcome(name):
    table = table_create(host=make_user("host"), game="faras")
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Asha", guest_token="a" * 40)
    seat = table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token="b" * 40)
    assert seat.display_name == name


def test_the_join_page_says_the_name_is_taken(client):
    table = table_create(host=make_user("host"), game="faras")
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Asha", guest_token="a" * 40)
    link = reverse("table_invite", kwargs={"code": table.code, "invite_token": table.invite_token})
    client.get(link)
    page = client.post(link, {"display_name": "\u0410sha", "role": "seat"}).content.decode()
    assert "already called" in page
    assert not Seat.objects.filter(table=table, display_name="\u0410sha").exists()


def test_an_account_whose_name_looks_like_a_seated_one_is_refused_at_the_table():
    table = table_create(host=make_user("host"), game="faras")
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Asha", guest_token="a" * 40)
    lookalike = make_user("someone")
    User.objects.filter(pk=lookalike.pk).update(display_name="Asha\u200b")  # stored before this check
    lookalike.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, user=lookalike)
    assert refused.value.code == "name_taken"
    # At another table, the name stored before is seated as people read it.
    elsewhere = table_create(host=make_user("host2"), game="faras")
    seat = table_join(code=elsewhere.code, invite_token=elsewhere.invite_token, user=lookalike)
    assert seat.display_name == "Asha"


def test_pass_and_play_names_are_compared_the_same_way():
    host = make_user("host")
    table = table_create(host=host, game="faras")
    host_seat = Seat.objects.get(table=table, user=host)
    local_player_add(table_id=table.pk, seat_id=host_seat.pk, name="Asha")
    for name in LOOKALIKES.values():
        with pytest.raises(ServiceError) as refused:
            local_player_add(table_id=table.pk, seat_id=host_seat.pk, name=name)
        assert refused.value.code == "name_taken"


def test_stored_names_are_normalised_and_lose_their_invisible_characters():
    assert name_clean("\uff21sha") == "Asha"
    assert name_clean("Asha\u200b") == "Asha"
    assert name_clean("Asha\u00ad") == "Asha"
    assert name_clean("\ufeffAsha") == "Asha"
    # Joiners stay where scripts and emoji need them, and the key ignores them.
    assert name_clean("क्\u200dषितिज") == "क्\u200dषितिज"
    assert name_key("As\u200dha") == name_key("Asha")
    with pytest.raises(ValidationError):
        name_clean("\u200b\u200b")  # nothing visible left


def test_sign_up_and_profile_store_the_normalised_name(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "gita",
            "display_name": "\uff27ita\u200b",
            "password1": "x-Strong-pass-19",
            "password2": "x-Strong-pass-19",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="gita")
    assert user.display_name == "Gita"
    client.post(reverse("profile"), {"display_name": "Gi\u00adta\u2060", "email": "", "language": ""})
    user.refresh_from_db()
    assert user.display_name == "Gita"


FORMULA = '\u200b=HYPERLINK("http://evil.example","pay")'


@pytest.mark.parametrize("value", [FORMULA, "\u2060+1", "\ufeff@SUM(A1)", " \u200b-2+3", "\uff1d1+1"])
def test_the_csv_guard_sees_a_formula_behind_invisible_characters(value):
    guarded = safe_cell(value)
    assert isinstance(guarded, str) and guarded.startswith("'")


def test_a_name_hiding_a_formula_is_text_in_both_csv_downloads(site):
    table = site["table"]
    seat = Seat.objects.filter(table=table).order_by("pk").last()
    Seat.objects.filter(pk=seat.pk).update(display_name=FORMULA)  # a name stored before this check
    client = Client()
    client.force_login(site["host"])
    for url in (
        reverse("ledger:table_report_csv", kwargs={"code": table.code}),
        reverse("ledger:home_game_csv", kwargs={"home_game_id": site["home_game"].pk}),
    ):
        cells = [cell for row in csv.reader(io.StringIO(client.get(url).content.decode())) for cell in row]
        named = [cell for cell in cells if "HYPERLINK" in cell]
        assert named, url
        assert all(cell.startswith("'") for cell in named), (url, named)


# --- blanks and every default-ignorable character (issue 34, item 7) -------------------------

#: The blanks that are not spaces: the Braille pattern blank (no Unicode property marks it)
#: and the Hangul fillers (Default_Ignorable_Code_Point).
BLANKS = {
    "Braille pattern blank": "\u2800",
    "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160",
    "Hangul filler": "\u3164",
    "halfwidth Hangul filler": "\uffa0",
}

#: Where a hidden character goes: after the name, inside it, in front of it.
PLACES = {
    "trailing": lambda char: "Asha" + char,
    "inside": lambda char: "As" + char + "ha",
    "leading": lambda char: char + "Asha",
}

#: The text-direction controls, default-ignorable too, that a name may not hold at all.
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _default_ignorables() -> list[str]:
    """Unicode's Default_Ignorable_Code_Point, as the regex package's Unicode data has it."""
    import regex

    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    return [chr(code) for code in range(0x110000) if ignorable.match(chr(code))]


def _seated_asha():
    table = table_create(host=make_user("host"), game="faras")
    table_join(code=table.code, invite_token=table.invite_token, guest_name="Asha", guest_token="a" * 40)
    return table


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("blank", BLANKS.values(), ids=BLANKS.keys())
def test_a_blank_after_inside_or_in_front_of_a_seated_name_is_refused_as_taken(blank, place):
    table = _seated_asha()
    name = PLACES[place](blank)
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token="b" * 40)
    assert refused.value.code == "name_taken"
    assert "already called" in refused.value.message
    assert Seat.objects.filter(table=table).count() == 2  # the host and Asha: nothing changed
    # The name as stored anywhere (a guest, an account, a home game) has it folded away.
    assert name_clean(name) == "Asha"
    assert name_key(name) == name_key("Asha")


@pytest.mark.parametrize("blank", BLANKS.values(), ids=BLANKS.keys())
def test_a_name_of_blanks_alone_is_refused_with_the_clear_error(blank):
    table = table_create(host=make_user("host"), game="faras")
    with pytest.raises(ServiceError) as refused:
        table_join(code=table.code, invite_token=table.invite_token, guest_name=blank * 3, guest_token="b" * 40)
    assert refused.value.code == "bad_name" and refused.value.message == "Give a name other players will see."
    assert Seat.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("blank", BLANKS.values(), ids=BLANKS.keys())
def test_display_names_and_home_game_names_lose_the_blanks(client, blank):
    from homegames.forms import HomeGameForm

    response = client.post(
        reverse("signup"),
        {
            "username": "gita",
            "display_name": blank + "Gi" + blank + "ta" + blank,
            "password1": "x-Strong-pass-19",
            "password2": "x-Strong-pass-19",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="gita").display_name == "Gita"
    form = HomeGameForm({"name": "Friday" + blank + " Faras" + blank})
    assert form.is_valid() and form.cleaned_data["name"] == "Friday Faras"
    blank_only = HomeGameForm({"name": blank * 4})
    assert not blank_only.is_valid() and blank_only.errors["name"] == ["Give a name other players will see."]


def test_every_default_ignorable_character_is_refused_beside_a_seated_name():
    """Unicode's Default_Ignorable_Code_Point as the library has it: every one outside the
    block of tags and variation selectors U+E0000-E0FFF, and 20 drawn at random from that
    block, each put after, inside or in front of "Asha": folded away and refused as taken, or
    (the text-direction controls) refused with their own message; never seated beside Asha."""
    import random

    ignorable = _default_ignorables()
    assert len(ignorable) > 4000 and "\u3164" in ignorable and "\u200b" in ignorable
    block = [char for char in ignorable if ord(char) >= 0xE0000]
    chosen = [char for char in ignorable if ord(char) < 0xE0000] + random.Random(34).sample(block, 20)
    assert DIRECTION_CONTROLS < set(chosen)
    table = _seated_asha()
    for index, char in enumerate(chosen):
        name = list(PLACES.values())[index % 3](char)
        with pytest.raises(ServiceError) as refused:
            table_join(code=table.code, invite_token=table.invite_token, guest_name=name, guest_token="b" * 40)
        if char in DIRECTION_CONTROLS:
            assert refused.value.code == "bad_name", hex(ord(char))
            assert "text-direction" in refused.value.message
        else:
            assert refused.value.code == "name_taken", hex(ord(char))
    assert Seat.objects.filter(table=table).count() == 2
