"""docs/configuration.md is the settings' contract: every field of
:class:`app.core.settings.Settings` has its row, under its environment name, with the
default the code has; and no row names a ``FIVEUP_`` server setting the code lacks."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
#: rows of the tools' variables (scripts/, tests/, setup.py), not the server's settings
TOOL_ROWS = {
    "FIVEUP_VENV",
    "FIVEUP_SERVE_BUILD",
    "FIVEUP_TEST_PG_ADMIN",
    "FIVEUP_CHROMIUM",
    "FIVEUP_TEST_TIMEOUT",
    "FIVEUP_TEST_BUILD",
    "FIVEUP_EXPECT_NATIVE",
    "FIVEUP_NATIVE",
}


def _rows() -> dict[str, str]:
    """Each documented variable and the text of its default cell."""
    rows: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", cells[0]):
            rows[name] = cells[1]
    return rows


def _shown(value: object) -> str:
    """A default as the doc writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_setting_is_documented_with_its_default() -> None:
    rows = _rows()
    missing, wrong = [], []
    for name, field in Settings.model_fields.items():
        env = "DATABASE_URL" if name == "database_url" else f"FIVEUP_{name.upper()}"
        if env not in rows:
            missing.append(env)
            continue
        default = field.default
        if default in (None, "", ()) or name == "static_dir":
            continue  # documented in words ("(empty)", "the client shipped ...")
        if f"`{_shown(default)}`" not in rows[env]:
            wrong.append(f"{env}: code {default!r}, doc {rows[env]!r}")
    assert missing == [] and wrong == []


def test_every_documented_server_setting_exists() -> None:
    known = {f"FIVEUP_{n.upper()}" for n in Settings.model_fields} | {"DATABASE_URL"}
    documented = {n for n in _rows() if n.startswith("FIVEUP_")} - TOOL_ROWS
    assert sorted(documented - known) == []
