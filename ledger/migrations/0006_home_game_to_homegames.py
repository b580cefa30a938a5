"""The ledger forgets the home game's models, which homegames.0007 took over with their
tables (Django's state only: no table is dropped, no row touched)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('homegames', '0007_home_game_from_ledger'),
        ('ledger', '0005_home_game_members'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='homegamenight',
                    name='home_game',
                ),
                migrations.RemoveField(
                    model_name='seatclaim',
                    name='home_game',
                ),
                migrations.RemoveField(
                    model_name='season',
                    name='home_game',
                ),
                migrations.RemoveField(
                    model_name='homegamenight',
                    name='season',
                ),
                migrations.RemoveField(
                    model_name='homegamenight',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='season',
                    name='closed_by',
                ),
                migrations.RemoveField(
                    model_name='seasontransfer',
                    name='season',
                ),
                migrations.RemoveField(
                    model_name='seasontransfer',
                    name='paid_by',
                ),
                migrations.RemoveField(
                    model_name='seatclaim',
                    name='seat',
                ),
                migrations.RemoveField(
                    model_name='seatclaim',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='HomeGame',
                ),
                migrations.DeleteModel(
                    name='HomeGameNight',
                ),
                migrations.DeleteModel(
                    name='Season',
                ),
                migrations.DeleteModel(
                    name='SeasonTransfer',
                ),
                migrations.DeleteModel(
                    name='SeatClaim',
                ),
            ],
            database_operations=[],
        ),
    ]
