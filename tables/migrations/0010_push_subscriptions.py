# Turn reminders by Web Push (issue 28): the subscriptions and the outbox.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_table_ending"),
    ]

    operations = [
        migrations.CreateModel(
            name="PushSubscription",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("endpoint", models.URLField(max_length=1000, verbose_name="endpoint")),
                ("p256dh", models.CharField(max_length=200, verbose_name="public key")),
                ("auth", models.CharField(max_length=100, verbose_name="auth secret")),
                ("language", models.CharField(blank=True, default="", max_length=10, verbose_name="language")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="push_subscriptions",
                        to="tables.seat",
                        verbose_name="seat",
                    ),
                ),
            ],
            options={
                "verbose_name": "push subscription",
                "verbose_name_plural": "push subscriptions",
                "constraints": [
                    models.UniqueConstraint(fields=("seat", "endpoint"), name="push_subscription_once_per_seat")
                ],
            },
        ),
        migrations.CreateModel(
            name="PushMessage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField(verbose_name="event")),
                ("kind", models.CharField(max_length=20, verbose_name="kind")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                ("sent_at", models.DateTimeField(blank=True, null=True, verbose_name="sent")),
                (
                    "result",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "not sent yet"),
                            ("sending", "being sent"),
                            ("sent", "sent"),
                            ("visible", "not sent: the page was open and visible"),
                            ("gone", "not sent: the subscription is gone"),
                            ("past", "not sent: the turn was over"),
                            ("failed", "failed"),
                        ],
                        default="",
                        max_length=10,
                        verbose_name="result",
                    ),
                ),
                (
                    "subscription",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="messages",
                        to="tables.pushsubscription",
                        verbose_name="subscription",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tables.table",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "push message",
                "verbose_name_plural": "push messages",
                "constraints": [
                    models.UniqueConstraint(fields=("subscription", "table", "seq"), name="push_message_once")
                ],
                "indexes": [models.Index(fields=["result", "created_at"], name="push_message_pending")],
            },
        ),
    ]
