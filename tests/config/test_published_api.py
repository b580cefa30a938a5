"""The project uses Channels and channels-redis through their published API only (issue 37):
no name starting with ``_`` that either package defines is read, called, imported or
overridden anywhere in the project's code or tests. A minor release may change such a
name and break delivery with no error and no type error."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("channels", "channels_redis")
SKIPPED = {".venv", "node_modules", ".git", "staticfiles"}


def _private_names(packages: tuple[str, ...] = PACKAGES) -> set[str]:
    """Every name starting with one ``_`` (not a dunder) that the packages define (a function,
    a class, an attribute or a module name they assign; not the names of others they read)."""
    names: set[str] = set()
    for package_name in packages:
        spec = importlib.util.find_spec(package_name)
        assert spec is not None and spec.origin is not None
        for source in Path(spec.origin).parent.rglob("*.py"):
            tree = ast.parse(source.read_text())
            for node in ast.walk(tree):
                name = None
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = node.name
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    name = node.attr  # self._lock = ...
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    name = node.id
                if name and name.startswith("_") and not name.startswith("__"):
                    names.add(name)
    return names


def _project_files() -> list[Path]:
    return [path for path in ROOT.rglob("*.py") if not SKIPPED & set(path.relative_to(ROOT).parts)]


def _own_self_reads(tree: ast.AST) -> set[int]:
    """The ids of ``self.x`` nodes inside classes that derive from nothing of the packages
    (a class's own ``self._lock`` is its own)."""
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES
        for alias in node.names
    }
    own: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and not {ast.unparse(base) for base in node.bases} & imported:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
                    own.add(id(inner))
    return own


def _uses(tree: ast.AST, private: set[str]) -> list[str]:
    found = []
    own = _own_self_reads(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private and id(node) not in own:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES:
            found += [f"line {node.lineno}: import {alias.name}" for alias in node.names if alias.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.split(".")[0] in PACKAGES and any(part.startswith("_") for part in alias.name.split("."))
            ]
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in private:
                    found.append(f"line {item.lineno}: overrides {item.name}")
    return found


def test_no_private_name_of_channels_or_channels_redis_is_used():
    # Names Django defines too (``_wrapped`` of its lazy objects, ``_registry`` of its admin)
    # are Django's, not these packages'.
    private = _private_names() - _private_names(("django",))
    assert {"_receive_message", "_get_shard", "_get_layer", "_shards"} <= private  # the scan sees them
    this_file = Path(__file__).resolve()
    used = {}
    for path in _project_files():
        if path.resolve() == this_file:
            continue
        found = _uses(ast.parse(path.read_text()), private)
        if found:
            used[str(path.relative_to(ROOT))] = found
    assert used == {}
