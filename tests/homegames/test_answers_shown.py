"""Answers as a poll shows them (issue 38, point 7): the member's own answer is the pressed
button (``aria-pressed``), the members who have not answered are listed, an answer may carry
a few words ("30 min late"), and the host hears of answers in one digest mail (through the
notices, coalesced), not one mail per answer."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from homegames.models import Answer, Notice
from homegames.services import ANSWER_DIGEST_DELAY, NightError, night_answer, notices_send_due
from tests.homegames.test_nights import url
from tests.homegames.test_notices import group, schedule  # noqa: F401 (the fixture)


def pressed(body: str) -> dict[str, str]:
    return dict(re.findall(r'name="reply" value="(\w+)"[^>]*aria-pressed="(true|false)"', body))


def test_the_chosen_answer_is_pressed_and_the_unanswered_are_listed(client, group):  # noqa: F811
    _home_game, host, members, _template = group
    night = schedule(group)
    client.force_login(members["bikash"])
    body = client.get(url("night_detail", night)).content.decode()
    assert pressed(body) == {"yes": "false", "maybe": "false", "no": "false"}
    client.post(url("night_answer", night), {"reply": "maybe", "comment": "  30 min   late "})
    body = client.get(url("night_detail", night)).content.decode()
    assert pressed(body) == {"yes": "false", "maybe": "true", "no": "false"}
    assert "30 min late" in body  # beside the name, and kept in the field
    unanswered = re.search(r'<ul class="answers answers--none">(.*?)</ul>', body, re.S)
    assert unanswered is not None
    names = re.findall(r"<li>([^<]+)</li>", unanswered.group(1))
    assert sorted(names) == sorted([host.table_name, members["chandra"].table_name, members["dipa"].table_name])
    assert Answer.objects.get(user=members["bikash"]).comment == "30 min late"


def test_a_too_long_comment_is_refused_and_writes_nothing(client, group):  # noqa: F811
    _home_game, _host, members, _template = group
    night = schedule(group)
    with pytest.raises(NightError) as refused:
        night_answer(night=night, user=members["bikash"], reply="yes", comment="x" * 101)
    assert refused.value.code == "bad_comment"
    client.force_login(members["bikash"])
    client.post(url("night_answer", night), {"reply": "yes", "comment": "x" * 101})
    assert not Answer.objects.exists()
    assert not Notice.objects.filter(kind=Notice.Kind.ANSWERS).exists()


def test_the_host_gets_one_digest_of_answers_not_one_mail_each(group):  # noqa: F811
    _home_game, host, members, _template = group
    night = schedule(group)
    notices_send_due()  # the invitations
    mail.outbox.clear()
    night_answer(night=night, user=host, reply="yes")  # her own answer tells no one
    assert not Notice.objects.filter(kind=Notice.Kind.ANSWERS).exists()
    night_answer(night=night, user=members["bikash"], reply="yes", comment="bringing snacks")
    night_answer(night=night, user=members["chandra"], reply="maybe")
    night_answer(night=night, user=members["dipa"], reply="yes")
    night_answer(night=night, user=members["dipa"], reply="no", comment="sorry, ill")
    assert Notice.objects.filter(kind=Notice.Kind.ANSWERS).count() == 1
    notices_send_due()
    assert [m for m in mail.outbox if m.to == ["asha@example.org"]] == []  # not yet due
    later = timezone.now() + ANSWER_DIGEST_DELAY + timedelta(seconds=1)
    notices_send_due(now=later)
    (digest,) = [m for m in mail.outbox if m.to == ["asha@example.org"]]
    assert digest.subject.startswith("New answers: Friday Faras")
    assert "bikash: Yes (bringing snacks)" in digest.body
    assert "chandra: Maybe" in digest.body
    assert "dipa: No (sorry, ill)" in digest.body and "dipa: Yes" not in digest.body
    assert "Coming: 2 of 4 seats; waiting: 0." in digest.body
    # An answer after the digest went out starts the next one, which tells only what is new.
    night_answer(night=night, user=members["chandra"], reply="yes")
    assert Notice.objects.filter(kind=Notice.Kind.ANSWERS, sent_at__isnull=True).count() == 1
    mail.outbox.clear()
    notices_send_due(now=later + ANSWER_DIGEST_DELAY * 2)
    (second,) = mail.outbox
    assert "chandra: Yes" in second.body and "bikash" not in second.body
