"""``SeatView``: the only input of a computer player — one seat's projection, typed.

A :class:`SeatView` is built from the dict :func:`app.engine.view_for` returns for a
seat, and from nothing else: the same projection a person's client is sent (R5: no
other hand, no stock order, no drawn tile but the seat's own). It is frozen; the bots
take it and a random source, so they cannot see what the seat cannot see.

>>> import random
>>> from app.engine import Match, view_for
>>> m = Match.new(2, random.Random(5))
>>> v = SeatView.from_view(view_for(m, m.turn))
>>> v.you == m.turn, len(v.hand), v.stock, v.hand_sizes, v.my_turn
(True, 5, 18, (5, 5), True)
>>> all(entry.kind == "open" for entry in v.legal)
True
>>> SeatView.from_view(view_for(m, None))
Traceback (most recent call last):
...
ValueError: a spectator's view has no hand: a computer player needs a seat's view
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class LegalEntry:
    """One legal move of the view: its notation, kind, tile, place and raw points (R15)."""

    move: str
    kind: str
    tile: str | None
    place: str | None
    points: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move of the current round as the seat saw it (``drawn`` only for its own draws)."""

    seat: int
    kind: str
    move: str
    points: int
    drawn: str | None
    must_play: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know (R5): the public state, its own hand, its legal moves.

    ``layout`` lists the laid tiles in order as move notation (``"1|4"`` for the opening,
    ``"4|4@1|4:high"`` for a joined tile); ``log`` is the current round's moves.
    ``scores`` are displayed points per side, ``sides`` the seats of each side (R2).
    """

    players: int
    you: int
    turn: int | None
    starter: int
    round: int
    target: int
    scores: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    must_play: str | None
    legal: tuple[LegalEntry, ...]
    layout: tuple[str, ...]
    log: tuple[LogEntry, ...]

    @property
    def my_turn(self) -> bool:
        """Whether the seat is to move and has a legal move."""
        return self.turn == self.you and bool(self.legal)

    @property
    def side(self) -> int:
        """The index of this seat's side (R2)."""
        return next(i for i, seats in enumerate(self.sides) if self.you in seats)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> SeatView:
        """Read an engine projection (``view_for(match, seat)``). Raises ``ValueError``
        for a spectator's view or one that does not have the expected shape."""
        if view.get("hand") is None or view.get("you") is None:
            raise ValueError(
                "a spectator's view has no hand: a computer player needs a seat's view"
            )
        try:
            layout = tuple(
                str(t["tile"]) if t["at"] is None else f"{t['tile']}@{t['at']}"
                for t in view["layout"]["tiles"]
            )
            log = tuple(
                LogEntry(
                    seat=int(e["seat"]),
                    kind=str(e["kind"]),
                    move=str(e["move"]),
                    points=int(e.get("points") or 0),
                    drawn=None if e.get("drawn") is None else str(e["drawn"]),
                    must_play=bool(e.get("must_play")),
                )
                for e in view["log"]
            )
            legal = tuple(
                LegalEntry(
                    move=str(e["move"]),
                    kind=str(e["kind"]),
                    tile=None if e.get("tile") is None else str(e["tile"]),
                    place=None if e.get("place") is None else str(e["place"]),
                    points=int(e.get("points") or 0),
                )
                for e in view["legal"]
            )
            return cls(
                players=int(view["players"]),
                you=int(view["you"]),
                turn=None if view["turn"] is None else int(view["turn"]),
                starter=int(view["starter"]),
                round=int(view["round"]),
                target=int(view["target"]),
                scores=tuple(int(s) for s in view["scores"]),
                sides=tuple(tuple(int(s) for s in side) for side in view["sides"]),
                hand=tuple(str(t) for t in view["hand"]),
                hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
                stock=int(view["stock"]),
                must_play=None if view["must_play"] is None else str(view["must_play"]),
                legal=legal,
                layout=layout,
                log=log,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a seat view: {exc!r}") from exc


__all__ = ["LegalEntry", "LogEntry", "SeatView"]
