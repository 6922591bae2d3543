"""One delivery's frames: what each recipient class at a table (a seat, or the
spectators) is sent for a run of consecutive committed events.

Every event becomes one ``event`` frame with the event as that recipient may see it
(:func:`~app.realtime.frames.project_stored_event`). The last frame of the run also
carries the patch of the recipient's view (``view_patch``, or the whole ``view`` when
there is nothing to patch from, or ``view: null`` when the match is gone) and the
table info's patch (``table_patch``), to the state after the run (docs/protocol.md,
Event frames). Each text is encoded once per recipient class, whatever the number of
sockets of that class.

Pure, and built from a :class:`~app.realtime.projection.Projection` of the committed
state only (never a live match): the hub (:mod:`app.realtime.hub`) says what its
sockets were sent before (a :class:`Sent`) and queues what this builds.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from app.db.rows import EventRecord
from app.realtime.frames import Recipient, encode, project_stored_event
from app.realtime.projection import Projection
from app.realtime.view_patch import ViewPatches, whole
from app.types import Json


@dataclass(slots=True)
class Sent:
    """The views a table's sockets hold: the public fields (one object shared by every
    recipient, ``None`` without a match) and each recipient class's own fields
    (``None``: no view)."""

    public: Json | None = None
    views: dict[Recipient, Json | None] = field(default_factory=dict)

    @classmethod
    def of(cls, projection: Projection, recipients: Collection[Recipient]) -> Sent:
        """What ``recipients`` hold once sent ``projection``."""
        return cls(projection.public, {r: projection.own_fields(r) for r in recipients})


def event_texts(
    events: Sequence[EventRecord],
    recipients: Collection[Recipient],
    projection: Projection,
    sent: Sent,
    table_patch: Json | None,
) -> tuple[dict[Recipient, list[bytes]], Sent]:
    """Each recipient's encoded event frames for ``events``, and the views they hold
    after them. ``sent``: the views they held before (a recipient missing from it gets
    its whole view)."""
    after = Sent.of(projection, recipients)
    public, owns = after.public, after.views
    old_public = sent.public
    patches = (
        ViewPatches(old_public, public) if old_public is not None and public is not None else None
    )
    last = events[-1]
    earlier = events[:-1]
    texts: dict[Recipient, list[bytes]] = {}
    for r in recipients:
        frames = [
            encode({"type": "event", "seq": e.seq, "event": project_stored_event(e.payload, r)})
            for e in earlier
        ]
        frame: Json = {
            "type": "event",
            "seq": last.seq,
            "event": project_stored_event(last.payload, r),
        }
        _add_view(frame, patches, public, sent.views.get(r, _NONE), owns[r])
        if table_patch is not None:
            frame["table_patch"] = table_patch
        frames.append(encode(frame))
        texts[r] = frames
    return texts, after


def _add_view(
    frame: Json,
    patches: ViewPatches | None,
    public: Json | None,
    old_own: object,
    own: Json | None,
) -> None:
    """The recipient's view in the last event frame of a delivery: its patch, the whole
    view (none sent to patch from), or ``null`` (no match any more)."""
    if public is None or own is None:
        if old_own is not None:
            frame["view"] = None
    elif patches is None or not isinstance(old_own, dict):
        frame["view"] = whole(public, own)  # nothing to patch from: the whole view
    else:
        patch = patches.patch(old_own, own)
        if patch is not None:
            frame["view_patch"] = patch


_NONE = object()  # a recipient class with no view sent yet
