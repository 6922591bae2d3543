"""Every recipient's view patch for one delivery, from ONE comparison of the part of the
views that all recipients share.

A recipient's view is the engine's public fields (:func:`~app.engine.views.public_fields`,
the same for every recipient, descriptions left out on the wire) updated with its own
fields (:func:`~app.engine.views.own_fields`: a seat's hand, ``must_play``, legal moves,
and the log when it shows the seat's own draws). The patch between two states is the
public patch, computed once, with the recipient's own keys compared on their own in
place of the public ones: exactly :func:`app.realtime.patch.diff` of the two whole views,
for a fraction of the work per recipient.

>>> old_pub = {"turn": 0, "hand": None, "log": [1]}
>>> new_pub = {"turn": 1, "hand": None, "log": [1, 2]}
>>> views = ViewPatches(old_pub, new_pub)
>>> views.patch({}, {})
{'set': {'turn': 1}, 'append': {'log': [2]}}
>>> views.patch({"hand": ["a", "b"]}, {"hand": ["b"]})
{'set': {'turn': 1, 'hand': ['b']}, 'append': {'log': [2]}}
>>> whole(new_pub, {"hand": ["b"]}) == {"turn": 1, "hand": ["b"], "log": [1, 2]}
True
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from app.realtime.frames import DESCRIPTION_FIELDS, NESTED_VIEW_FIELDS
from app.realtime.patch import diff
from app.types import Json


def whole(public: Json, own: Json) -> Json:
    """A recipient's whole wire view: the public fields (no descriptions) and its own."""
    view = {k: v for k, v in public.items() if k not in DESCRIPTION_FIELDS}
    view.update(own)
    return view


class ViewPatches:
    """The public patch between two states, and each recipient's patch from it."""

    def __init__(self, old_public: Json, new_public: Json) -> None:
        self.old_public = old_public
        self.new_public = new_public
        public = diff(old_public, new_public, nested=NESTED_VIEW_FIELDS, skip=DESCRIPTION_FIELDS)
        self.public = public
        self.sets: Json = public.get("set", {}) if public else {}
        self.appends: dict[str, list[Any]] = public.get("append", {}) if public else {}

    def patch(self, old_own: Json, new_own: Json) -> Json | None:
        """The patch of one recipient's view, given its own fields in both states."""
        if not old_own and not new_own:
            return self.public  # a spectator's view is the public one
        keys: AbstractSet[str]
        if old_own.keys() == new_own.keys():
            keys = new_own.keys()  # (the usual case: each key's value is the own one)
            own = diff(old_own, new_own)
        else:
            keys = old_own.keys() | new_own.keys()
            own = diff(
                {k: old_own.get(k, self.old_public.get(k)) for k in keys},
                {k: new_own.get(k, self.new_public.get(k)) for k in keys},
            )
        # the public changes, less those of the keys the recipient has its own of
        sets, appends = self.sets, self.appends
        if not keys.isdisjoint(sets):
            sets = {p: v for p, v in sets.items() if p not in keys}
        if not keys.isdisjoint(appends):
            appends = {p: v for p, v in appends.items() if p not in keys}
        if own is not None:
            if "set" in own:
                sets = {**sets, **own["set"]}
            if "append" in own:
                appends = {**appends, **own["append"]}
        out: Json = {}
        if sets:
            out["set"] = sets
        if appends:
            out["append"] = appends
        return out or None
