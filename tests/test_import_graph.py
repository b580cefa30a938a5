"""Who may import whom (docs/architecture.md, "Who may import whom"), read from the source.

Rules pinned: no import cycle among the project's modules; ``engine`` imports nothing of
the project's Django apps; selectors, the state cache and the event module never import
services (services import them), so reads cannot reach writes; the only imports from
the services back into the Celery tasks are made inside a function, at call time.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accounts", "config", "engine", "homegames", "kitchen", "ledger", "shares", "tables")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` is (or is inside), or None for other libraries."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(*, top_level_only: bool) -> dict[str, set[str]]:
    """A fresh copy of :func:`_import_graph` (read once per run: the source does not change)."""
    return {name: set(targets) for name, targets in _import_graph(top_level_only).items()}


@functools.cache
def _import_graph(top_level_only: bool) -> dict[str, set[str]]:
    """Module -> the project modules it imports.

    ``top_level_only``: only imports run when the module is imported (not those inside
    functions, nor under ``if TYPE_CHECKING:``)."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        nodes = list(tree.body) if top_level_only else list(ast.walk(tree))
        for node in nodes:
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
                # ``from package import name``: the package's own code runs for a name it
                # defines; for a submodule only the submodule counts (every import of a
                # submodule initialises its package first, cycle or not).
                targets = submodules if len(submodules) == len(node.names) else [*submodules, base]
            for target in targets:
                resolved = _resolve(target, modules)
                if resolved is None or resolved == name:
                    continue
                graph[name].add(resolved)
                # Importing ``a.b.c`` first runs the packages ``a`` and ``a.b`` (those that
                # are not already the importer's own, which are being initialised anyway).
                parts = resolved.split(".")
                for cut in range(1, len(parts)):
                    ancestor = ".".join(parts[:cut])
                    if ancestor in modules and not (name + ".").startswith(ancestor + "."):
                        graph[name].add(ancestor)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _reaches(graph: dict[str, set[str]], start: str, prefix: str) -> list[str]:
    """Modules under ``prefix`` that ``start`` imports, directly or through others."""
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return sorted(m for m in seen if m == prefix or m.startswith(prefix + "."))


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_cycle():
    assert cycles(import_graph(top_level_only=True)) == []


def test_reads_never_reach_writes():
    graph = import_graph(top_level_only=False)  # lazy imports inside functions count too
    for reader in ("tables.selectors", "tables.state_cache", "tables.events", "tables.history", "tables.history_words"):
        assert _reaches(graph, reader, "tables.services") == [], reader


def test_the_only_cycles_through_lazy_imports_are_the_celery_tasks():
    """Services queue the tasks (``tables.celery_tasks``) after the commit, and each task calls its
    service: that loop is closed by an import at call time, and by nothing else."""
    graph = import_graph(top_level_only=False)
    graph["tables.celery_tasks"] = set()
    assert cycles(graph) == []


def test_the_engine_imports_no_django_app():
    graph = import_graph(top_level_only=False)
    for module in (m for m in graph if m == "engine" or m.startswith("engine.")):
        assert all(target.startswith("engine") for target in graph[module]), module


# --- every rule of docs/architecture.md's "Who may import whom" ---------------------------------


def _project_imports(graph: dict[str, set[str]], module: str) -> set[str]:
    """What ``module`` imports of the project, less its own packages (initialised anyway)."""
    return {target for target in graph[module] if not (module + ".").startswith(target + ".")}


def _external_imports(module: str) -> set[str]:
    """The top-level names of every library ``module`` imports (inside functions too)."""
    path = _modules()[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.partition(".")[0])
    return found


def test_the_engine_imports_the_standard_library_only():
    import sys

    for module in (m for m in _modules() if m == "engine" or m.startswith("engine.")):
        outside = _external_imports(module) - set(sys.stdlib_module_names) - {"engine"}
        assert not outside, (module, sorted(outside))


#: The bottom of tables/: what each may import of the project (lazy imports included).
FOUNDATIONS = {
    "tables.models": set(),
    "tables.messages": set(),
    "tables.broadcast": {"tables.messages"},
    "tables.events": {"tables.models", "tables.messages"},
    "tables.payloads": {"tables.events", "tables.messages"},
    "tables.state_cache": {"tables.models"},
    "tables.guests": {"tables.models"},
    "tables.page_in_view": set(),
    "tables.sql": set(),
    "tables.sql.write": {"tables.models", "tables.events"},
    "tables.sql.read": {"tables.models", "tables.events", "tables.sql.write"},
}


@pytest.mark.parametrize("module", sorted(FOUNDATIONS))
def test_the_foundations_import_only_what_is_below_them(module):
    graph = import_graph(top_level_only=False)
    # The engine may be imported by anyone; the apps' modules only as listed.
    project = {m for m in _project_imports(graph, module) if m.partition(".")[0] in PACKAGES and m != "engine"}
    project = {m for m in project if not m.startswith("engine.")}
    assert project <= FOUNDATIONS[module] | {"tables"}, (module, sorted(project - FOUNDATIONS[module]))


@pytest.mark.parametrize(
    "reader", ["tables.what_viewers_see", "tables.live.news_frames", "tables.sql.read", "tables.broadcast"]
)
def test_the_screens_and_other_reads_never_reach_writes(reader):
    graph = import_graph(top_level_only=False)
    assert _reaches(graph, reader, "tables.services") == [], reader


#: tables/services, lowest first: each module imports only modules of a lower rank.
SERVICE_RANKS = {
    "errors": 0,
    "refusals": 1,
    "table_settings": 2,
    "log": 3,
    "clock_schedule": 4,
    "push": 4,
    "write": 5,
    "seat_state": 6,
    "hand_end": 7,
    "turns": 8,
    "dealing": 9,
    "between_hands": 10,
    "acting": 11,
    "seats": 11,
    "hosting": 11,
    "away": 12,
    "requests": 12,
    "pass_and_play": 12,
    "computers": 13,
    "claims": 13,
    "clock_run": 14,
}


def test_each_service_imports_only_the_services_below_it():
    graph = import_graph(top_level_only=False)
    services = sorted(m for m in graph if m.startswith("tables.services."))
    unranked = [m for m in services if m.rpartition(".")[2] not in SERVICE_RANKS]
    assert not unranked, f"give these a place in SERVICE_RANKS and docs/architecture.md: {unranked}"
    for module in services:
        rank = SERVICE_RANKS[module.rpartition(".")[2]]
        for target in graph[module]:
            if target.startswith("tables.services."):
                assert SERVICE_RANKS[target.rpartition(".")[2]] < rank, (module, target)


def test_only_the_write_path_builds_a_table_log():
    for module, path in _modules().items():
        if module == "tables.services.write":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                assert called != "TableLog", module


@pytest.mark.parametrize(
    "thin",
    [
        "tables.live.consumers",
        "tables.live.protocol",
        "tables.live.session",
        "tables.live.commands",
        "tables.live.viewer",
        "tables.pages.views",
        "tables.pages.views_join",
        "tables.pages.visitor",
        "tables.pages.views_history",
        "tables.pages.views_invite",
        "tables.pages.views_push",
        "tables.admin",
        "tables.pages.forms",
    ],
)
def test_the_thin_layers_never_touch_the_log_or_the_sql(thin):
    graph = import_graph(top_level_only=False)
    touched = {target for target in graph[thin] if target in ("tables.services.log", "tables.sql.write")}
    assert not touched, (thin, sorted(touched))


def test_the_ledger_never_reaches_into_the_services_of_tables():
    graph = import_graph(top_level_only=False)
    for module in (m for m in graph if m == "ledger" or m.startswith("ledger.")):
        assert not [t for t in graph[module] if t.startswith("tables.services")], module


def test_the_ledger_uses_of_tables_only_its_models_and_the_money_port():
    """The ledger's rows point at tables' models, and it is the bank ``tables.money`` declares
    (``ledger.bank``); nothing else of tables: the table's money pages are ``homegames``'."""
    graph = import_graph(top_level_only=False)
    for module in (m for m in graph if m == "ledger" or m.startswith("ledger.")):
        used = {t for t in graph[module] if t == "tables" or t.startswith("tables.")}
        assert used <= {"tables", "tables.models", "tables.money"}, (module, sorted(used))


@pytest.mark.parametrize("module", ["ledger.services", "ledger.selectors", "ledger.settlement", "ledger.models"])
def test_the_ledgers_core_imports_of_tables_at_run_time_only_the_money_port(module):
    top_level = import_graph(top_level_only=True)
    assert {t for t in top_level[module] if t.startswith("tables")} <= {"tables", "tables.money"}, module


def test_tables_record_their_chips_through_the_money_port_only():
    """``tables.money`` is pure (the payout presets, an amount's text, the bank's protocol):
    no Django, nothing of the project at run time."""
    top_level = import_graph(top_level_only=True)
    assert top_level["tables.money"] <= {"tables"}
    assert not {name for name in _external_imports("tables.money") if name == "django"}


def test_nothing_of_tables_or_the_ledger_imports_the_home_games_nights():
    """``homegames`` sits above both: it opens tables and reads the ledger's money; neither of
    them knows it (the lobby and the home page reach it by a template tag)."""
    graph = import_graph(top_level_only=False)
    for module in (m for m in graph if m.split(".")[0] in ("tables", "ledger", "engine", "accounts")):
        assert not [t for t in graph[module] if t.startswith("homegames")], module


#: What each module of ``shares`` may use of tables: its row and its link only the models; its
#: pages (``shares.views``) the history's reads and the history pages' own check of who may look.
SHARES_USES = {
    "shares.models": {"tables.models"},
    "shares.links": {"tables.models"},
    "shares.views": {"tables.models", "tables.history", "tables.pages", "tables.pages.views_history"},
}


def test_the_shared_hands_use_of_tables_only_its_models_and_the_history():
    """``shares`` (a link to one hand's replay) sits above tables: its row points at a hand, its
    pages (making, showing and revoking the link; the replay behind it) build on the history's.
    Tables never imports it: the hand's page reaches its pages by URL name."""
    graph = import_graph(top_level_only=False)
    shares = [module for module in graph if module == "shares" or module.startswith("shares.")]
    assert {"shares.links", "shares.views"} <= set(shares)
    for module in shares:
        used = {target for target in graph[module] if target.startswith("tables")}
        assert used <= SHARES_USES.get(module, set()) | {"tables"}, (module, sorted(used))  # "tables": the package


@pytest.mark.parametrize(
    "module",
    [
        "homegames.selectors",
        "homegames.selectors_seasons",
        "homegames.models",
        "homegames.checks",
    ],
)
def test_the_home_games_reads_never_reach_a_write(module):
    graph = import_graph(top_level_only=False)
    assert not [t for t in graph[module] if t.rpartition(".")[2].startswith("services") or ".services." in t], module


def test_the_checker_sees_a_broken_rule():
    """The rules above fail when one is broken: a selector importing a service is caught."""
    graph = {"tables.selectors": {"tables.x"}, "tables.x": {"tables.services.acting"}, "tables.services.acting": set()}
    assert _reaches(graph, "tables.selectors", "tables.services") == ["tables.services.acting"]


# --- tables' rooms: the live socket transport and the pages --------------------------------------

#: What each room of tables/ may use of tables outside itself (lazy imports included).
ROOMS = {
    "tables.live": {
        "tables.services",
        "tables.services.errors",
        "tables.selectors",
        "tables.what_viewers_see",
        "tables.broadcast",
        "tables.messages",
        "tables.events",
        "tables.guests",
        "tables.models",
        "tables.page_in_view",
    },
    "tables.pages": {
        "tables.services",
        "tables.services.errors",
        "tables.services.table_settings",
        "tables.services.computers",
        "tables.selectors",
        "tables.history",
        "tables.events",
        "tables.guests",
        "tables.messages",
        "tables.models",
    },
}


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_each_room_uses_only_what_it_may_of_tables(room):
    graph = import_graph(top_level_only=False)
    used = {
        target
        for module in graph
        if module.startswith(room + ".")
        for target in graph[module]
        if target.startswith("tables.") and not target.startswith(room)
    }
    assert used <= ROOMS[room], (room, sorted(used - ROOMS[room]))


def test_only_the_configuration_reaches_into_the_rooms():
    """The services, reads, news and models never import the socket transport or the pages
    (they live below both); of the rest, only the site's configuration, the app's start, the
    home games' pages and the shared hand's pages do, and the two rooms never use each other."""
    graph = import_graph(top_level_only=False)
    # homegames' views reuse the lobby's table form for a night's template (pages using pages).
    # shares' pages build on the history's (its check of who may look, the replayer's words).
    allowed = {"tables.apps", "homegames.views", "shares.views"}
    for module, targets in graph.items():
        rooms = {room for room in ROOMS if any(t == room or t.startswith(room + ".") for t in targets)}
        own = {room for room in ROOMS if module == room or module.startswith(room + ".")}
        assert not (rooms - own) or module in allowed or module.startswith("config."), (module, sorted(rooms - own))


# --- kitchen/: the kitchen-table night -----------------------------------------------------------

#: What the kitchen may use of the other apps (lazy imports included).
KITCHEN_USES = {
    "homegames.models",
    "homegames.selectors",
    "homegames.selectors_seasons",
    "homegames.services",
    "homegames.services_members",
    "homegames.services_tonight",
    "ledger.models",
    "ledger.selectors",
    "ledger.services",
    "ledger.settlement",
    "tables.events",
    "tables.guests",
    "tables.models",
    "tables.money",
    "tables.selectors",
    "tables.services",
    "tables.services.errors",
    "tables.services.hand_end",
    "tables.services.pass_and_play",
    "tables.services.requests",
    "tables.services.seats",
    "tables.services.table_settings",
    "tables.services.hosting",
    "tables.services.write",
}


def test_the_kitchen_uses_only_the_public_services_and_reads_of_tables_and_the_ledger():
    graph = import_graph(top_level_only=False)
    for module in (m for m in graph if m == "kitchen" or m.startswith("kitchen.")):
        used = {t for t in graph[module] if t.split(".")[0] in ("tables", "ledger", "homegames")}
        used = {t for t in used if t not in ("tables", "ledger", "homegames")}
        assert used <= KITCHEN_USES, (module, sorted(used - KITCHEN_USES))


def test_nothing_imports_the_kitchen_but_the_configuration():
    graph = import_graph(top_level_only=False)
    for module, targets in graph.items():
        if module.split(".")[0] in ("kitchen", "config"):
            continue
        assert not [t for t in targets if t == "kitchen" or t.startswith("kitchen.")], module


# --- the apps: one direction ----------------------------------------------------------------------

#: What each app may use of the others (docs/architecture.md, "The parts"), by an import (inside a
#: function or under ``TYPE_CHECKING`` too) or by a model's relation. ``config`` (the site's
#: settings, URLs and ASGI application, which use everything, and the helpers every app uses:
#: limits, confirmation pages) stands outside the order.
APP_USES: dict[str, set[str]] = {
    "engine": set(),
    "accounts": set(),
    "tables": {"engine", "accounts"},
    "shares": {"tables", "accounts"},
    "ledger": {"tables", "accounts"},
    "homegames": {"ledger", "tables", "accounts", "engine"},
    "kitchen": {"homegames", "ledger", "tables", "accounts", "engine"},
}

#: No two apps use each other (the shared hand's pages are ``shares``', above tables, since issue 35).
APP_CYCLES_LEFT: list[list[str]] = []


def _model_relations() -> dict[str, set[str]]:
    """App -> the apps its models' relations point at (foreign keys, one-to-ones, many-to-manys)."""
    from django.apps import apps

    found: dict[str, set[str]] = {app: set() for app in APP_USES}
    for model in apps.get_models(include_auto_created=True):
        app = model._meta.app_label
        if app not in found:
            continue
        for field in model._meta.get_fields():
            if field.is_relation and field.concrete and field.related_model is not None:
                target = field.related_model._meta.app_label
                if target != app:
                    found[app].add(target)
    return found


def app_graph() -> dict[str, set[str]]:
    """App -> the project's apps it uses (``config`` left out, see :data:`APP_USES`)."""
    graph: dict[str, set[str]] = {app: set() for app in APP_USES}
    for module, targets in import_graph(top_level_only=False).items():
        app = module.partition(".")[0]
        if app in graph:
            graph[app] |= {t.partition(".")[0] for t in targets} - {app, "config"}
    for app, targets in _model_relations().items():
        graph[app] |= targets & set(APP_USES)
    return graph


def test_each_app_uses_only_the_apps_below_it():
    """Fails on a model's relation as on an import: the ledger's rows point at tables, so tables
    never imports the ledger (it records chips through ``tables.money``)."""
    graph = app_graph()
    for app, used in graph.items():
        assert used <= APP_USES[app], (app, sorted(used - APP_USES[app]))


def test_the_apps_depend_one_way():
    assert cycles(app_graph()) == APP_CYCLES_LEFT
    assert cycles({app: set(uses) for app, uses in APP_USES.items()}) == APP_CYCLES_LEFT


def test_the_app_checker_sees_a_relation_against_the_order():
    """A table's import of the ledger's services, with the ledger's rows pointing at tables, is
    the app-level cycle these rules were written against."""
    graph = {app: set(uses) for app, uses in APP_USES.items()}
    graph["tables"].add("ledger")
    assert any({"ledger", "tables"} <= set(cycle) for cycle in cycles(graph))
