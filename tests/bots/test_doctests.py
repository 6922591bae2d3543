"""The examples in the bots' docstrings run (pytest's doctest collection covers only
``tests`` and ``app/engine``, see pyproject), and so do the arena's."""

from __future__ import annotations

import doctest
import importlib

import pytest

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
