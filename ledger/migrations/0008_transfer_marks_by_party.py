"""A table's transfer may be marked paid by its payer or payee too (issue 38), a guest by the
seat's token: who made each mark, and as whom. The marks already written were the host's;
they keep the host's name."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def name_the_hosts_marks(apps, schema_editor):
    transfer_paid = apps.get_model("ledger", "TransferPaid")
    for mark in transfer_paid.objects.select_related("marked_by").filter(marked_by_name=""):
        user = mark.marked_by
        mark.marked_by_name = (user.display_name or user.username)[:40]
        mark.save(update_fields=["marked_by_name"])


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0007_shared_costs'),
        ('tables', '0011_seat_link_moves_and_claim'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='transferpaid',
            name='marked_as',
            field=models.CharField(choices=[('host', 'the host'), ('payer', 'the payer'), ('payee', 'the payee')], default='host', max_length=5, verbose_name='marked as'),
        ),
        migrations.AddField(
            model_name='transferpaid',
            name='marked_by_name',
            field=models.CharField(blank=True, default='', max_length=40, verbose_name='marked by'),
        ),
        migrations.AlterField(
            model_name='transferpaid',
            name='marked_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='marked by'),
        ),
        migrations.AddConstraint(
            model_name='transferpaid',
            constraint=models.CheckConstraint(condition=models.Q(('marked_by__isnull', False), ('marked_as__in', ['payer', 'payee']), _connector='OR'), name='transfer_paid_host_has_account'),
        ),
        migrations.RunPython(name_the_hosts_marks, migrations.RunPython.noop),
    ]
