# Seat links that move a seat once, and only between its hands (issue 34, item 3): how many
# times a guest's link has moved the seat (in the link's key), the browser waiting for the
# hand to end, and the last hand dealt before the move (shown to the new browser as to a watcher).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_push_subscriptions"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="link_claim",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="seat link waiting"),
        ),
        migrations.AddField(
            model_name="seat",
            name="link_moved_hand",
            field=models.PositiveIntegerField(default=0, verbose_name="hands before the seat's move"),
        ),
        migrations.AddField(
            model_name="seat",
            name="link_moves",
            field=models.PositiveIntegerField(default=0, verbose_name="seat link moves"),
        ),
    ]
