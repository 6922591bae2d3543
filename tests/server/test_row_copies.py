"""The writer's copies of a table and its players (what delivery receives with each
commit, app/tables/writer.py) carry every column, as ``copy.copy`` would."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from app.db.rows import PlayerState, TableState


@pytest.mark.parametrize("row_class", [TableState, PlayerState])
def test_a_rows_copy_carries_every_field_and_is_another_object(row_class: Any) -> None:
    values = {f.name: object() for f in dataclasses.fields(row_class)}  # one of a kind each
    row = row_class(**values)
    copied = row.copied()
    assert copied is not row and type(copied) is row_class
    for name, value in values.items():
        assert getattr(copied, name) is value, name
    assert copied == copy.copy(row)
    copied.id = object()  # changing the copy leaves the row as it was
    assert row.id is values["id"]
