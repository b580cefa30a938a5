"""The kitchen keeps no shared costs of its own any more: kitchen.0004 moved them into the ledger."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('kitchen', '0004_costs_to_the_ledger'),
    ]

    operations = [
        migrations.DeleteModel(
            name='SharedCost',
        ),
    ]
