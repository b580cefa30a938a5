"""The harness itself: the real server answers, Chromium renders its pages, and the server
runs on the services the suite is configured with (PostgreSQL and Redis under CI)."""

import json
import os

import environ


def test_home_page_is_served_by_the_live_server(live_site, new_page):
    page = new_page()
    response = page.goto("/")
    assert response.status == 200
    assert "Dashain" in page.title()


def test_the_live_server_runs_on_the_configured_services(live_site):
    """Rule: with DATABASE_URL on PostgreSQL the browser server uses PostgreSQL (its own
    test_<name>_browser database); with REDIS_URL, channels-redis and a Celery worker
    process on Redis. Without them, SQLite and the in-process worker."""
    services = json.loads((live_site.workdir / "services.json").read_text())
    configured = os.environ.get("DATABASE_URL", "")
    if configured.startswith(("postgres://", "postgresql://")):
        name = environ.Env.db_url_config(configured)["NAME"]
        assert services["database"] == "postgresql"
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        assert services["database_name"] == f"test_{name}_browser" + (f"_{worker}" if worker else "")
    else:
        assert services["database"] == "sqlite"
    if os.environ.get("REDIS_URL"):
        assert services["channel_layer"] in ("config.channel_layer.HereFirstLayer", "config.channel_layer.PubSubLayer")
        assert services["broker"] == "redis"
        assert services["inprocess_worker"] is False
        assert (live_site.workdir / "worker.log").exists()
    else:
        assert services["channel_layer"] == "config.channel_layer.InMemoryLayer"
        assert services["inprocess_worker"] is True
