"""Under CI the suite runs on the real services: PostgreSQL, Redis, Chromium.

.ci/run sets CI, DATABASE_URL and REDIS_URL; these tests prove the settings took them,
and that the services answer.
"""

import uuid

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils.module_loading import import_string

from tests.conftest import chromium_executable, running_in_ci


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.skipif(not running_in_ci(), reason="CI is not set")
def test_ci_runs_on_postgresql_and_the_redis_channel_layer():
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] in settings.CHANNEL_LAYER_BACKENDS.values()
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert chromium_executable() is not None


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_answers_as_postgresql():
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()

    assert connection.vendor == "postgresql"
    assert version.startswith("PostgreSQL")


@pytest.mark.redis
async def test_a_message_goes_through_the_redis_channel_layer():
    """Sent by one process's layer, received by another's: through Redis."""
    layer = get_channel_layer()
    config = settings.CHANNEL_LAYERS["default"]
    sender = import_string(config["BACKEND"])(**config["CONFIG"])
    channel = await layer.new_channel()
    message = {"type": "ping", "token": uuid.uuid4().hex}
    try:
        await sender.send(channel, message)
        received = await layer.receive(channel)
    finally:
        await sender.flush()

    assert type(layer).__module__ == "config.channel_layer"
    assert received == message
