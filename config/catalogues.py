"""Compile the translation catalogues: ``locale/<lang>/LC_MESSAGES/*.po`` into ``.mo``.

Only the ``.po`` files are kept in git; the ``.mo`` files Django reads are made from them
by ``scripts/serve``, the test run (tests/conftest.py) and a deployment
(``python -m config.catalogues``). It needs no GNU gettext (polib, pure Python), so the
site still needs nothing but Python. A ``.mo`` newer than its ``.po`` is left alone.

Fuzzy entries are left out, as msgfmt does: a guess is never shown to players.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compile_catalogues(locale_dir: Path = LOCALE_DIR, *, force: bool = False) -> list[Path]:
    """Write each stale ``.mo``; return the ones written."""
    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        catalogue = polib.pofile(str(po_path))
        for entry in catalogue:
            if entry.fuzzy:
                entry.msgstr = ""
                entry.msgstr_plural = dict.fromkeys(entry.msgstr_plural, "")
        temporary = mo_path.with_name(f"{mo_path.name}.tmp")
        catalogue.save_as_mofile(str(temporary))
        temporary.replace(mo_path)  # atomic: a server reading it never sees half a file
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_catalogues(force="--force" in sys.argv[1:]):
        print(f"compiled {path.relative_to(LOCALE_DIR.parent)}")
