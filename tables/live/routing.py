"""WebSocket routes of live play: one socket per viewer per table."""

from django.urls import path

from tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
]
