"""The translation catalogues are complete: every message of the source is in each of
locale/{ne,hi,de}, translated, not fuzzy, with the same placeholders and markup as the
English, and Nepali and Hindi write their digits as the glossaries say (0-9, not the Devanagari digits)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.conftest import running_in_ci

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ne", "hi", "de")
DOMAINS = ("django", "djangojs")
# %(name)s, %s, %d, %% ... (Python and Django's JavaScript interpolate) and {name}.
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]|\{\w*\}")
TAG = re.compile(r"</?([a-zA-Z][\w-]*)")
DEVANAGARI_DIGIT = re.compile("[\u0966-\u096f]")


def catalogue_paths() -> list[Path]:
    return [
        ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
        for language in LANGUAGES
        for domain in DOMAINS
        if (ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po").exists() or domain == "django"
    ]


def placeholders(text: str) -> list[str]:
    return sorted(match for match in PLACEHOLDER.findall(text) if match != "%%")


def tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def problems_in(catalogue: polib.POFile) -> list[str]:
    """Every reason one catalogue is not complete, one line each (empty: complete)."""
    found = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        name = f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
        if "fuzzy" in entry.flags:
            found.append(f"fuzzy: {name}")
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(index, "") for index in range(2)]
            if not all(forms):
                found.append(f"missing: {name}")
                continue
            allowed = set(placeholders(entry.msgid)) | set(placeholders(entry.msgid_plural))
            for form in forms:
                if not set(placeholders(form)) <= allowed:
                    found.append(f"placeholders differ: {name} -> {form!r}")
            if set(placeholders(forms[-1])) != set(placeholders(entry.msgid_plural)):
                found.append(f"placeholders differ: {name} -> {forms[-1]!r}")
            translations = forms
        else:
            if not entry.msgstr:
                found.append(f"missing: {name}")
                continue
            if placeholders(entry.msgstr) != placeholders(entry.msgid):
                found.append(f"placeholders differ: {name} -> {entry.msgstr!r}")
            if tags(entry.msgstr) != tags(entry.msgid):
                found.append(f"markup differs: {name} -> {entry.msgstr!r}")
            translations = [entry.msgstr]
        language = catalogue.metadata.get("Language")
        if language in ("ne", "hi") and any(DEVANAGARI_DIGIT.search(text) for text in translations):
            found.append(f"Devanagari digits (the glossary says 0-9): {name}")
    if catalogue.metadata_is_fuzzy:
        found.append("the header is fuzzy")
    return found


@pytest.mark.parametrize("path", catalogue_paths(), ids=lambda path: f"{path.parts[-3]}-{path.stem}")
def test_every_message_is_translated_with_the_same_placeholders(path):
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run scripts/messages"

    problems = problems_in(polib.pofile(str(path)))

    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_checker_finds_each_kind_of_problem():
    catalogue = polib.POFile()
    catalogue.metadata = {"Language": "ne"}
    catalogue.append(polib.POEntry(msgid="Hand %(number)s", msgstr=""))
    catalogue.append(polib.POEntry(msgid="Pot %(amount)s", msgstr="पट %(amt)s"))
    catalogue.append(polib.POEntry(msgid="Seen", msgstr="सिन", flags=["fuzzy"]))
    catalogue.append(polib.POEntry(msgid="Up to %(n)d", msgstr="%(n)s सम्म"))
    catalogue.append(polib.POEntry(msgid='<a href="%(url)s">Log in</a>', msgstr="%(url)s लग इन"))
    catalogue.append(polib.POEntry(msgid="Seat %(n)s", msgstr="सिट ३ %(n)s"))
    catalogue.append(
        polib.POEntry(
            msgid="%(counter)s chip",
            msgid_plural="%(counter)s chips",
            msgstr_plural={0: "%(counter)s चिप", 1: "चिप्स"},
        )
    )
    catalogue.append(polib.POEntry(msgid="Fold", msgstr="फोल्ड"))

    problems = problems_in(catalogue)

    assert [problem.split(":")[0] for problem in problems] == [
        "missing",
        "placeholders differ",
        "fuzzy",
        "placeholders differ",
        "markup differs",
        "Devanagari digits (the glossary says 0-9)",
        "placeholders differ",
    ]


def source_messages(domain: str, work: Path) -> set[tuple[str | None, str]]:
    """The messages makemessages finds in the source today, run on a copy of the tree."""
    tree = work / "tree"
    shutil.copytree(
        ROOT,
        tree,
        ignore=shutil.ignore_patterns(".git", ".venv", "var", "node_modules", "*.pyc", "__pycache__", "locale"),
    )
    command = [sys.executable, "manage.py", "makemessages", "-l", "ne", "-d", domain, "--no-location"]
    for pattern in ("tests/*", "benchmarks/*", "var/*", ".venv/*"):
        command += ["--ignore", pattern]
    (tree / "locale").mkdir()
    subprocess.run(command, cwd=tree, check=True, capture_output=True, timeout=300)
    made = tree / "locale" / "ne" / "LC_MESSAGES" / f"{domain}.po"
    if not made.exists():
        return set()
    return {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(made))}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_message_of_the_source_is_in_each_catalogue(domain, tmp_path):
    if shutil.which("xgettext") is None:
        if running_in_ci():
            pytest.fail("needs GNU gettext (xgettext): .ci/run installs it")
        pytest.skip("needs GNU gettext (xgettext): apt-get install gettext")
    wanted = source_messages(domain, tmp_path)
    if domain == "django":
        assert len(wanted) > 500  # the run found the site's messages
    for language in LANGUAGES:
        path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
        have = {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path))} if path.exists() else set()
        missing = sorted(msgid for _context, msgid in wanted - have)

        assert not missing, f"{path.relative_to(ROOT)} lacks (run scripts/messages): {missing[:20]}"
