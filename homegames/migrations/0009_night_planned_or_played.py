"""One night model (issue 35), step 1 of 3: the planned night's row learns what a table
counted as a night of the home game held (``season``, ``added_at``), and its plan may be
empty (a table added after the fact has no time, place, template or seat limit). Its table
is deleted with it, as the counted night's was (a planned night's was let go of)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0008_season_payments'),
        ('tables', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='plannednight',
            name='added_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='added'),
        ),
        migrations.AddField(
            model_name='plannednight',
            name='season',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='homegames.season', verbose_name='season'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='starts_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='starts'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='place',
            field=models.CharField(blank=True, default='', max_length=200, verbose_name='place'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='template',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='nights', to='homegames.nighttemplate', verbose_name='template'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='seat_limit',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat limit'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='created_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='scheduled by'),
        ),
        migrations.AlterField(
            model_name='plannednight',
            name='table',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='planned_night', to='tables.table', verbose_name='table'),
        ),
        migrations.RemoveConstraint(
            model_name='plannednight',
            name='planned_night_two_seats',
        ),
        migrations.AddConstraint(
            model_name='plannednight',
            constraint=models.CheckConstraint(condition=models.Q(('seat_limit__isnull', True), ('seat_limit__gte', 2), _connector='OR'), name='planned_night_two_seats'),
        ),
    ]
