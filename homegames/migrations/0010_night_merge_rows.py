"""One night model (issue 35), step 2 of 3: every table counted as a night of a home game
(``HomeGameNight``) becomes part of a night (the ``PlannedNight`` table's rows).

- A table with a planned night of the same home game: its season and the time it was added
  go onto the planned night, which keeps its id (its URL, its calendar UID, its answers and
  notices).
- A table added after the fact (no planned night): a night of its own, with no plan, created
  when the table was added.
- A planned night whose table was counted in another home game (never made by the site; kept
  so that no row is lost): the planned night keeps its plan and answers and lets go of the
  table, which becomes a night of the home game it was counted in.

Backwards, each night with a table is counted again as ``HomeGameNight`` and the nights with
no plan are removed (their table is in ``HomeGameNight`` again): the rows of before.
"""

from django.db import migrations


def merge(apps, schema_editor):
    night_model = apps.get_model("homegames", "PlannedNight")
    counted_model = apps.get_model("homegames", "HomeGameNight")
    for counted in counted_model.objects.order_by("pk"):
        night = night_model.objects.filter(table_id=counted.table_id).first()
        if night is not None and night.home_game_id != counted.home_game_id:
            night.table_id = None
            night.save(update_fields=["table"])
            night = None
        if night is None:
            night = night_model.objects.create(home_game_id=counted.home_game_id, table_id=counted.table_id)
        night_model.objects.filter(pk=night.pk).update(
            season_id=counted.season_id,
            added_at=counted.added_at,
            **({} if night.starts_at else {"created_at": counted.added_at}),
        )


def split(apps, schema_editor):
    night_model = apps.get_model("homegames", "PlannedNight")
    counted_model = apps.get_model("homegames", "HomeGameNight")
    for night in night_model.objects.filter(table__isnull=False).order_by("pk"):
        counted = counted_model.objects.create(
            home_game_id=night.home_game_id, table_id=night.table_id, season_id=night.season_id
        )
        counted_model.objects.filter(pk=counted.pk).update(added_at=night.added_at or night.created_at)
    night_model.objects.filter(starts_at__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0009_night_planned_or_played'),
    ]

    operations = [
        migrations.RunPython(merge, split),
    ]
