"""The packages import one way (docs/architecture.md): ``app/api`` → ``app/tables`` →
``app/realtime`` → ``app/db``, all of them → ``app/engine``; ``app/realtime`` never
imports ``app/tables``, only ``app/db`` speaks SQL, the engine imports nothing of ours."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"

#: what each package must not import
FORBIDDEN = {
    "engine": ("app.api", "app.tables", "app.realtime", "app.db", "app.bots", "app.core"),
    "bots": ("app.api", "app.tables", "app.realtime", "app.db"),
    "ratings": ("app.api", "app.tables", "app.realtime", "app.db", "app.bots", "app.core"),
    "db": ("app.api", "app.tables", "app.realtime"),
    "realtime": ("app.api", "app.tables"),
    "tables": ("app.api",),
    "core": ("app.api", "app.tables", "app.realtime"),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    wrong = [
        f"{path.relative_to(APP.parent)} imports {name}"
        for path in sorted((APP / package).rglob("*.py"))
        for name in _imports(path)
        if name.startswith(FORBIDDEN[package])
    ]
    assert wrong == []


#: the database drivers and toolkits: imported only in ``app/db``
DATABASE_LIBRARIES = ("psycopg", "psycopg_pool", "sqlalchemy", "asyncpg")
#: SQL in a string: a statement, or PostgreSQL's notifications (keywords in capitals, as
#: our SQL writes them, so that English prose is not taken for SQL)
SQL = re.compile(
    r"\b(UN)?LISTEN\s+(\{\}|\w+)\s*(;|$)"
    r"|\bNOTIFY\s+(\{\}|\w+)\s*(,|;|$)"
    r"|\b(?i:pg_notify)\s*\("
    r"|\bSELECT\b[^;]*?\bFROM\b"
    r"|\bINSERT\s+INTO\b"
    r"|\bUPDATE\s+[\w{}\"]+\s+SET\b"
    r"|\bDELETE\s+FROM\b",
    re.DOTALL,
)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the module's, classes' and functions' docstring nodes."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and (
            ast.get_docstring(node, clean=False) is not None
        ):
            found.add(id(node.body[0].value))  # type: ignore[attr-defined]
    return found


def _strings(tree: ast.AST) -> list[str]:
    """Every string literal but the docstrings; an f-string with ``{}`` for each of its
    values (``f"LISTEN {CHANNEL}"`` is ``"LISTEN {}"``)."""
    skip = _docstrings(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out.append(
                "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            )
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            out.append(node.value)
    return out


def _sql_spoken(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [
        f"imports {name}" for name in _imports(path) if name.split(".")[0] in DATABASE_LIBRARIES
    ]
    found += [f"SQL in {text[:60]!r}" for text in _strings(tree) if SQL.search(text)]
    return found


def test_only_the_database_layer_speaks_sql() -> None:
    outside = [
        f"{path.relative_to(APP.parent)}: {what}"
        for path in sorted(APP.rglob("*.py"))
        if path.parent.relative_to(APP).parts[:1] != ("db",)
        for what in _sql_spoken(path)
    ]
    assert outside == []
    # the check sees SQL where it is: LISTEN, pg_notify and the store's statements
    assert _sql_spoken(APP / "db" / "pg_listener.py")
    assert _sql_spoken(APP / "db" / "pg_notifier.py")
    assert _sql_spoken(APP / "db" / "pg_store.py")
