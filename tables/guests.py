"""How a guest is known: a random token kept in their session, under one key.

The join page puts it there (``tables.pages.views_join``), the table's socket reads it to find the
guest's seat (``tables.live.consumers``), and the ledger's pages read it to let a guest see
their table's report (``homegames.views_report``). No other module names the key.
"""

from __future__ import annotations

GUEST_TOKEN_SESSION_KEY = "dashain_guest_token"
