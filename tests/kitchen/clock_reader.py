"""A fresh process reading a tournament's TV state, for ``test_clock_restart.py``: run as
``python -m tests.kitchen.clock_reader CODE TOKEN NOW`` (NOW in ISO 8601) on the database of
DATABASE_URL, it asks the TV page's state at that moment of the server's time and prints the
JSON. It shares nothing with the process that ran the clock but the database."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from unittest import mock


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["HTTPS_ONLY"] = "0"
    import django

    django.setup()
    from django.test import Client
    from django.urls import reverse

    code, token, now = sys.argv[1:4]
    url = reverse("kitchen:tv_state", kwargs={"code": code, "token": token})
    with mock.patch("django.utils.timezone.now", return_value=datetime.fromisoformat(now)):
        response = Client(HTTP_HOST="localhost").get(url)
    assert response.status_code == 200, response.status_code
    sys.stdout.write(response.content.decode())


if __name__ == "__main__":
    main()
