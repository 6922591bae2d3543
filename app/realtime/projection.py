"""What every recipient may see of one committed state: a :class:`Projection`.

Delivery works from projections only, never from a live :class:`~app.engine.Match`: the
writer projects its commit at the commit (:class:`~app.tables.writer.Writer`, under its
table's lock, before the next change can be decided), the hub projects what it reads
from the database (catch-ups, snapshots). A projection is immutable by contract (not
frozen: see :mod:`app.realtime.committed`): every dict in it has been sent, or will be,
as it is; nobody edits it.

The engine keeps no cache. A :class:`Projector` keeps the last projection of each table
it made, keyed by table and seq, and builds the next state's on it when it is a later
state of the same round of the same match (the table's match number and the round
number say so): a round's log and layout only grow, so their entries are built once
and shared by successive projections (a patch between two compares them by identity).

>>> import random
>>> from app.engine import Match, view_for
>>> m = Match.new(2, random.Random(4))
>>> projector = Projector()
>>> first = projector.project(7, 3, 1, m)
>>> _ = m.play(m.turn, m.legal_moves(m.turn)[0])
>>> second = projector.project(7, 4, 1, m)
>>> second.view(0, describe=True) == view_for(m, 0), second.summary.round_number
(True, 1)
>>> projector.project(7, 4, 1, m) is second  # the same seq: the same projection
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engine import Match
from app.engine.describe import describe_laid
from app.engine.views import OwnView, own_view, public_fields
from app.realtime.frames import Recipient
from app.realtime.table_info import MatchSummary, summary_of
from app.types import Json

#: projections remembered (one per table; least recently projected dropped first)
PROJECTOR_TABLES_MAX = 5000


@dataclass(slots=True)
class Projection:
    """Every recipient's view fields of one committed state of a table, at ``seq``.

    ``public``: the fields every view shares (``None`` without a match); ``own``: each
    seat's own fields, the spectators' (``None``) included; ``summary``: what the table
    info shows of the match."""

    seq: int
    match_number: int
    public: Json | None
    own: Mapping[Recipient, OwnView]
    summary: MatchSummary | None

    def own_fields(self, recipient: Recipient) -> Json | None:
        """A recipient's own view fields (``None``: no match, so no view)."""
        if self.public is None:
            return None
        own = self.own.get(recipient)
        return own.fields if own is not None else {}

    def view(self, recipient: Recipient, *, describe: bool = True) -> Json | None:
        """The whole view of ``recipient`` (``view_for``'s), with the layout
        descriptions unless ``describe=False`` (``None`` without a match)."""
        if self.public is None:
            return None
        view = dict(self.public)
        if describe:
            laid: Json = self.public["layout"]
            view["description"] = describe_laid(laid)
            view["description_uk"] = describe_laid(laid, "uk")
        view.update(self.own_fields(recipient) or {})
        return view


NO_MATCH_OWN: Mapping[Recipient, OwnView] = {}


class Projector:
    """Projects committed states, each built on the table's last projection here."""

    def __init__(self, tables_max: int = PROJECTOR_TABLES_MAX) -> None:
        self._last: dict[int, Projection] = {}
        self._tables_max = tables_max

    def project(
        self, table_id: int, seq: int, match_number: int, match: Match | None
    ) -> Projection:
        """The projection of ``match``, the committed state of table ``table_id`` at
        ``seq`` in its match ``match_number``. Called while that state is the match's
        (the writer under its lock; the hub on a match it read): the projection keeps
        nothing of the match."""
        last = self._last.pop(table_id, None)
        if last is not None and last.seq == seq and last.match_number == match_number:
            self._last[table_id] = last
            return last
        if match is None:
            made = Projection(seq, match_number, None, NO_MATCH_OWN, None)
        else:
            earlier = (
                last
                if last is not None
                and last.seq < seq
                and last.match_number == match_number
                and last.summary is not None
                and last.summary.round_number == match.round_number
                else None
            )
            public = public_fields(match, earlier.public if earlier is not None else None)
            own: dict[Recipient, OwnView] = {}
            for seat in range(match.players):
                before = earlier.own.get(seat) if earlier is not None else None
                own[seat] = own_view(match, seat, public, before)
            own[None] = OwnView({}, 0)
            made = Projection(seq, match_number, public, own, summary_of(match))
        self._last[table_id] = made
        if len(self._last) > self._tables_max:
            del self._last[next(iter(self._last))]
        return made

    def forget(self, table_id: int) -> None:
        """Drop the table's last projection (its sockets are gone)."""
        self._last.pop(table_id, None)
