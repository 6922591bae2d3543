"""Patches between two versions of a JSON object a client holds (its view, the table
info): what an event frame carries instead of the whole object.

A patch is ``{"set": {path: value}, "append": {path: [items]}}`` with dotted paths into
the object; the client replaces each ``set`` path, then extends each ``append`` list. A
list that only grew at its end (the round's log, the layout's tiles) is appended to; any
other change replaces the value. Nested objects listed in ``nested`` are compared one
level deeper, so a change inside them sends only what changed.

>>> old = {"turn": 0, "log": [1], "layout": {"tiles": ["a"], "sum": 5}}
>>> new = {"turn": 1, "log": [1, 2], "layout": {"tiles": ["a", "b"], "sum": 5}}
>>> diff(old, new, nested=("layout",))
{'set': {'turn': 1}, 'append': {'log': [2], 'layout.tiles': ['b']}}
>>> apply(old, diff(old, new, nested=("layout",))) == new
True
>>> diff(new, new) is None
True
"""

from __future__ import annotations

import copy
from typing import Any

from app.types import Json


def diff(
    old: Json, new: Json, *, nested: tuple[str, ...] = (), skip: tuple[str, ...] = ()
) -> Json | None:
    """The patch that turns ``old`` into ``new`` (None when they are equal), leaving out
    the top-level keys in ``skip``."""
    sets: Json = {}
    appends: dict[str, list[Any]] = {}
    _diff(old, new, "", nested, sets, appends, skip)
    if not sets and not appends:
        return None
    out: Json = {}
    if sets:
        out["set"] = sets
    if appends:
        out["append"] = appends
    return out


def _diff(
    old: Json,
    new: Json,
    prefix: str,
    nested: tuple[str, ...],
    sets: Json,
    appends: dict[str, list[Any]],
    skip: tuple[str, ...] = (),
) -> None:
    missing = 0  # keys of new that old lacks
    for key, value in new.items():
        if key in skip:
            missing += key not in old
            continue
        before = old.get(key, _MISSING)
        if before is value or before == value:
            continue
        if before is _MISSING:
            missing += 1
        path = prefix + key
        if key in nested and isinstance(before, dict) and isinstance(value, dict):
            _diff(before, value, path + ".", (), sets, appends)
        elif (
            isinstance(before, list)
            and isinstance(value, list)
            and len(value) > len(before)
            and value[: len(before)] == before
        ):
            appends[path] = value[len(before) :]
        else:
            sets[path] = value
    if len(old) > len(new) - missing:  # (counted without a set: this runs per recipient)
        for key in old.keys() - new.keys():
            if key not in skip:
                sets[prefix + key] = None


def apply(obj: Json, patch: Json | None) -> Json:
    """``obj`` with ``patch`` applied (a new object; what a client does)."""
    out = copy.deepcopy(obj)
    if not patch:
        return out
    for path, value in patch.get("set", {}).items():
        target, key = _walk(out, path)
        target[key] = copy.deepcopy(value)
    for path, items in patch.get("append", {}).items():
        target, key = _walk(out, path)
        target[key] = [*target[key], *copy.deepcopy(items)]
    return out


def _walk(obj: Json, path: str) -> tuple[Json, str]:
    *parents, key = path.split(".")
    for p in parents:
        obj = obj[p]
    return obj, key


class _Missing:
    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


_MISSING = _Missing()
