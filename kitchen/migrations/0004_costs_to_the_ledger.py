"""Every kitchen night's shared cost becomes a line of the ledger's own (``ledger.SharedCost``):
the same what, amount, payer, shares, recorder and time, for the night's table, in the order
they were recorded. Backwards, the ledger's costs of kitchen nights come back here."""

from django.db import migrations


def costs_to_the_ledger(apps, schema_editor):
    old = apps.get_model("kitchen", "SharedCost")
    new = apps.get_model("ledger", "SharedCost")
    for cost in old.objects.select_related("night").order_by("id").iterator():
        new.objects.create(
            table_id=cost.night.table_id,
            what=cost.what,
            amount=cost.amount,
            paid_by_id=cost.paid_by_id,
            shares=cost.shares,
            recorded_by_id=cost.recorded_by_id,
            created_at=cost.created_at,
        )
    moved, kept = new.objects.count(), old.objects.count()
    if moved != kept:
        raise RuntimeError(f"{kept} kitchen costs but {moved} ledger costs after the move.")


def costs_back_to_the_kitchen(apps, schema_editor):
    old = apps.get_model("kitchen", "SharedCost")
    new = apps.get_model("ledger", "SharedCost")
    nights = dict(apps.get_model("kitchen", "KitchenNight").objects.values_list("table_id", "pk"))
    for cost in new.objects.filter(table_id__in=list(nights)).order_by("id").iterator():
        made = old.objects.create(
            night_id=nights[cost.table_id],
            what=cost.what,
            amount=cost.amount,
            paid_by_id=cost.paid_by_id,
            shares=cost.shares,
            recorded_by_id=cost.recorded_by_id,
        )
        old.objects.filter(pk=made.pk).update(created_at=cost.created_at)  # auto_now_add set it to now
    new.objects.filter(table_id__in=list(nights)).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("kitchen", "0003_tournament_addons"),
        ("ledger", "0007_shared_costs"),
    ]

    operations = [
        migrations.RunPython(costs_to_the_ledger, costs_back_to_the_kitchen),
    ]
