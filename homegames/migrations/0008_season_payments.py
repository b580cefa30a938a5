"""Payments marked during an open season (issue 38): kept apart from the chips, and
subtracted from what the open season still lists."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0007_home_game_from_ledger'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SeasonPayment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('payer_key', models.CharField(max_length=60)),
                ('payee_key', models.CharField(max_length=60)),
                ('payer_name', models.CharField(max_length=40, verbose_name='from')),
                ('payee_name', models.CharField(max_length=40, verbose_name='to')),
                ('amount', models.DecimalField(decimal_places=2, max_digits=12, verbose_name='amount')),
                ('currency', models.CharField(blank=True, default='', max_length=3, verbose_name='currency')),
                ('marked_as', models.CharField(choices=[('host', 'the host'), ('payer', 'the payer'), ('payee', 'the payee')], max_length=5, verbose_name='marked as')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='marked at')),
                ('home_game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='season_payments', to='homegames.homegame', verbose_name='home game')),
                ('marked_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='marked by')),
                ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='payments', to='homegames.season', verbose_name='season')),
            ],
            options={
                'verbose_name': 'payment during a season',
                'verbose_name_plural': 'payments during a season',
                'ordering': ['at', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='season_payment_amount_positive'), models.CheckConstraint(condition=models.Q(('payer_key', models.F('payee_key')), _negated=True), name='season_payment_two_people')],
            },
        ),
    ]
