"""The packages import one way (docs/architecture.md): ``app/api`` → ``app/tables`` →
``app/realtime`` → ``app/db``, all of them → ``app/engine``; ``app/realtime`` never
imports ``app/tables``, only ``app/db`` speaks SQL, the engine imports nothing of ours."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"

#: what each package must not import
FORBIDDEN = {
    "engine": ("app.api", "app.tables", "app.realtime", "app.db", "app.bots", "app.core"),
    "bots": ("app.api", "app.tables", "app.realtime", "app.db"),
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
