"""Which of the server's modules run compiled (docs/decisions.md, "The compiled move
path"): the move path's modules, listed once here in :data:`NATIVE`, are compiled to C
extensions by mypyc when the package is built as a wheel (``setup.py`` reads this list);
an editable install, or a build without a C compiler, runs them as Python. Both behave
the same; the test command runs the whole suite on each.

>>> "app.engine.views" in NATIVE, "app.api.ws" in NATIVE
(True, False)
>>> sorted(set(build_status()) - {"compiled", "python"})
[]
"""

from __future__ import annotations

import importlib
import importlib.machinery

#: the compiled modules: deciding a move (the engine, the commands), projecting and
#: patching the views, encoding the frames, the group commit's parameters and the send.
#: Each is typed under ``mypy --strict``; none is an endpoint, a mixin or a class that
#: code elsewhere subclasses (mypyc's classes are final to Python code).
NATIVE = (
    "app.engine.tiles",
    "app.engine.places",
    "app.engine.moves",
    "app.engine.layout",
    "app.engine.round",
    "app.engine.sides",
    "app.engine.log_entries",
    "app.engine.match",
    "app.engine.views",
    "app.engine.position",
    "app.engine.describe",
    "app.engine.errors",
    "app.realtime.patch",
    "app.realtime.view_patch",
    "app.realtime.frames",
    "app.realtime.delivery",
    "app.realtime.projection",
    "app.realtime.committed",
    "app.realtime.table_info",
    "app.realtime.hub",
    "app.realtime.connection",
    "app.realtime.presence",
    "app.realtime.revoke",
    "app.core.json_text",
    "app.core.locks",
    "app.tables.change",
    "app.tables.writer",
    "app.tables.move_actions",
    "app.tables.timed_actions",
    "app.tables.play",
    "app.tables.turn_clock",
    "app.tables.autopilot",
    "app.tables.bot_seats",
    "app.tables.rounds",
    "app.db.pg_group",
    "app.db.channel",
    "app.api.socket_writer",
    "app.api.send_watch",
)


def is_compiled(module: str) -> bool:
    """Whether ``module`` (imported here if it is not yet) is a C extension."""
    path = getattr(importlib.import_module(module), "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_status() -> dict[str, list[str]]:
    """The :data:`NATIVE` modules by how they run: ``compiled`` or ``python``."""
    status: dict[str, list[str]] = {"compiled": [], "python": []}
    for module in NATIVE:
        status["compiled" if is_compiled(module) else "python"].append(module)
    return status


def describe_build() -> str:
    """One line for the server's start-up log."""
    status = build_status()
    if not status["compiled"]:
        return "the move path runs as Python (an editable install, or built without mypyc)"
    if not status["python"]:
        return f"the move path runs compiled ({len(NATIVE)} modules, mypyc)"
    return (
        f"the move path runs partly compiled: {len(status['compiled'])} of {len(NATIVE)}"
        f" modules (as Python: {', '.join(status['python'])})"
    )
