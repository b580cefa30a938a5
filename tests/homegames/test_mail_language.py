"""A member's mails come in the language she reads the site in (issue 38, second trial: a German
member who followed her browser's language, her account's choice empty, got them in English).

The account keeps the language its pages were last shown in while it follows the browser
(``User.browser_language``, written by ``accounts.language``'s middleware when it changes);
a language chosen on the account (profile, switcher) wins; an account that never opened a
page gets the site's default."""

from __future__ import annotations

from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from homegames.services import notices_send_due
from tests.homegames.test_notices import group, schedule  # noqa: F401 (fixture)


def signed_in(user):
    """A browser of her own (its own language cookie), signed in."""
    client = Client()
    client.force_login(user)
    return client


def visit(client, accept_language):
    response = client.get(reverse("ledger:home_game_list"), HTTP_ACCEPT_LANGUAGE=accept_language)
    assert response.status_code == 200


def subjects(address):
    return [m.subject for m in mail.outbox if m.to == [address]]


def test_a_member_who_follows_her_browser_is_written_to_in_its_language(group):  # noqa: F811
    _home_game, _host, members, _template = group
    dipa, chandra, bikash = members["dipa"], members["chandra"], members["bikash"]
    dipas = signed_in(dipa)
    visit(dipas, "de-DE,de;q=0.9,en;q=0.5")  # her account's language empty: the browser's
    bikash.language = "ne"  # his own choice, whatever his browser says
    bikash.save()
    visit(signed_in(bikash), "de")
    schedule(group, days=3)
    notices_send_due()
    (german,) = subjects("dipa@example.org")
    assert german.startswith("Ein Abend von Friday Faras: ")
    (nepali,) = subjects("bikash@example.org")
    assert nepali.startswith("Friday Faras को एउटा रात: ")
    (english,) = subjects("chandra@example.org")  # never opened a page: the site's default
    assert english.startswith("A night of Friday Faras: ")
    for other in (chandra, bikash):
        other.refresh_from_db()
        assert other.browser_language == ""  # nothing kept: no page, or a language of his own

    # Her browser changes to Hindi: the next mail follows.
    visit(dipas, "hi")
    mail.outbox.clear()
    schedule(group, days=4)
    notices_send_due()
    (hindi,) = subjects("dipa@example.org")
    assert hindi.startswith("Friday Faras की एक रात: ")


def test_the_language_is_written_once_when_it_changes_not_on_every_page(group):  # noqa: F811
    _home_game, _host, members, _template = group
    dipa = members["dipa"]
    client = signed_in(dipa)
    visit(client, "de")
    dipa.refresh_from_db()
    assert dipa.browser_language == "de"
    with CaptureQueriesContext(connection) as queries:
        visit(client, "de")
    assert not [query for query in queries if 'UPDATE "accounts_user"' in query["sql"]]
