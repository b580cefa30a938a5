"""The live table over WebSockets: the socket consumer (``consumers``, the Channels side),
the frames a page may send, read once (``protocol``), one connected socket's session
(``session``) and what it does with each command (``commands``), Channels typed
(``channels_typed``), one socket's eyes (``viewer``), the news frames, each part encoded
once per table (``news_frames``), the watcher of quiet tables (``quiet_tables``), who has
the table open (``presence``) and the socket routes (``routing``). Below it: the services,
the reads and the news (``tables.broadcast``)."""
