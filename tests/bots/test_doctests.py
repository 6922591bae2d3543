"""The examples in the bots' docstrings run (pytest's doctest collection covers only
``tests`` and ``app/engine``, see pyproject), and so do the arena's."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import pytest

#: the checkout, for bench/ (which is not installed): at the END of sys.path, so that the
#: installed app — the compiled build in ./scripts/test's second run — still comes first
REPO = str(Path(__file__).resolve().parents[2])
if REPO not in sys.path:
    sys.path.append(REPO)

MODULES = [
    "app.bots",
    "app.bots.view",
    "app.bots.knowledge",
    "app.bots.heuristic",
    "app.bots.search",
    "bench.arena",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
