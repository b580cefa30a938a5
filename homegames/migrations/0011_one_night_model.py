"""One night model (issue 35), step 3 of 3: ``HomeGameNight`` is gone (its rows are in the
nights since ``0010``) and ``PlannedNight`` is ``Night``: planned, played, or both."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0010_night_merge_rows'),
        ('tables', '0001_initial'),
    ]

    operations = [
        migrations.DeleteModel(
            name='HomeGameNight',
        ),
        migrations.RenameModel(
            old_name='PlannedNight',
            new_name='Night',
        ),
        migrations.AlterModelOptions(
            name='night',
            options={'ordering': ['starts_at', 'id'], 'verbose_name': 'night', 'verbose_name_plural': 'nights'},
        ),
        migrations.AlterField(
            model_name='night',
            name='home_game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='nights', to='homegames.homegame', verbose_name='home game'),
        ),
        migrations.AlterField(
            model_name='night',
            name='season',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='nights', to='homegames.season', verbose_name='season'),
        ),
        migrations.AlterField(
            model_name='night',
            name='table',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='night', to='tables.table', verbose_name='table'),
        ),
        migrations.AddConstraint(
            model_name='night',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('seat_limit__isnull', True), ('starts_at__isnull', True)), models.Q(('seat_limit__isnull', False), ('starts_at__isnull', False)), _connector='OR'), name='night_plan_whole'),
        ),
        migrations.AddConstraint(
            model_name='night',
            constraint=models.CheckConstraint(condition=models.Q(('starts_at__isnull', False), ('table__isnull', False), _connector='OR'), name='night_planned_or_played'),
        ),
    ]
