"""Scheduling a night straight away, without a template made first: the game chosen on the
night's form is played with the usual settings (those a new table starts with), kept as the
home game's plain template of that game (empty ``choices``), made at its first night and used
again after; and a seat limit left empty is every seat of the template's table. Keyword-only;
one transaction with the scheduling itself (``services.night_schedule``), so a night refused
leaves no template behind. Templates of one's own house rules are kept as before
(``services.night_template_save``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import User
from homegames.models import HomeGame, Night, NightTemplate
from homegames.services import night_schedule, night_template_save
from tables.services.errors import ServiceError
from tables.services.table_settings import table_settings_build


def is_plain(template: NightTemplate) -> bool:
    """A game's usual settings, made for a night scheduled without a template."""
    return not template.choices


def template_seats(template: NightTemplate) -> int:
    """The seats of the template's table (the most a night of it may hold); 2 for a template
    the rules no longer take (scheduling it is refused with its own reason)."""
    try:
        return int(table_settings_build(game=template.game, choices=template.choices)["seats"])
    except ServiceError:
        return 2


@transaction.atomic
def night_schedule_plain(
    *,
    home_game: HomeGame,
    template: NightTemplate | None,
    game: str,
    game_name: str,
    starts_at: datetime,
    time_zone: str,
    place: str,
    seat_limit: int | None,
    by: User,
) -> Night:
    """Schedule a night with ``template``, or without one with ``game``'s usual settings (its
    plain template, named ``game_name``, made once); ``seat_limit`` None is every seat of the
    template's table. Refused as ``night_schedule`` and ``night_template_save`` refuse
    (``not_co_host`` first, ``bad_game``), writing nothing."""
    if template is None:
        template = next(
            (found for found in NightTemplate.objects.filter(home_game=home_game, game=game) if is_plain(found)),
            None,
        ) or night_template_save(home_game=home_game, name=game_name, game=game, choices={}, by=by)
    return night_schedule(
        home_game=home_game,
        template=template,
        starts_at=starts_at,
        time_zone=time_zone,
        place=place,
        seat_limit=template_seats(template) if seat_limit is None else seat_limit,
        by=by,
    )
