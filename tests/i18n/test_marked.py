"""Every user-facing string in templates, Python and page scripts is marked for translation.

A static check, tuned to catch real misses and stay quiet otherwise:

- templates: text between tags, and the title / aria-label / placeholder / alt attributes,
  outside {% translate %} and {% blocktranslate %} (script, style and comments skipped);
- Python (accounts, config, ledger, tables): a bare or f-string message given to the
  errors and calls players read (ServiceError, LedgerError, ValidationError,
  PermissionDenied, Http404, messages.*, add_error, help_text= / verbose_name= / label=);
- JavaScript (static/js): a literal put on the page (textContent, innerHTML, an el()
  ``text:``, a title / aria-label / placeholder, alert / confirm) instead of a string
  from the server or the catalogue's gettext.

The engine, the settle command and the exports speak English by contract and are not
scanned. Each checker is shown a known miss by its own test, so it can fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
PYTHON_PACKAGES = ("accounts", "config", "ledger", "tables")
# Contracts in English (shared/spec): the settle command's output and the engine's files.
PYTHON_SKIPPED = ("ledger/settlement.py", "ledger/management/", "homegames/management/")

WORD = re.compile(r"[A-Za-z]{2,}")
ENTITY = re.compile(r"&[#\w]+;")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
# Scripts, styles and code shown as code (a command to type, a file name) are not prose.
RAW_BLOCK = re.compile(r"<(script|style|code|kbd|samp|pre)\b[^>]*>.*?</\1\s*>", re.S | re.I)
TAG = re.compile(r"<[^>]*>", re.S)
USER_ATTRIBUTE = re.compile(r"""\b(title|aria-label|placeholder|alt)\s*=\s*(["'])([^"']*)\2""", re.I)

# --------------------------------------------------------------------- templates


def _shadow(source: str) -> str:
    """The template with every template tag and variable replaced by one mark (\x00), and
    {% blocktranslate %} and {% comment %} blocks (and blocks named *class, which hold CSS
    classes) dropped whole: HTML that template tags cut in pieces is whole again, and only
    literal text is left to read."""
    out = []
    skipping = ""  # the end tag of the block being dropped
    for token in Lexer(source).tokenize():
        name = token.contents.split()[0] if token.token_type == TokenType.BLOCK and token.contents else ""
        if skipping:
            if name == skipping:
                skipping = ""
                out.append("\x00")
            continue
        if name in ("blocktranslate", "blocktrans", "comment"):
            skipping = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans"}.get(name, "endcomment")
            continue
        if name == "block" and token.contents.split()[-1].endswith("class"):
            skipping = "endblock"  # {% block main_class %}page page--narrow{% endblock %}: CSS classes
            continue
        out.append(token.contents if token.token_type == TokenType.TEXT else "\x00")
    return "".join(out)


def template_misses(source: str) -> list[str]:
    """Literal words a person would read, outside the translation tags."""
    text = HTML_COMMENT.sub(" ", _shadow(source))
    text = RAW_BLOCK.sub(" ", text)
    misses = []
    for tag in TAG.findall(text):
        for match in USER_ATTRIBUTE.finditer(tag):
            if WORD.search(match.group(3).replace("\x00", " ")):
                misses.append(f'{match.group(1)}="{match.group(3)}"')
    for node in TAG.split(text):
        words = " ".join(ENTITY.sub(" ", node).replace("\x00", " ").split())
        if WORD.search(words):
            misses.append(words)
    return misses


def template_files() -> list[Path]:
    found = sorted((ROOT / "templates").rglob("*.html")) + sorted((ROOT / "templates").rglob("*.txt"))
    for package in PYTHON_PACKAGES:
        found += sorted((ROOT / package).glob("templates/**/*.html"))
    return found


def test_templates_mark_every_text_a_person_reads():
    misses = {}
    for path in template_files():
        if found := template_misses(path.read_text()):
            misses[str(path.relative_to(ROOT))] = found

    assert not misses, f"unmarked template text (use {{% translate %}}): {misses}"


def test_the_template_check_finds_a_miss_and_passes_marked_text():
    source = """{% load i18n %}<h1>{% translate "Tables" %}</h1>
    <p>Welcome back</p>
    <button title="Copy the link">{{ label }}</button>
    <a aria-label="{% translate 'Main' %}" href="{% url 'home' %}">{% translate "Home" %}</a>
    {% blocktranslate %}Hello {{ name }}{% endblocktranslate %}
    {% comment %}Not for players{% endcomment %}{% block main_class %}page page--narrow{% endblock %}
    <script>var x = "code";</script> &middot; {{ value }} 42 · — %
    <a class="button {% if quiet %}button--quiet{% endif %}" href="#" download>{% translate "Get" %}</a>
    <code>python -m engine verify</code> <p>Unmarked {{ value }} tail</p>
    """

    assert template_misses(source) == ['title="Copy the link"', "Welcome back", "Unmarked tail"]


# --------------------------------------------------------------------- Python

# Calls whose argument at this position is read by players.
MESSAGE_ARGUMENT = {
    "ServiceError": 1,
    "LedgerError": 1,
    "ValidationError": 0,
    "PermissionDenied": 0,
    "Http404": 0,
    "add_error": 1,
    "success": 1,
    "error": 1,
    "warning": 1,
    "info": 1,
    "add_message": 2,
}
MESSAGE_KEYWORDS = {"help_text", "verbose_name", "verbose_name_plural", "label", "empty_label"}


def _is_bare_text(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(WORD.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and WORD.search(str(part.value)) for part in node.values)
    return False


def python_misses(source: str) -> list[str]:
    misses = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("success", "error", "warning", "info", "add_message"):
            # messages.success(request, ...), not some_logger.error("...")
            if not (isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "messages"):
                name = ""
        position = MESSAGE_ARGUMENT.get(name)
        if position is not None and len(node.args) > position and _is_bare_text(node.args[position]):
            misses.append(f"line {node.lineno}: {name}(... {ast.unparse(node.args[position])[:60]})")
        for keyword in node.keywords:
            if keyword.arg in MESSAGE_KEYWORDS and _is_bare_text(keyword.value):
                misses.append(f"line {node.lineno}: {keyword.arg}={ast.unparse(keyword.value)[:60]}")
    return misses


def python_files() -> list[Path]:
    found = []
    for package in PYTHON_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = str(path.relative_to(ROOT))
            if "/migrations/" in relative or relative.startswith(PYTHON_SKIPPED):
                continue
            found.append(path)
    return found


def test_python_marks_every_message_a_player_reads():
    misses = {}
    for path in python_files():
        if found := python_misses(path.read_text()):
            misses[str(path.relative_to(ROOT))] = found

    assert not misses, f"unmarked messages (wrap them in gettext / gettext_lazy): {misses}"


def test_the_python_check_finds_a_miss_and_passes_marked_text():
    source = """
from django.contrib import messages
raise ServiceError("no_seat", "You have no seat.")
raise ServiceError("no_seat", _("You have no seat."))
messages.error(request, f"Table {code} is closed")
messages.error(request, _("Closed"))
logger.error("this is for operators")
field = forms.IntegerField(label="Boot", help_text=_("Chips"))
raise ValidationError(_("Bad %(x)s") % {"x": 1})
"""

    assert python_misses(source) == [
        "line 3: ServiceError(... 'You have no seat.')",
        "line 5: error(... f'Table {code} is closed')",
        "line 8: label='Boot'",
    ]


# --------------------------------------------------------------------- JavaScript

JS_PATTERNS = (
    re.compile(r"""\.(?:textContent|innerText|innerHTML)\s*[+]?=\s*(["'`])(?P<text>(?:(?!\1).)*)\1"""),
    re.compile(r"""\btext\s*:\s*(["'`])(?P<text>(?:(?!\1).)*)\1"""),
    re.compile(r"""["']?(?:title|aria-label|placeholder|alt)["']?\s*[:,]\s*(["'`])(?P<text>(?:(?!\1).)*)\1"""),
    re.compile(r"""\b(?:alert|confirm|prompt)\(\s*(["'`])(?P<text>(?:(?!\1).)*)\1"""),
)
JS_LINE_COMMENT = re.compile(r"^\s*(//|\*|/\*)")


def javascript_misses(source: str) -> list[str]:
    misses = []
    for number, line in enumerate(source.splitlines(), 1):
        if JS_LINE_COMMENT.match(line):
            continue
        for pattern in JS_PATTERNS:
            for match in pattern.finditer(line):
                text = re.sub(r"\$\{[^}]*\}", " ", match.group("text"))
                if WORD.search(text):
                    misses.append(f"line {number}: {match.group(0)[:70]}")
    return misses


def javascript_files() -> list[Path]:
    return [path for path in sorted((ROOT / "static" / "js").rglob("*.js")) if "vendor" not in path.parts]


def test_page_scripts_show_only_translated_text():
    misses = {}
    for path in javascript_files():
        if found := javascript_misses(path.read_text()):
            misses[str(path.relative_to(ROOT))] = found

    assert not misses, f"literal text put on the page (use the catalogue's gettext or a server string): {misses}"


def test_the_javascript_check_finds_a_miss_and_passes_marked_text():
    source = """
    badge.textContent = "Connected";
    badge.textContent = S.connection_open;
    box.textContent = "";
    el("span", { class: "badge", text: "Seen" });
    el("span", { class: "badge", text: gettext("Seen") });
    button.setAttribute("aria-label", "Raise");
    button.setAttribute("aria-label", interpolate(gettext("Raise to %s"), [n]));
    // a comment about textContent = "words"
    node.textContent = `${count}`;
    """

    assert javascript_misses(source) == [
        'line 2: .textContent = "Connected"',
        'line 5: text: "Seen"',
        'line 7: "aria-label", "Raise"',
    ]
