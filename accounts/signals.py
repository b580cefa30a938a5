"""What accounts tell the apps above them, which they may not import (tests/test_import_graph.py)."""

from django.dispatch import Signal

#: Sent once a new account is saved by the sign-up form, with ``user`` and the ``time_zone``
#: the person confirmed there (the browser's, proposed by static/js/zone_field.js, or another
#: they chose; "" when the form sent none). homegames keeps it as the zone the nights are
#: shown in.
signed_up = Signal()

#: Sent in the transaction that saves a person's new e-mail address (one set where there was
#: none, or changed to another; not one cleared), with ``user`` holding it, before its row is
#: written (``accounts.services.email_change_tell``). homegames sends the invitations of the
#: nights ahead that were skipped for want of an address.
email_added = Signal()
