"""The ledger keeps a table's shared costs, each a line of its own (docs/ledger.md, "Shared
costs"); kitchen.0004 moves the kitchen nights' costs here."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0006_home_game_to_homegames'),
        ('tables', '0011_seat_link_moves_and_claim'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SharedCost',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('what', models.CharField(max_length=60, verbose_name='what')),
                ('amount', models.DecimalField(decimal_places=2, max_digits=12, verbose_name='amount')),
                ('shares', models.JSONField(default=dict, verbose_name='shares')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='recorded')),
                ('paid_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.seat', verbose_name='paid by')),
                ('recorded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='shared_costs', to='tables.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'shared cost',
                'verbose_name_plural': 'shared costs',
                'ordering': ['table', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='ledger_cost_positive')],
            },
        ),
    ]
