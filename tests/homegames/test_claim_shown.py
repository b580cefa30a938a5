"""Who is shown "Claim your seat" (issue 38, found by the second group's trial: it was shown
to every member, the host included). A claim says a guest seat of one of the home game's
nights was the member's, so her results there count as hers: it concerns a member who had
no seat of her own at that night's table, did not host it, and has not claimed a seat there
already, and only nights of the open season (a closed season's results stay as settled).
Everyone else is shown no seat to claim, and the host who hosted every night sees nothing;
claiming a seat of a night where one sat, or claimed a seat already, is refused (``own_seat``)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from homegames.models import SeatClaim
from homegames.services_members import home_game_add_table, home_game_create, home_game_join, seat_claim_make
from homegames.services_seasons import season_close
from ledger.services import LedgerError
from tests.ledger.conftest import make_user
from tests.ledger.test_views import play_night

CLAIM = "Were you a guest at a past night? Claim your seat"


def shown(client, user, home_game) -> tuple[bool, set[int]]:
    """Whether the page offers claims to ``user``, and the seats it offers."""
    client.force_login(user)
    page = client.get(reverse("ledger:home_game_detail", kwargs={"home_game_id": home_game.pk})).content.decode()
    seats = {int(number) for number in re.findall(rf"/home-games/{home_game.pk}/seats/(\d+)/claim/", page)}
    return CLAIM in page, seats


def test_the_claim_is_shown_only_to_members_it_concerns(client, db):
    host = make_user("asha")
    home_game = home_game_create(name="Friday Faras", host=host)
    bikash, chandra, dipa = make_user("bikash"), make_user("chandra"), make_user("dipa")
    for user in (bikash, chandra, dipa):
        home_game_join(home_game=home_game, token=home_game.invite_token, user=user)
    first, first_seats = play_night(
        host, results={"Asha": 1200, "Bikash": 900, "Gita": 900, "Indu": 1000}, others={"Bikash": bikash}
    )
    second, second_seats = play_night(host, results={"Asha": 1100, "Hari": 900})
    for table in (first, second):
        home_game_add_table(home_game=home_game, table=table, by=host)
    gita, indu, hari = first_seats["Gita"].pk, first_seats["Indu"].pk, second_seats["Hari"].pk

    assert shown(client, host, home_game) == (False, set())  # she hosted both nights
    assert shown(client, bikash, home_game) == (True, {hari})  # he sat at the first with his account
    assert shown(client, chandra, home_game) == (True, {gita, indu, hari})
    # Chandra says she was Gita: no other seat of that night for her, and Gita's is gone for all.
    seat_claim_make(home_game=home_game, seat=first_seats["Gita"], by=chandra)
    assert shown(client, chandra, home_game) == (True, {hari})
    assert shown(client, dipa, home_game) == (True, {indu, hari})
    # Claiming anyway, a seat of a night where one sat or claimed already, is refused.
    for user in (bikash, chandra):
        client.force_login(user)
        claim = reverse("ledger:seat_claim", kwargs={"home_game_id": home_game.pk, "seat_id": indu})
        response = client.post(claim, follow=True)
        assert "You had a seat of your own at that night" in response.content.decode()
    with pytest.raises(LedgerError) as refused:
        seat_claim_make(home_game=home_game, seat=first_seats["Indu"], by=bikash)
    assert refused.value.code == "own_seat"
    assert list(SeatClaim.objects.values_list("seat_id", "user__username")) == [(gita, "chandra")]
    # The season closes: its nights' results stay as settled, so nothing is offered.
    season_close(home_game=home_game, by=host)
    for user in (host, bikash, chandra, dipa):
        assert shown(client, user, home_game) == (False, set())
