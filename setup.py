"""The build of the `app` package: pure Python, plus the move path's modules compiled to C
extensions with mypyc where that is possible (docs/decisions.md, "The compiled move
path"). Everything else about the package is declared in pyproject.toml.

- A wheel (``pip install .``, ``pip wheel .``, a git URL) compiles the modules listed in
  ``app/core/native.py`` (``NATIVE``): the same source, type-checked by mypy and turned
  into C, each module in place of its ``.py`` (which the wheel still carries). The C runtime they share is one extension
  inside the package (``app/native__mypyc…``): the wheel adds no top-level name.
- It falls back to pure Python, with a warning, when mypyc or a C compiler is missing or
  the compile fails, and when ``FIVEUP_NATIVE=0`` is set. The two builds behave the same:
  the test command runs the whole suite on both (README, "Two commands").
- An editable install (``pip install -e .``, what ``./scripts/serve`` and
  ``./scripts/test`` make in ``.venv``) is always pure Python, so that an edit takes
  effect at once; a compiled module next to its source would hide the edit.
"""

from __future__ import annotations

import ast
import os
import sys
import warnings
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def native_sources() -> list[str]:
    """The source files of the modules ``app/core/native.py`` lists in ``NATIVE`` (read
    from that file as text: the package is not importable while it is being built)."""
    tree = ast.parse((ROOT / "app" / "core" / "native.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "NATIVE" for t in node.targets
        ):
            modules = ast.literal_eval(node.value)
            return [m.replace(".", "/") + ".py" for m in modules]
    raise RuntimeError("app/core/native.py defines no NATIVE")


#: the C runtime the compiled modules share, inside the package: app/native__mypyc.*.so
GROUP = "app.native"

#: commands that build the package's files (metadata-only commands compile nothing)
_BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def _warn(why: str) -> None:
    warnings.warn(f"fiveup: building pure Python ({why})", stacklevel=1)


def native_extensions() -> list[Any]:
    """The compiled modules' extensions, or none (pure Python) with a warning why."""
    if os.environ.get("FIVEUP_NATIVE", "1") == "0":
        return []
    if "editable_wheel" in sys.argv or not _BUILDING.intersection(sys.argv):
        return []  # an editable install stays pure; metadata needs no compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    try:
        # The same C in every environment: no configuration file (pyproject's [tool.mypy]
        # is for checking, not compiling) and no installed package's types (an isolated
        # build environment has none): third-party values are plain objects to the
        # compiled code, checked where they meet a declared type.
        return list(
            mypycify(
                [
                    "--config-file=",
                    "--no-site-packages",
                    "--ignore-missing-imports",
                    *native_sources(),
                ],
                opt_level="3",
                group_name=GROUP,
            )
        )
    except (Exception, SystemExit) as exc:  # a type error or an internal compiler error
        _warn(f"mypyc failed: {exc}")
        return []


class OptionalNative(build_ext):
    """Builds the compiled modules if it can; otherwise leaves the package pure Python
    (the ``.py`` files are in the wheel either way)."""

    def run(self) -> None:
        if self.editable_mode:
            self.extensions = []
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, a compile or link error
            _warn(f"the C compile failed: {exc}")
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions = []

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


setup(ext_modules=native_extensions(), cmdclass={"build_ext": OptionalNative})
