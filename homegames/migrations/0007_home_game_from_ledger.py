"""The home game's models come over from the ledger: HomeGame, HomeGameNight, Season,
SeasonTransfer and SeatClaim, and the nights' templates, planned nights and feeds point at
homegames.HomeGame. Django's state only: the tables keep their names (each model's
``db_table``, the members' and co-hosts' tables following from ``ledger_homegame``), so not
one row is copied or touched. Their content types are renamed to this app, so the admin's
permissions and history stay with them. ``ledger.0006`` then forgets the models.
(tests/homegames/test_move_migrations.py migrates a filled database across this.)"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED = ("homegame", "homegamenight", "season", "seasontransfer", "seatclaim")


def content_types_move(apps, schema_editor, *, source="ledger", target="homegames"):
    """The moved models' content types (if Django made them already) follow the models."""
    content_type = apps.get_model("contenttypes", "ContentType")
    taken = set(content_type.objects.filter(app_label=target, model__in=MOVED).values_list("model", flat=True))
    content_type.objects.filter(app_label=source, model__in=[m for m in MOVED if m not in taken]).update(
        app_label=target
    )


def content_types_back(apps, schema_editor):
    content_types_move(apps, schema_editor, source="homegames", target="ledger")


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0006_answer_comments_and_digest'),
        ('ledger', '0005_home_game_members'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('tables', '0011_seat_link_moves_and_claim'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='HomeGame',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('invite_token', models.CharField(db_index=True, default='', editable=False, max_length=43, verbose_name='invite token')),
                        ('settle_by', models.CharField(choices=[('night', 'Night by night'), ('season', 'Once a season')], default='night', max_length=8, verbose_name='settle up')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('co_hosts', models.ManyToManyField(blank=True, related_name='co_hosted_home_games', to=settings.AUTH_USER_MODEL, verbose_name='co-hosts')),
                        ('host', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_home_games', to=settings.AUTH_USER_MODEL, verbose_name='host')),
                        ('members', models.ManyToManyField(blank=True, related_name='home_games', to=settings.AUTH_USER_MODEL, verbose_name='members')),
                    ],
                    options={
                        'verbose_name': 'home game',
                        'verbose_name_plural': 'home games',
                        'db_table': 'ledger_homegame',
                        'ordering': ['name', 'id'],
                    },
                ),
                migrations.AlterField(
                    model_name='calendarfeed',
                    name='home_game',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='calendar_feeds', to='homegames.homegame', verbose_name='home game'),
                ),
                migrations.AlterField(
                    model_name='nighttemplate',
                    name='home_game',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='night_templates', to='homegames.homegame', verbose_name='home game'),
                ),
                migrations.AlterField(
                    model_name='plannednight',
                    name='home_game',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='planned_nights', to='homegames.homegame', verbose_name='home game'),
                ),
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField(verbose_name='number')),
                        ('settle_by', models.CharField(choices=[('night', 'Night by night'), ('season', 'Once a season')], max_length=8, verbose_name='settle up')),
                        ('currency', models.CharField(blank=True, default='', max_length=3, verbose_name='currency')),
                        ('closed_at', models.DateTimeField(auto_now_add=True, verbose_name='closed')),
                        ('closed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='closed by')),
                        ('home_game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='homegames.homegame', verbose_name='home game')),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'db_table': 'ledger_season',
                        'ordering': ['home_game', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='HomeGameNight',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('added_at', models.DateTimeField(auto_now_add=True, verbose_name='added')),
                        ('home_game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='nights', to='homegames.homegame', verbose_name='home game')),
                        ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='home_game_night', to='tables.table', verbose_name='table')),
                        ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='nights', to='homegames.season', verbose_name='season')),
                    ],
                    options={
                        'verbose_name': 'home game night',
                        'verbose_name_plural': 'home game nights',
                        'db_table': 'ledger_homegamenight',
                        'ordering': ['home_game', 'table__created_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='SeasonTransfer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('payer_key', models.CharField(max_length=60)),
                        ('payee_key', models.CharField(max_length=60)),
                        ('payer_name', models.CharField(max_length=40, verbose_name='from')),
                        ('payee_name', models.CharField(max_length=40, verbose_name='to')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=12, verbose_name='amount')),
                        ('paid_at', models.DateTimeField(blank=True, null=True, verbose_name='marked at')),
                        ('paid_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='marked by')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='transfers', to='homegames.season', verbose_name='season')),
                    ],
                    options={
                        'verbose_name': 'season transfer',
                        'verbose_name_plural': 'season transfers',
                        'db_table': 'ledger_seasontransfer',
                        'ordering': ['season', 'payer_name', 'payee_name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='SeatClaim',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                        ('home_game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='claims', to='homegames.homegame', verbose_name='home game')),
                        ('seat', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='claim', to='tables.seat', verbose_name='seat')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_claims', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                    ],
                    options={
                        'verbose_name': 'seat claim',
                        'verbose_name_plural': 'seat claims',
                        'db_table': 'ledger_seatclaim',
                        'ordering': ['home_game', 'created_at', 'id'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.UniqueConstraint(fields=('home_game', 'number'), name='season_number_once'),
                ),
                migrations.AddConstraint(
                    model_name='seasontransfer',
                    constraint=models.UniqueConstraint(fields=('season', 'payer_key', 'payee_key'), name='season_transfer_once'),
                ),
                migrations.AddConstraint(
                    model_name='seasontransfer',
                    constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='season_transfer_amount_positive'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_move, content_types_back),
    ]
