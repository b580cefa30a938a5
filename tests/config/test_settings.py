"""Settings read from the environment: safe defaults, production hardening, service switches.

Each case runs Django in a subprocess with its own environment, since settings are read
once per process.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Kq-2vLpR9sWm4TzYb8Nc6HdF3jGa5EuQ1oVi0XlMhBnCy_eZ",
    "ALLOWED_HOSTS": "cards.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://cards.example.org",
    "DATABASE_URL": "postgres://dashain:secret@db.internal:5432/dashain",
    "REDIS_URL": "redis://:a-long-redis-password@redis.internal:6379/0",
}


def clean_environment(**variables: str) -> dict[str, str]:
    """The current environment without any of Dashain's settings, plus ``variables``."""
    names = {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "DATABASE_URL",
        "DATABASE_POOL_SIZE",
        "REDIS_URL",
        "HTTPS_ONLY",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "STATIC_ROOT",
        "EMAIL_URL",
        "DEFAULT_FROM_EMAIL",
        "DASHAIN_INPROCESS_WORKER",
        "DASHAIN_REDIS_WITHOUT_PASSWORD",
        "DASHAIN_REDIS_PREFIX",
        "DJANGO_SETTINGS_MODULE",
    }
    environment = {name: value for name, value in os.environ.items() if name not in names}
    return environment | {"DJANGO_SETTINGS_MODULE": "config.settings"} | variables


def manage(*arguments: str, environment: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_seen_with(environment: dict[str, str]) -> dict:
    script = (
        "import json; from django.conf import settings; "
        "print(json.dumps({'debug': settings.DEBUG, 'database': settings.DATABASES['default'], "
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'broker': settings.CELERY_BROKER_URL, "
        "'ssl_redirect': settings.SECURE_SSL_REDIRECT, 'secret_key': settings.SECRET_KEY, "
        "'email': [settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT], "
        "'inprocess_worker': settings.DASHAIN_INPROCESS_WORKER, 'redis_prefix': settings.DASHAIN_REDIS_PREFIX, "
        "'layer_prefix': settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('prefix'), "
        "'cache_prefix': settings.CACHES['default'].get('KEY_PREFIX')}, default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_with_production_settings_has_no_warnings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", environment=clean_environment(**PRODUCTION))

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout + result.stderr


def test_check_deploy_does_warn_when_debug_is_on():
    """The check above can fail: DEBUG on in deployment is reported."""
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", environment=clean_environment(**PRODUCTION | {"DEBUG": "true"})
    )

    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


def test_defaults_need_no_server_sqlite_under_var_and_in_memory_layers():
    seen = settings_seen_with(clean_environment())

    assert seen["debug"] is False
    assert seen["database"]["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(seen["database"]["NAME"]) == ROOT / "var" / "dashain.sqlite3"
    assert seen["layer"] == "config.channel_layer.InMemoryLayer"
    assert seen["broker"] == "memory://"
    assert seen["inprocess_worker"] is True  # reminders need no server
    assert seen["email"][0] == "django.core.mail.backends.console.EmailBackend"
    assert seen["ssl_redirect"] is True  # DEBUG off means HTTPS only, unless HTTPS_ONLY=false
    assert len(seen["secret_key"]) >= 50  # made once under var/, never empty


def test_var_is_ignored_by_git():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    paths = ["var/dashain.sqlite3", "var/secret_key"]
    result = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True, timeout=30)

    assert result.stdout.split() == paths


def test_database_url_and_redis_url_switch_to_postgresql_redis_layer_and_celery_on_redis():
    seen = settings_seen_with(clean_environment(**PRODUCTION))

    assert seen["database"]["ENGINE"] == "django.db.backends.postgresql"
    assert seen["database"]["HOST"] == "db.internal"
    assert seen["layer"] == "config.channel_layer.HereFirstLayer"
    assert seen["broker"] == PRODUCTION["REDIS_URL"]
    assert seen["secret_key"] == PRODUCTION["SECRET_KEY"]
    assert seen["inprocess_worker"] is False  # a separate `celery -A config worker` runs instead


def test_the_redis_layer_is_chosen_by_a_setting_and_a_wrong_name_is_refused():
    """DASHAIN_CHANNEL_LAYER picks the Redis layer (config/channel_layer.py), so the two can be
    measured side by side."""
    seen = settings_seen_with(clean_environment(**PRODUCTION | {"DASHAIN_CHANNEL_LAYER": "channels-redis"}))
    assert seen["layer"] == "config.channel_layer.PubSubLayer"

    result = manage("check", environment=clean_environment(**PRODUCTION | {"DASHAIN_CHANNEL_LAYER": "pubsub"}))
    assert result.returncode != 0
    assert "DASHAIN_CHANNEL_LAYER is one of channels-redis, here-first (got 'pubsub')" in result.stderr


def test_production_refuses_to_start_with_a_redis_without_password():
    """Issue 14: every event, hole cards included, crosses Redis; the old example had no password."""
    environment = clean_environment(**PRODUCTION | {"REDIS_URL": "redis://redis.internal:6379/0"})
    result = manage("check", environment=environment)
    assert result.returncode != 0
    assert "REDIS_URL has no password" in result.stderr
    assert "DASHAIN_REDIS_WITHOUT_PASSWORD=true" in result.stderr


@pytest.mark.parametrize(
    "variables",
    [
        {"REDIS_URL": "redis://dashain:acl-password@redis.internal:6379/0"},  # an ACL user
        {"REDIS_URL": "rediss://:pw@redis.internal:6380/0"},
        {"REDIS_URL": "redis://redis.internal:6379/0?password=pw"},
        {"REDIS_URL": "redis://127.0.0.1:6379/0", "DASHAIN_REDIS_WITHOUT_PASSWORD": "true"},  # told to
        {"REDIS_URL": "redis://127.0.0.1:6379/0", "DEBUG": "true"},  # a developer's machine
    ],
)
def test_a_redis_password_an_acl_user_or_the_explicit_flag_lets_it_start(variables):
    seen = settings_seen_with(clean_environment(**PRODUCTION | variables))
    assert seen["broker"] == variables["REDIS_URL"]


def test_the_flag_false_still_refuses():
    environment = clean_environment(
        **PRODUCTION | {"REDIS_URL": "redis://redis.internal:6379/0", "DASHAIN_REDIS_WITHOUT_PASSWORD": "false"}
    )
    assert manage("check", environment=environment).returncode != 0


def test_email_url_names_the_mail_server():
    seen = settings_seen_with(clean_environment(EMAIL_URL="smtp+tls://dashain:pw@mail.example.org:587"))

    assert seen["email"] == ["django.core.mail.backends.smtp.EmailBackend", "mail.example.org", 587]


def test_https_only_can_be_turned_off_for_a_home_game_on_plain_http():
    seen = settings_seen_with(clean_environment(HTTPS_ONLY="false"))

    assert seen["ssl_redirect"] is False


def test_the_local_secret_key_is_made_once_kept_private_and_reused(tmp_path):
    from config.settings import _secret_key_from_file

    key_file = tmp_path / "secret_key"
    first = _secret_key_from_file(key_file)
    second = _secret_key_from_file(key_file)

    assert first == second
    assert len(first) >= 50
    assert key_file.stat().st_mode & 0o077 == 0  # readable by its owner only
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left


# --- the site's names on Redis (docs/deployment.md, "Several sites on one Redis") -------------

POSTGRES = {"ENGINE": "django.db.backends.postgresql", "HOST": "db.internal", "PORT": 5432, "NAME": "dashain"}


def test_the_redis_prefix_is_the_sites_own_by_default():
    from config.settings import redis_prefix_default

    url = "redis://:pw@redis.internal:6379/0"
    ours = redis_prefix_default(url, POSTGRES)
    assert re.fullmatch(r"dashain\.0\.[0-9a-f]{12}\.", ours)
    assert redis_prefix_default(url, dict(POSTGRES)) == ours  # every process of the site agrees
    assert redis_prefix_default(url.replace("/0", "/3"), POSTGRES).startswith("dashain.3.")
    assert redis_prefix_default("redis://redis.internal:6379?db=5", POSTGRES).startswith("dashain.5.")
    assert redis_prefix_default("redis://redis.internal:6379", POSTGRES).startswith("dashain.0.")
    # Any other database is another site: other names, whatever differs.
    others = [
        POSTGRES | {"NAME": "dashain_staging"},
        POSTGRES | {"HOST": "db2.internal"},
        POSTGRES | {"PORT": 5433},
        {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/cards/var/dashain.sqlite3"},
        {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/staging/var/dashain.sqlite3"},
    ]
    tails = {redis_prefix_default(url, database).split(".")[2] for database in others}
    assert len(tails | {ours.split(".")[2]}) == len(others) + 1


def test_the_redis_prefix_names_the_layer_and_the_cache_and_may_be_given():
    derived = settings_seen_with(clean_environment(**PRODUCTION))
    assert re.fullmatch(r"dashain\.0\.[0-9a-f]{12}\.", derived["redis_prefix"])
    assert derived["layer_prefix"] == derived["cache_prefix"] == derived["redis_prefix"]
    staging = settings_seen_with(
        clean_environment(**PRODUCTION | {"DATABASE_URL": "postgres://dashain:secret@db.internal:5432/staging"})
    )
    assert staging["redis_prefix"] != derived["redis_prefix"]
    given = settings_seen_with(clean_environment(**PRODUCTION | {"DASHAIN_REDIS_PREFIX": "dashain.cards."}))
    assert given["layer_prefix"] == given["cache_prefix"] == "dashain.cards."


@pytest.mark.parametrize("prefix", ["has space.", "dashain:cards", "x" * 61, "caf\u00e9."])
def test_a_redis_prefix_channel_names_cannot_carry_is_refused(prefix):
    result = manage("check", environment=clean_environment(**PRODUCTION | {"DASHAIN_REDIS_PREFIX": prefix}))
    assert result.returncode != 0
    assert "DASHAIN_REDIS_PREFIX is 1 to 60 letters" in result.stderr


@pytest.mark.parametrize(
    ("query", "checked"),
    [("", True), ("?conn_health_checks=true", True), ("?conn_health_checks=false", False)],
)
def test_kept_database_connections_are_health_checked_unless_the_url_says_not(query, checked):
    """Issue 30: a connection kept through a database restart (in the pool, issue 34) is
    checked before it is used again (Django's CONN_HEALTH_CHECKS, the pool's check), by
    default; the URL's word is read as a yes or no."""
    url = PRODUCTION["DATABASE_URL"] + query
    seen = settings_seen_with(clean_environment(**PRODUCTION | {"DATABASE_URL": url}))

    assert seen["database"]["CONN_HEALTH_CHECKS"] is checked
