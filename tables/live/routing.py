"""WebSocket routes of live play: one socket per viewer per table."""

from django.urls import path

from tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    # Channels routes an ASGI application with Django's path(), whose types expect a view.
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
