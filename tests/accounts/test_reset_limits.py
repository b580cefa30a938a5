"""Password-reset mail, limited as a stranger would misuse it (issue 34, item 9: one
stranger sent 25 reset mails to one address). Per client address, a 429 with ``Retry-After``
past the bound; per e-mail address asked for, from however many client addresses, no more
mails past the bound and the very same page as ever, so the page never tells whether an
account has that address."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.views import RESETS_PER_ADDRESS, RESETS_PER_TARGET
from config import limits
from config.limits import secret_digest
from tests.homegames.test_feed_limits import Clock

pytestmark = pytest.mark.django_db

VICTIM = "gita@example.com"
STRANGER = "10.9.8.7"
OTHER_STRANGER = "10.9.8.8"
MANY = [f"10.20.{index // 250}.{index % 250 + 1}" for index in range(25)]


@pytest.fixture(autouse=True)
def counts_forgotten():
    def forget():
        for address in [STRANGER, OTHER_STRANGER, *MANY]:
            RESETS_PER_ADDRESS.forget(address)
        for target in (VICTIM, "nobody@example.com"):
            RESETS_PER_TARGET.forget(secret_digest(target))

    forget()
    yield
    forget()


@pytest.fixture
def clock(monkeypatch):
    moved = Clock()
    monkeypatch.setattr(limits, "now", moved)
    return moved


@pytest.fixture
def victim():
    return User.objects.create(username="gita", email=VICTIM)


def ask(client, email, address):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def answers(responses):
    return [(r.status_code, r.get("Location"), r.get("Retry-After")) for r in responses]


def test_a_stranger_asking_25_resets_for_one_address_sends_three_then_gets_429(client, victim, clock):
    responses = [ask(client, VICTIM, STRANGER) for _ in range(25)]
    assert len(mail.outbox) == 3 and {m.to[0] for m in mail.outbox} == {VICTIM}
    done = (302, reverse("password_reset_done"), None)
    # The first 10 requests are answered alike, mail or not; then the address waits an hour.
    assert answers(responses[:10]) == [done] * 10
    assert answers(responses[10:]) == [(429, None, "3600")] * 15
    assert "Ask again in 60 minutes." in responses[10].content.decode()
    # The hour over, the address may ask again and the victim gets mail again.
    clock.at += 3600
    assert answers([ask(client, VICTIM, STRANGER)]) == [done]
    assert len(mail.outbox) == 4


def test_25_client_addresses_asking_for_one_target_send_three_and_all_see_the_same_page(client, victim, clock):
    responses = [ask(client, VICTIM, address) for address in MANY]
    assert len(mail.outbox) == 3
    assert answers(responses) == [(302, reverse("password_reset_done"), None)] * 25


def test_the_limits_answer_alike_whether_or_not_an_account_has_the_address(client, victim, clock):
    known = answers([ask(client, VICTIM, address) for address in MANY[:12]])
    unknown = answers([ask(client, "nobody@example.com", address) for address in MANY[:12]])
    assert known == unknown
    known_one = answers([ask(client, VICTIM, STRANGER) for _ in range(12)])
    unknown_one = answers([ask(client, "nobody@example.com", OTHER_STRANGER) for _ in range(12)])
    assert known_one == unknown_one and [status for status, _url, _wait in known_one] == [302] * 10 + [429] * 2
    assert {m.to[0] for m in mail.outbox} == {VICTIM}
