"""WebSocket routes of live play."""

websocket_urlpatterns: list = []
