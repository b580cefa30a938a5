"""The admin is no oracle (issue 24, item 1): no changelist answers a question about a
secret, whatever lookup its query string names, and no lookup answers 500.

The walk: every registered changelist, with lookups on every field and relation path
(generated from the models' ``_meta``, reverse relations too) and many lookup suffixes,
is asked the same questions in two worlds that differ only in their secrets (the tables'
seeds and invite tokens, the guests' tokens, the live hand's hole cards, the password
hashes, what django-axes recorded of a login). The guesses are world A's true secrets, so
an oracle would answer "1 result" in A and "0 results" in B: every answer must be the same.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterator

import pytest
from axes.models import AccessAttempt, AccessLog
from django.contrib import admin
from django.contrib.auth.hashers import make_password
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.test import Client
from django.urls import reverse

from accounts.admin import registered_admins
from accounts.admin_guard import GuardedLookups, field_is_secret, path_allowed
from accounts.models import User
from homegames.models import HomeGame, Night
from tables.models import Event, Hand, Seat, Table
from tables.services import table_join
from tests.tables.conftest import open_table

pytestmark = pytest.mark.django_db

SUFFIXES = ("", "__regex", "__startswith", "__icontains", "__iexact", "__lt", "__gt", "__in", "__isnull", "__endswith")

# Keys of the event payloads that hold hidden cards, walked below the payload field.
PAYLOAD_KEYS = ("", "__cards", "__player")

_NONCE = re.compile(r'(nonce|value|content)="[^"]*"')


def _world() -> dict[str, object]:
    """A live hold'em hand with a guest at the table, a home game and axes' records."""
    table, seats = open_table("holdem", players=3)
    guest = table_join(code=table.code, invite_token=table.invite_token, guest_name="Guest", guest_token="g" * 40)
    home = HomeGame.objects.create(name="Fridays", host=table.host)
    home.members.add(table.host)
    Night.objects.create(home_game=home, table=table)
    AccessAttempt.objects.create(
        user_agent="ua",
        ip_address="10.0.0.1",
        username=seats[1].user.username,
        http_accept="*/*",
        path_info="/accounts/login/",
        get_data="next=/secret-a/",
        post_data="username=x&note=secret-a",
        failures_since_start=1,
    )
    AccessLog.objects.create(
        user_agent="ua",
        ip_address="10.0.0.1",
        username=seats[1].user.username,
        http_accept="*/*",
        path_info="/accounts/login/",
        session_hash="a" * 64,
    )
    hole = Event.objects.filter(table=table, kind="hole_cards").order_by("seq").first()
    assert hole is not None and hole.hand is not None and hole.hand.ended_at is None
    return {"table": table, "seats": seats, "guest": guest, "hole": hole}


def _guesses(world: dict[str, object]) -> dict[str, list[str]]:
    """World A's true secrets, by the field (or payload key) they are guessed through."""
    table = world["table"]
    hole = world["hole"]
    assert isinstance(table, Table) and isinstance(hole, Event)
    card = hole.payload["cards"][0]
    user = User.objects.filter(seats__table=table).order_by("pk").first()
    assert user is not None
    return {
        "secret_seed": [bytes(table.secret_seed).hex()[:4]],
        "invite_token": [table.invite_token[:3]],
        "guest_token": ["g" * 5],
        "payload": [card],
        "password": [user.password[:24]],
        "session_hash": ["a" * 4],
        "get_data": ["secret-a"],
        "post_data": ["secret-a"],
    }


def _to_world_b(world: dict[str, object]) -> None:
    """The same rows, other secrets: what an oracle would tell apart."""
    for table in Table.objects.all():
        Table.objects.filter(pk=table.pk).update(secret_seed=secrets.token_bytes(32), invite_token="Z" * 22)
    Seat.objects.exclude(guest_token="").update(guest_token="h" * 40)
    holes = list(Event.objects.filter(kind="hole_cards").order_by("seq"))
    for event, other in zip(holes, holes[1:] + holes[:1], strict=True):
        payload = dict(event.payload, cards=other.payload["cards"])
        Event.objects.filter(pk=event.pk).update(payload=payload)
    User.objects.exclude(username="operator").update(password=make_password("another-Password-9"))
    AccessAttempt.objects.update(get_data="next=/other-b/", post_data="username=x&note=other-b")
    AccessLog.objects.update(session_hash="b" * 64)


def _paths(model: type[models.Model], depth: int, prefix: str = "", seen: tuple = ()) -> Iterator[tuple[str, object]]:
    """(lookup path, final field) for every field reachable in ``depth`` steps."""
    for field in model._meta.get_fields():
        path = prefix + field.name  # a reverse relation's name is its query name
        yield path, field
        if field.is_relation and depth > 1 and field.related_model is not None and field.related_model not in seen:
            yield from _paths(field.related_model, depth - 1, path + "__", (*seen, model))


def _secret_name(field: object) -> str | None:
    name = getattr(field, "name", None)
    return name if isinstance(name, str) and name in SECRET_GUESS_FIELDS else None


SECRET_GUESS_FIELDS = (
    "secret_seed",
    "invite_token",
    "guest_token",
    "payload",
    "password",
    "session_hash",
    "get_data",
    "post_data",
)


def _changelists() -> list[tuple[type[models.Model], str]]:
    return [
        (model, reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"))
        for model in registered_admins()
    ]


def _answer(client: Client, url: str, params: dict[str, str]) -> tuple[int, str, str]:
    response = client.get(url, params)
    assert response.status_code != 500, (url, params)
    body = _NONCE.sub("", response.content.decode()) if response.status_code == 200 else ""
    return response.status_code, response.get("Location", ""), body


@pytest.fixture(autouse=True)
def _quiet_refusals():
    """Each refused lookup is logged with its traceback (django.security): not thousands here."""
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


@pytest.fixture
def operator(client: Client) -> Client:
    client.raise_request_exception = False
    client.force_login(User.objects.create_superuser(username="operator", password="x-Admin-pass-1"))
    return client


def _questions(guesses: dict[str, list[str]]) -> list[tuple[str, dict[str, str]]]:
    """Questions about a secret, on every changelist, through every path (depth 3): each
    path asked exactly and by regex, and by one more suffix in turn (all of them, over
    the paths: the walk stays a few seconds long)."""
    questions = []
    turn = 0
    for model, url in _changelists():
        for path, field in _paths(model, depth=3):
            secret = _secret_name(field)
            if secret is None:
                continue
            keys = PAYLOAD_KEYS if secret == "payload" else ("",)
            for key in keys:
                turn += 1
                for suffix in ("", "__regex", SUFFIXES[2 + turn % (len(SUFFIXES) - 2)]):
                    for value in guesses[secret]:
                        shown = "false" if suffix == "__isnull" else value
                        questions.append((url, {f"{path}{key}{suffix}": shown}))
    return questions


def test_every_changelist_answers_the_same_whatever_the_secrets(operator):
    world = _world()
    questions = _questions(_guesses(world))
    assert len(questions) > 300  # the walk reaches the secrets through many paths
    in_a = [_answer(operator, url, params) for url, params in questions]
    _to_world_b(world)
    in_b = [_answer(operator, url, params) for url, params in questions]
    differing = [questions[index] for index, (a, b) in enumerate(zip(in_a, in_b, strict=True)) if a != b]
    assert differing == []
    # The plain list still works, and the secrets themselves are never on it.
    for _model, url in _changelists():
        assert operator.get(url).status_code == 200


def test_no_lookup_on_any_field_answers_500(operator, rf):
    """Every field and relation path (depth 2) of every changelist, with odd values: each
    lookup the admin accepts is asked through the page (a refused one is Django's 400 before
    any query; one in eight of those is asked too, to see it)."""
    _world()
    request = rf.get("/")
    request.user = User.objects.get(username="operator")
    asked = refused = 0
    for model, url in _changelists():
        model_admin = admin.site.get_model_admin(model)
        for path, _field in _paths(model, depth=2):
            probes = (("__exact", "\x00"), ("__lt", "\x00")) if "__" not in path else (("__lt", "\x00"),)
            for suffix, value in probes:
                key = f"{path}{suffix}"
                if not model_admin.lookup_allowed(key, value, request):
                    refused += 1
                    if refused % 8:
                        continue
                    assert _answer(operator, url, {key: value})[0] == 400, (url, key)
                    continue
                status, _location, _body = _answer(operator, url, {key: value})
                assert status in (200, 302), (url, key, status)
                asked += 1
        for params in ({"q": "\x00"}, {"o": "1.2.3.-4.99"}, {"_to_field": "secret_seed", "_popup": "1"}):
            assert _answer(operator, url, params)[0] in (200, 302, 400)
    assert asked > 100 and refused > 400


@pytest.mark.parametrize(
    ("changelist", "lookup", "secret"),
    [
        ("tables_event", "payload__cards__icontains", "card"),
        ("tables_table", "secret_seed__regex", "seed"),
        ("tables_table", "secret_seed__lt", "seed"),
        ("tables_table", "secret_seed__exact", "seed"),
        ("tables_table", "invite_token__startswith", "invite"),
        ("tables_seat", "guest_token__startswith", "guest"),
        ("tables_seat", "table__secret_seed__startswith", "seed"),
        ("tables_event", "table__invite_token__startswith", "invite"),
        ("tables_table", "events__payload__icontains", "card"),
        ("accounts_user", "password__startswith", "password"),
        ("accounts_user", "seats__guest_token__startswith", "guest"),
    ],
)
def test_the_issues_attacks_are_refused_alike_for_true_and_false_guesses(operator, changelist, lookup, secret):
    world = _world()
    table, hole = world["table"], world["hole"]
    assert isinstance(table, Table) and isinstance(hole, Event)
    seed = bytes(table.secret_seed).hex()
    true_value = {
        "card": hole.payload["cards"][0],
        "seed": "^" + seed[:2] if lookup.endswith("regex") else seed,
        "invite": table.invite_token[:4],
        "guest": "g" * 4,
        "password": User.objects.exclude(username="operator").first().password[:16],
    }[secret]
    url = reverse(f"admin:{changelist}_changelist")
    answers = {_answer(operator, url, {lookup: value}) for value in (true_value, "no-such-value")}
    assert len(answers) == 1
    (status, _location, _body) = answers.pop()
    assert status == 400  # Django's "Filtering by ... not allowed"


def test_every_admin_is_guarded_and_names_no_secret_in_its_own_lists(rf):
    request = rf.get("/")
    request.user = User(is_superuser=True, is_staff=True)
    for model, model_admin in registered_admins().items():
        assert isinstance(model_admin, GuardedLookups), model
        for name in model_admin.get_search_fields(request):
            assert path_allowed(model, name.lstrip("^=@")), (model, name)
        for term in model_admin.get_ordering(request):
            assert not isinstance(term, str) or path_allowed(model, term.lstrip("-")), (model, term)
        for item in model_admin.get_list_filter(request):
            name = item[0] if isinstance(item, (list, tuple)) else item
            assert not isinstance(name, str) or path_allowed(model, name), (model, name)
        for column in model_admin.get_sortable_by(request):
            try:
                field = model._meta.get_field(column)
            except FieldDoesNotExist:  # a method column: its admin_order_field is checked by the guard
                continue
            assert not field_is_secret(field), (model, column)
        fields = model_admin.get_fields(request) if not model_admin.fieldsets else []
        for name in fields:
            try:
                field = model._meta.get_field(name)
            except Exception:
                continue
            # The change page of a model with a secret column never shows that column,
            # except the event payload, masked during a live hand (test_admin_hidden_cards).
            if model is not Event and model is not Hand:
                assert not (field_is_secret(field) and not isinstance(field, models.JSONField)), (model, name)


def test_every_secret_looking_column_of_the_site_is_a_secret_to_the_admin():
    """A new column called token, secret, seed, password, hash or key is refused by the
    guard from the day it is added, or this test names it."""
    looks_secret = re.compile(r"token|secret|seed_bytes|password|hash|session|_key$|post_data|get_data")
    for model in registered_admins():
        for field in model._meta.get_fields():
            if field.concrete and looks_secret.search(field.name) and field.name != "seed_commitment":
                assert field_is_secret(field), (model, field.name)


def test_every_binary_and_json_column_is_refused_to_lookups(operator):
    for model, _url in _changelists():
        for path, field in _paths(model, depth=2):
            if isinstance(field, (models.BinaryField, models.JSONField)):
                assert not path_allowed(model, path) and not path_allowed(model, path + "__isnull"), (model, path)
    hand_list = reverse("admin:tables_hand_changelist")
    assert operator.get(hand_list, {"plan__players__icontains": "1"}).status_code == 400


def test_no_admin_page_shows_the_seed_or_a_token(operator):
    world = _world()
    table, guest = world["table"], world["guest"]
    assert isinstance(table, Table) and isinstance(guest, Seat)
    secrets_shown = [bytes(table.secret_seed).hex(), table.invite_token, guest.guest_token]
    pages = [url for _model, url in _changelists()] + [
        reverse("admin:tables_table_change", args=[table.pk]),
        reverse("admin:tables_seat_change", args=[guest.pk]),
        *(
            reverse("admin:tables_event_change", args=[pk])
            for pk in Event.objects.filter(table=table).values_list("pk", flat=True)[:10]
        ),
    ]
    for url in pages:
        response = operator.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        for secret in secrets_shown:
            assert secret not in body, url
