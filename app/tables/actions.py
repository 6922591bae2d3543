"""The steps the table service's parts share: :class:`TableActions`.

:class:`~app.tables.service.TableService` is made of parts that each take what they
need at construction — its reads (:mod:`app.tables.reads`), the moves
(:mod:`app.tables.move_actions`), the seat actions (:mod:`app.tables.seat_actions`),
the timed actions (:mod:`app.tables.timed_actions`), the computer players' turns
(:mod:`app.tables.bot_turns`). A commit schedules work that makes another commit (a
settled round its countdown's deal, a move the computer player's reply), so the parts
that run or follow a change are given the service itself, typed as this protocol: the
one write path for table actions and the steps after a commit, nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.tables.change import TableChange


class TableActions(Protocol):
    """What a part of the service may ask of the service."""

    async def run(
        self, code_or_id: str | int, decide: Callable[[TableChange], None]
    ) -> TableChange:
        """Decide and commit one table action (not a move) on fresh state, re-decided
        when it loses a version race; the steps after a commit follow."""
        ...

    def after_settled(self, tx: TableChange, *, at_once: bool = False) -> None:
        """Inside a decision: what follows a settled round or any change (an immediate
        deal, the computer players' votes, the turn clock)."""
        ...

    def committed(self, tx: TableChange) -> None:
        """After a commit of this process: its timers and computer players' turns."""
        ...

    def schedule_deal(self, tx: TableChange) -> None:
        """After a commit that settled a round: the countdown to the next deal."""
        ...

    async def advance_round(self, table_id: int, round_number: int) -> None:
        """The countdown's deal of the round after ``round_number``, if still due."""
        ...
