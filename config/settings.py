"""Dashain's settings, read from the environment (and an optional ``.env`` file).

Every variable is documented in README.md. The defaults run the site on one machine
with no server to install: a SQLite file under ``var/``, an in-process channel layer
and an in-process reminder worker. ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL, a channel layer and Celery on Redis.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import django_stubs_ext
import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Django's generic classes take the type parameters django-stubs gives them at run time too
# (``admin.ModelAdmin[Table]``, ``forms.ModelForm[User]``), for strict mypy: the library's
# published monkeypatch, before any app defines its admin or forms.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)


def _secret_key_from_file(key_file: Path) -> str:
    """A random key made once per checkout and kept in ``var/``: right for one machine.

    Several processes may start at once; ``os.link`` fails if the file exists, so the
    first writer wins and everyone reads the same key.
    """
    if not key_file.exists():
        candidate = key_file.with_name(f"{key_file.name}.{os.getpid()}")
        candidate.write_text(secrets.token_urlsafe(50))
        candidate.chmod(0o600)
        try:
            os.link(candidate, key_file)
        except FileExistsError:
            pass
        finally:
            candidate.unlink()
    return key_file.read_text().strip()


# Set SECRET_KEY when several machines serve the site: they must share it.
SECRET_KEY = env.str("SECRET_KEY", default="") or _secret_key_from_file(VAR_DIR / "secret_key")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    # Before accounts: accounts.admin registers axes' admins again with its lookup guard.
    "axes",
    "accounts",
    "tables",
    "ledger",
    "homegames",
    "shares",
    "kitchen",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from this process with DEBUG off too (README: "Run it"); see WHITENOISE_* below.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a logged-in player's own language wins over cookie and browser.
    "accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'dashain.sqlite3'}"),
}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
# A connection is checked before its first use in each request, socket call, move and task
# (Django's health check; the pool's check when pooled), so one that a database restart left
# broken is replaced, never used (docs/operations.md, "The database stopped").
# ``?conn_health_checks=false`` turns it off.
_health_checks = str(DATABASES["default"].get("CONN_HEALTH_CHECKS", True)).lower()  # the URL's is text
DATABASES["default"]["CONN_HEALTH_CHECKS"] = _health_checks not in ("false", "0", "no", "off")

#: The most seconds a request, socket call or task waits for one of the pool's connections
#: (all in use, or the database away); then it is answered as if the database were down.
try:
    DATABASE_POOL_TIMEOUT = env.float("DATABASE_POOL_TIMEOUT", default=2.0)
except ValueError:
    raise ImproperlyConfigured("DATABASE_POOL_TIMEOUT is a number of seconds, such as 2 or 0.5.") from None
if not 0 < DATABASE_POOL_TIMEOUT <= 600:
    raise ImproperlyConfigured("DATABASE_POOL_TIMEOUT is more than 0 and at most 600 seconds.")
#: Connections a pool keeps open while idle (it grows to DATABASE_POOL_SIZE under load and
#: closes what stayed idle for 10 minutes).
DATABASE_POOL_MIN = 2


def database_connections(database: dict[str, Any], *, pool_size: int) -> None:
    """How ``database`` (one of ``DATABASES``) connects: never a connection kept past its
    request or call; on PostgreSQL a pool of at most ``pool_size`` per process (none: 0).

    Under daphne (ASGI) every HTTP request runs in a thread of its own, so a connection kept
    for reuse (``CONN_MAX_AGE``, ``?conn_max_age=600`` in the URL) is kept by a thread that
    never serves another request: one idle PostgreSQL session per request until the server
    refuses more (issue 34; Django's docs say persistent connections do not work under
    ASGI and point to the backend's pool). So such a URL is refused. Django's own psycopg
    pool (``OPTIONS["pool"]``, psycopg-pool) takes the connection back at the end of each
    request and call, and holds ``pool_size`` at most, whatever the number of threads.
    ``pool_size`` 0 opens one connection per request or call and closes it after (for a
    pooler such as PgBouncer in front of PostgreSQL).
    """
    if database.get("CONN_MAX_AGE", 0) != 0:
        raise ImproperlyConfigured(
            f"DATABASE_URL keeps connections (conn_max_age={database['CONN_MAX_AGE']}): under daphne (ASGI) "
            "that leaves one idle connection per request until the database refuses more. Remove "
            "conn_max_age: on PostgreSQL each process keeps a pool of DATABASE_POOL_SIZE connections instead."
        )
    if "pool" in database.get("OPTIONS", {}):
        raise ImproperlyConfigured("DATABASE_URL may not set pool: DATABASE_POOL_SIZE sets the pool's size.")
    database["CONN_MAX_AGE"] = 0
    if pool_size < 0:
        raise ImproperlyConfigured("DATABASE_POOL_SIZE is 0 (no pool) or more.")
    if database["ENGINE"] == "django.db.backends.postgresql" and pool_size > 0:
        database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(DATABASE_POOL_MIN, pool_size),
            "max_size": pool_size,
            "timeout": DATABASE_POOL_TIMEOUT,
            # The pool's own attempts to reconnect give up after as long, so that once the
            # database is back the next request's attempt connects at once, not after a
            # back-off doubled through the outage (psycopg-pool's default is 5 minutes).
            "reconnect_timeout": DATABASE_POOL_TIMEOUT,
            "name": "dashain",
        }


try:
    DATABASE_POOL_SIZE = env.int("DATABASE_POOL_SIZE", default=10)
except ValueError:
    raise ImproperlyConfigured("DATABASE_POOL_SIZE is a whole number: the most connections of each process.") from None
database_connections(DATABASES["default"], pool_size=DATABASE_POOL_SIZE)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Wait for a writer instead of failing at once; WAL lets readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"user_attributes": ("username", "display_name", "first_name", "last_name", "email")},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttled by django-axes (docs/fairness.md, "Logging in"): failures are counted per
# username *and* address, in the database (every process sees the same counts), so one
# player's typos lock out only that player on that address, never a whole house on one
# Wi-Fi; a correct password clears the count; the lock ends by itself after the cool-off.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 10
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # no record of who logged in from where: only failures count
AXES_LOCKOUT_CALLABLE = "accounts.views.login_locked_out"  # the page that explains it, 429
# The address is the one daphne gives the request (REMOTE_ADDR, from the proxy's
# X-Forwarded-For with --proxy-headers: docs/deployment.md, "The client's address"), read by
# the same function as the join and feed limits (config/limits.py), never a header of axes'
# or django-ipware's choosing: a header the client wrote would let it pick its own address.
AXES_CLIENT_IP_CALLABLE = "config.limits.login_client_address"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ne", _("Nepali")), ("hi", _("Hindi")), ("de", _("German"))]
# The catalogues are compiled (.mo) by scripts/serve and scripts/test, not committed.
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates, numbers and money per language (config/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
# Numbers on pages are grouped the page language's way (2,000), as the table page's script
# writes them: never 2000 and 2,000 on one page. Values inside attributes and form fields
# are not localized (|unlocalize where a template writes one).
USE_THOUSAND_SEPARATOR = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "static"))
# WhiteNoise serves /static/ from the apps' and STATICFILES_DIRS' folders as they are (no
# collectstatic needed for scripts/serve), and from STATIC_ROOT when collected. DEBUG off: the
# file list is read once at start, with a short cache lifetime (the names carry no hash).
WHITENOISE_USE_FINDERS = True
# Before any collectstatic STATIC_ROOT does not exist: normal here, since the finders serve.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Password-reset mail: printed on the console unless EMAIL_URL names a server
# (smtp+tls://user:password@mail.example.org:587).
if env.str("EMAIL_URL", default=""):
    globals().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="dashain@localhost")
# A mail server that hangs must not hold a night's notice (and its row) for long.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# The site's address as the e-mails of home game nights link to it, and their Message-IDs' domain.
DASHAIN_SITE_URL = env.str("DASHAIN_SITE_URL", default="http://localhost:8000")
DASHAIN_MAIL_DOMAIN = env.str("DASHAIN_MAIL_DOMAIN", default="dashain.localhost")

# Turn reminders by Web Push (issue 28, tables/push.py): off unless a VAPID key is set. The
# private key is base64url (a raw 32-byte P-256 key, or DER); the browser gets its public half.
# The subject is a mailto: or https: address push services may write to about this site.
DASHAIN_VAPID_PRIVATE_KEY = env.str("DASHAIN_VAPID_PRIVATE_KEY", default="")
DASHAIN_VAPID_SUBJECT = env.str("DASHAIN_VAPID_SUBJECT", default="mailto:" + DEFAULT_FROM_EMAIL)
# Subscriptions whose push service is plain http or a loopback/private address are refused,
# unless this is on (DEBUG, or a test's own local push endpoint).
DASHAIN_PUSH_ALLOW_LOCAL = env.bool("DASHAIN_PUSH_ALLOW_LOCAL", default=DEBUG)

# Channels and reminders: in process without REDIS_URL, Redis with it.
REDIS_URL = env.str("REDIS_URL", default="")
# Every event, hole cards included, crosses Redis: with DEBUG off (production) its URL must
# carry a password (Redis AUTH or an ACL user's), unless DASHAIN_REDIS_WITHOUT_PASSWORD=true
# says on purpose that this Redis needs none (docs/deployment.md).
DASHAIN_REDIS_WITHOUT_PASSWORD = env.bool("DASHAIN_REDIS_WITHOUT_PASSWORD", default=False)


def redis_url_has_password(url: str) -> bool:
    """Whether a Redis URL carries a password (``redis://:pw@host``, ``redis://user:pw@host``,
    or ``?password=`` as redis-py also reads)."""
    parts = urlsplit(url)
    return bool(parts.password) or bool(parse_qs(parts.query).get("password", [""])[0])


if REDIS_URL and not DEBUG and not DASHAIN_REDIS_WITHOUT_PASSWORD and not redis_url_has_password(REDIS_URL):
    raise ImproperlyConfigured(
        "REDIS_URL has no password, and every card dealt crosses Redis. Give one "
        "(redis://:PASSWORD@host:6379/0, or redis://USER:PASSWORD@host:6379/0 for an ACL user), "
        "or set DASHAIN_REDIS_WITHOUT_PASSWORD=true if no one else can reach this Redis."
    )


def redis_prefix_default(redis_url: str, database: dict[str, object]) -> str:
    """The site's names on Redis when DASHAIN_REDIS_PREFIX does not give them:
    ``dashain.<Redis database number>.<12 hex digits of the database's identity>.``.

    Redis pub/sub channels belong to the whole Redis server, whatever database number a
    client selected, so two sites (or two test runs) on one Redis whose channel layers used
    the same names would hear each other's tables. A site is its database: the same
    engine, host, port and name is the same site, so its processes share the prefix; any
    other database gets another. The hash keeps the name short and free of a path's
    characters; the number is there to be read in ``redis-cli PUBSUB CHANNELS``.
    """
    parts = urlsplit(redis_url)
    number = re.sub(r"\D", "", parse_qs(parts.query).get("db", [parts.path])[0]) or "0"
    identity = "|".join(str(database.get(key) or "") for key in ("ENGINE", "HOST", "PORT", "NAME"))
    return f"dashain.{number}.{hashlib.sha256(identity.encode()).hexdigest()[:12]}."


# The prefix of this site's names on Redis: the channel layer's channels and groups and the
# cache's keys (docs/deployment.md). Letters, digits, '.', '_' and '-', as channel names allow.
DASHAIN_REDIS_PREFIX = env.str("DASHAIN_REDIS_PREFIX", default="") or redis_prefix_default(
    REDIS_URL, DATABASES["default"]
)
if not re.fullmatch(r"[A-Za-z0-9._-]{1,60}", DASHAIN_REDIS_PREFIX):
    raise ImproperlyConfigured(
        "DASHAIN_REDIS_PREFIX is 1 to 60 letters, digits, '.', '_' or '-' (say, dashain.cards.)."
    )
CHANNEL_LAYER_BACKENDS = {
    "here-first": "config.channel_layer.HereFirstLayer",
    "channels-redis": "config.channel_layer.PubSubLayer",
}
DASHAIN_CHANNEL_LAYER = env.str("DASHAIN_CHANNEL_LAYER", default="here-first")
if DASHAIN_CHANNEL_LAYER not in CHANNEL_LAYER_BACKENDS:
    raise ImproperlyConfigured(
        f"DASHAIN_CHANNEL_LAYER is one of {', '.join(sorted(CHANNEL_LAYER_BACKENDS))} (got {DASHAIN_CHANNEL_LAYER!r})."
    )
if REDIS_URL:
    # A pub/sub layer: one Redis subscription per group per process instead of a list per
    # socket to push to and pop from. It may drop news, like every layer; a socket that
    # misses an event sees the gap in seq numbers and fills it from the database
    # (docs/live-play.md). Which one (config/channel_layer.py): "here-first", our own on
    # redis-py (a process's own sockets get its messages at the send, publishes batched,
    # each message decoded once, a group joined once Redis confirmed it), or
    # "channels-redis", channels-redis' pub/sub layer (each message decoded once).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKENDS[DASHAIN_CHANNEL_LAYER],
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 10, "max_connections": 1000}],
                # Every group and channel name starts with it: a table group is
                # "<prefix>__group__table_<id>" on Redis, heard by this site alone.
                "prefix": DASHAIN_REDIS_PREFIX,
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = None
    # Shared by every process: the join pages' guess limits (config/limits.py).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": DASHAIN_REDIS_PREFIX,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.InMemoryLayer"}}
    # Celery's in-memory transport, consumed by a worker thread inside the web process.
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery set up for loss (docs/operations.md says why each is what it is). Every task is
# the idempotent "do what is due at this table", and the clock's sweep redoes whatever a
# queue loses, so a task may run twice or never without harm.
CELERY_TASK_ACKS_LATE = True  # acknowledged after it ran: a worker killed mid-task leaves it queued
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # ...and requeued at once when the pool loses the worker
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a worker holds one task beyond those waiting for their countdown
# Redis gives an unacknowledged task to another worker after this many seconds. Longer than
# the longest countdown ever queued (clock.MAX_COUNTDOWN, 20 minutes), else a task waiting
# for its countdown would be handed out again while it waits.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 1800, "socket_connect_timeout": 2}
# Queueing never retries: a committed action must not wait on a broker that is down; the
# sweep does what the lost task would have done.
CELERY_TASK_PUBLISH_RETRY = False
# Start a Celery worker thread in the web process (default setup without Redis).
DASHAIN_INPROCESS_WORKER = env.bool("DASHAIN_INPROCESS_WORKER", default=not REDIS_URL)
# The pause between hands is the host's setting (hand_pause); this, when set, overrides it
# for every table (tests use 0, which deals at once in the same transaction).
DASHAIN_NEXT_HAND_DELAY = env.float("DASHAIN_NEXT_HAND_DELAY", default=None)
# The table clock's sweep: seconds between two looks for overdue tables, in each web
# process and each Celery worker (0: no sweep loop; tests run the sweep themselves).
DASHAIN_CLOCK_SWEEP_SECONDS = env.float("DASHAIN_CLOCK_SWEEP_SECONDS", default=2.0)
# Seconds a computer player waits before acting, for every table (unset: each host's
# ``computer_pause``; the browser tests set it low).
DASHAIN_COMPUTER_PAUSE = env.float("DASHAIN_COMPUTER_PAUSE", default=None)
# Seconds each turn may last once the host has ended the game during a hand (unset: the
# table's turn timer, or 60 seconds without one; the browser tests set it low).
DASHAIN_ENDING_TURN_SECONDS = env.float("DASHAIN_ENDING_TURN_SECONDS", default=None)
# Table sockets and their reads, limited per person and per client address in each server
# process (tables/live/socket_limits.py says why these numbers; a home's one Wi-Fi never meets them).
DASHAIN_SOCKETS_PER_PERSON = env.int("DASHAIN_SOCKETS_PER_PERSON", default=12)
DASHAIN_SOCKETS_PER_ADDRESS = env.int("DASHAIN_SOCKETS_PER_ADDRESS", default=100)
DASHAIN_READS_PER_PERSON_BURST = env.int("DASHAIN_READS_PER_PERSON_BURST", default=30)
DASHAIN_READS_PER_PERSON_RATE = env.float("DASHAIN_READS_PER_PERSON_RATE", default=2.0)
DASHAIN_READS_PER_ADDRESS_BURST = env.int("DASHAIN_READS_PER_ADDRESS_BURST", default=200)
DASHAIN_READS_PER_ADDRESS_RATE = env.float("DASHAIN_READS_PER_ADDRESS_RATE", default=20.0)
# The commands (frames that make the site write) one person may send over all their table
# sockets at once, and how many more each second (issue 34).
DASHAIN_COMMANDS_PER_PERSON_BURST = env.int("DASHAIN_COMMANDS_PER_PERSON_BURST", default=30)
DASHAIN_COMMANDS_PER_PERSON_RATE = env.float("DASHAIN_COMMANDS_PER_PERSON_RATE", default=2.0)
# Requests of one home game calendar feed token, and of one client address to any feed, in
# 10 minutes (homegames/views.py; docs/home-games.md says why a polling calendar never meets them).
DASHAIN_FEED_PER_TOKEN = env.int("DASHAIN_FEED_PER_TOKEN", default=60)
DASHAIN_FEED_PER_ADDRESS = env.int("DASHAIN_FEED_PER_ADDRESS", default=600)
# E-mails of home game nights one member is sent in any hour; the rest wait for the hour
# (homegames/services.py; docs/home-games.md, "E-mails that cannot be lost").
DASHAIN_MAILS_PER_MEMBER_HOUR = env.int("DASHAIN_MAILS_PER_MEMBER_HOUR", default=10)
# Password-reset requests one client address may make, and reset mails one e-mail address
# is sent, in an hour (accounts/views.py; docs/operations.md, "Password-reset mail").
DASHAIN_RESETS_PER_ADDRESS = env.int("DASHAIN_RESETS_PER_ADDRESS", default=10)
DASHAIN_RESETS_PER_TARGET = env.int("DASHAIN_RESETS_PER_TARGET", default=3)

# HTTPS: on by default whenever DEBUG is off, so `check --deploy` is clean. Behind a
# reverse proxy that terminates TLS, run daphne with --proxy-headers so requests know
# they came over HTTPS (README.md). HTTPS_ONLY=false serves a home game over plain HTTP.
HTTPS_ONLY = env.bool("HTTPS_ONLY", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS_ONLY
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS_ONLY)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=HTTPS_ONLY)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts, styles, images, fonts and sockets from this
# site only; no inline script or style, no eval, no plugin, no framing. The pages keep to it:
# scripts are static files, data reaches them in json_script tags, and tests/config/test_csp.py
# checks the header on every page and that no template holds an inline script or handler.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],  # the table's WebSocket: same host (CSP 3 lets 'self' match ws/wss)
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# A form sent with a missing or stale CSRF token gets the site's own page (templates/errors/).
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
