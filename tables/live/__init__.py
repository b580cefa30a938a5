"""The live table over WebSockets: the socket consumer (``consumers``), one socket's eyes
(``viewer``), the news frames, each part encoded once per table (``news_frames``), the watcher of quiet tables
(``quiet_tables``), who has the table open (``presence``) and the socket routes
(``routing``). Below it: the services, the reads and the news (``tables.news``)."""
