"""The table's web pages: the lobby, a table, joining (``views``; its limits are the site's,
``config.limits``), the host's forms (``forms``), the history and replay
(``views_history``) and their URLs (``urls``, ``urls_history``). Pages call the services
and the reads; they never touch the log or its SQL."""
