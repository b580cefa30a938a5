"""The contracts stay in one language whatever the site speaks (shared/spec): the settle
command's output and the JSON downloads are the same bytes in Nepali as in English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.ledger.test_settle_command import SPEC_INPUT, SPEC_OUTPUT, run_settle
from tests.tables.test_history import client_for, played_game

ROOT = Path(__file__).resolve().parents[2]
BROKEN = {**SPEC_INPUT, "currency": "rupees"}


def settle_in_a_process(tmp_path: Path, document: dict, language: str) -> tuple[int, str]:
    path = tmp_path / f"game-{language}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    env = {**os.environ, "LANGUAGE": language, "LANG": f"{language}_NP.UTF-8", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "manage.py", "settle", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout


@pytest.mark.parametrize("document", [SPEC_INPUT, BROKEN], ids=["settled", "refused"])
def test_the_settle_command_prints_the_same_with_language_set_to_nepali(tmp_path, document):
    english = settle_in_a_process(tmp_path, document, "en")
    nepali = settle_in_a_process(tmp_path, document, "ne")

    assert nepali == english
    if document is SPEC_INPUT:
        assert json.loads(nepali[1]) == SPEC_OUTPUT


def test_the_settle_command_ignores_an_active_nepali_translation(tmp_path):
    with translation.override("ne"):
        status, output = run_settle(tmp_path, BROKEN)

    assert status == 2  # shared/spec/settle.md: refused input exits 2
    assert output["ok"] is False
    assert output["error"].isascii()  # English, as the spec gives it


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["game_export", "hand_export"])
def test_the_json_downloads_are_the_same_bytes_in_every_language(client, name):
    table, seats = played_game("faras", hands=2)
    client_for(client, seats[1])
    kwargs = {"code": table.code} if name == "game_export" else {"code": table.code, "number": 1}
    downloads = {}
    for language in ("en", "ne", "hi", "de"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(reverse(name, kwargs=kwargs))
        assert response.status_code == 200
        downloads[language] = response.content

    assert downloads["ne"] == downloads["en"] == downloads["hi"] == downloads["de"]
    # and the page around them did change language, so the cookie was honoured
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    page = client.get(reverse("table_history", kwargs={"code": table.code})).content.decode()
    assert "हातहरू" in page
