"""The Redis of docs/deployment.md: with a password (requirepass) or an ACL user, the site's
channel layer works through a REDIS_URL that carries it, and a URL without it is refused by
Redis itself. Runs a throwaway redis-server on a free port (Debian's redis-server package)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest
import redis

from config.channel_layer import HereFirstLayer, PubSubLayer

pytestmark = pytest.mark.redis

PASSWORD = "a-long-random-password"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def redis_with_password():
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs Debian's redis-server to start a throwaway Redis")
    port = _free_port()
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--requirepass",
            PASSWORD,
            "--user",
            "dashain",
            "on",
            f">{PASSWORD}",
            "~*",
            "&*",
            "+@all",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _attempt in range(100):
            try:
                redis.Redis(port=port, password=PASSWORD).ping()
                break
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


async def _round_trip(layer_class: type, url: str) -> dict:
    """A group message from one layer (a process) to another's socket, through Redis."""
    sender, layer = layer_class(hosts=[{"address": url}]), layer_class(hosts=[{"address": url}])
    try:
        channel = await layer.new_channel()
        await layer.group_add("table_1", channel)
        await sender.group_send("table_1", {"type": "table.events", "cards": ["As", "Kd"]})
        return await layer.receive(channel)
    finally:
        await layer.flush()
        await sender.flush()


@pytest.mark.parametrize("layer_class", [HereFirstLayer, PubSubLayer])
@pytest.mark.parametrize("credentials", [f":{PASSWORD}@", f"dashain:{PASSWORD}@"])
async def test_the_layer_works_with_a_password_or_an_acl_user(redis_with_password, credentials, layer_class):
    message = await _round_trip(layer_class, f"redis://{credentials}127.0.0.1:{redis_with_password}/0")
    assert message["cards"] == ["As", "Kd"]


def test_a_url_without_the_password_is_refused_by_redis(redis_with_password):
    with pytest.raises(redis.exceptions.AuthenticationError):
        redis.Redis.from_url(f"redis://127.0.0.1:{redis_with_password}/0").publish("table_1", "x")
    with pytest.raises(redis.exceptions.AuthenticationError):
        redis.Redis.from_url(f"redis://dashain:wrong@127.0.0.1:{redis_with_password}/0").ping()
