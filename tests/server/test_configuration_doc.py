"""docs/configuration.md, "The server", lists exactly the settings of
``app/core/settings.py``: every field of ``Settings`` under its environment name
(``FIVEUP_`` + the field's name in capitals; ``DATABASE_URL`` without the prefix) with
its default as the code has it, and no variable the code does not read."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic.fields import FieldInfo

from app.core.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"

#: a table row of the doc: ``| `NAME` (…) | default | meaning |``
ROW = re.compile(r"^\| `(?P<name>[A-Z][A-Z0-9_]*)`[^|]* \| (?P<default>[^|]*) \|", re.M)


def documented() -> dict[str, str]:
    """Each variable of the doc's server section and its default cell, as written."""
    text = DOC.read_text(encoding="utf-8")
    server = text.split("## The server", 1)[1].split("\n## ", 1)[0]
    return {m["name"]: m["default"].strip() for m in ROW.finditer(server)}


def env_name(name: str) -> str:
    return "DATABASE_URL" if name == "database_url" else f"FIVEUP_{name.upper()}"


def written_default(field: FieldInfo) -> str | None:
    """The default as the doc writes it in a code span (``true``, ``20``, ``memory://``);
    None when it is described in words (made at start-up, or empty)."""
    if field.default_factory is not None or field.default in ("", None):
        return None
    value = field.default
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_setting_is_documented_under_its_environment_name_with_its_default() -> None:
    doc = documented()
    wrong = []
    for name, field in Settings.model_fields.items():
        env = env_name(name)
        if env not in doc:
            wrong.append(f"{env}: not in docs/configuration.md")
            continue
        expected = written_default(field)
        cell = doc[env]
        code = re.fullmatch(r"`([^`]*)`", cell)
        if expected is None:
            if code is not None:
                wrong.append(f"{env}: the default is {field.default!r}, the doc says {cell}")
        elif code is None or code[1] != expected:
            wrong.append(f"{env}: the default is `{expected}`, the doc says {cell}")
    assert wrong == []


def test_every_documented_server_variable_is_a_setting() -> None:
    known = {env_name(name) for name in Settings.model_fields}
    assert sorted(set(documented()) - known) == []
