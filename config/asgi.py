"""ASGI entry point: HTTP through Django, WebSockets through Channels (origin-checked in full:
scheme, host and port, ``config.origin``).

In the default setup (no Redis) the clock's worker runs in this process: a Celery
worker thread on the in-memory transport (``tables.background_threads``), started here when
``DASHAIN_INPROCESS_WORKER`` is on. Every web process also runs the table clock's
sweep (``tables.background_threads.clock_sweeper_start``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.origin import SiteOriginValidator  # noqa: E402
from config.socket_sessions import socket_auth_stack  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin checked in full (scheme, host, port: config/origin.py), then Channels'
        # AuthMiddlewareStack, without the session's wrapper around every frame sent.
        "websocket": SiteOriginValidator(socket_auth_stack(URLRouter(websocket_urlpatterns))),
    }
)

from django.conf import settings  # noqa: E402

from config.gc_tuning import collector_settle  # noqa: E402
from tables.background_threads import clock_sweeper_start, inprocess_worker_start  # noqa: E402

if settings.DASHAIN_INPROCESS_WORKER:
    inprocess_worker_start()
# The table clock's sweep, in every web process: at start-up and every few seconds it does
# whatever is overdue (a deal or reminder whose queued task was lost with a process).
clock_sweeper_start()

# The collector kept off what start-up loaded, and run less often (config/gc_tuning.py).
collector_settle()
