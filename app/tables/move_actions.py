"""The service's moves: a person's (:meth:`MoveActions.act`), a computer player's and
the autopilot's, all on one path — shape check, the engine's decision on the state as
it is (:mod:`app.tables.play`), the autopilot taken back by its player's own move, and a
retry answered from the committed row (same ``move_id``: ``duplicate``; another move under
it: ``move_id_reused``). A part of :class:`app.tables.service.TableService`; the
writer commits each move.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core import metrics
from app.db.rows import PlayerState, PriorMove
from app.db.store import Store, Unavailable
from app.tables import autopilot, devices, play
from app.tables.actions import TableActions
from app.tables.autopilot import AutopilotRules
from app.tables.change import TableChange
from app.tables.chat import CHAT_KINDS
from app.tables.errors import TableError, unauthorized, unavailable
from app.tables.play import MoveRequest, MoveResult
from app.tables.writer import Writer


class MoveActions:
    """Moves: a person's, a computer player's and the autopilot's, each one change of
    the writer's; the service's steps after a commit follow (``actions``)."""

    def __init__(
        self, store: Store, writer: Writer, autopilot: AutopilotRules, actions: TableActions
    ) -> None:
        self.store = store
        self.writer = writer
        self.autopilot = autopilot
        self.actions = actions

    # -- play --------------------------------------------------------------------------
    @metrics.counts_move("person")
    async def act(
        self,
        table_id: int,
        token: str | None,
        move: object,
        move_id: object = None,
        seq: object = None,
    ) -> MoveResult:
        """Play ``move`` for the token's seat, checked by the engine against stored state.

        ``seq``, if given, must be the table's current seq (else ``stale``). A ``move_id``
        already committed on this table answers with its original seq (``duplicate``)
        when it names the same move by the same seat, else ``move_id_reused``.
        """
        req = MoveRequest.parse(move, move_id, seq)
        return await self._act(table_id, lambda tx: tx.authenticate(token), req, person=True)

    @metrics.counts_move("bot")
    async def play_bot(self, table_id: int, seat: int, move: str, move_id: str, seq: int) -> None:
        """A computer player's move (app/tables/bot_turns.py): exactly the path of
        :meth:`act`, for the bot in ``seat`` instead of a token's seat."""

        def the_bot(tx: TableChange) -> PlayerState:
            player = tx.player_at(seat)
            if player is None or player.bot is None:
                raise unauthorized()
            return player

        await self._act(table_id, the_bot, MoveRequest.parse(move, move_id, seq))

    @metrics.counts_move("autopilot")
    async def play_autopilot(
        self, table_id: int, seat: int, move: str, move_id: str, seq: int
    ) -> None:
        """The autopilot's move for the person in ``seat`` (app/tables/autopilot.py):
        the path of :meth:`act`, refused (``not_due``) unless the autopilot is due for
        that seat now; the event says ``"autopilot": true``."""

        def the_absent(tx: TableChange) -> PlayerState:
            player = tx.player_at(seat)
            if player is None or player.bot is not None:
                raise unauthorized()
            if self.autopilot.wait(tx) != 0.0:
                raise TableError("not_due", "the autopilot is not due for this seat", 409)
            return player

        await self._act(
            table_id, the_absent, MoveRequest.parse(move, move_id, seq), by_autopilot=True
        )

    async def _act(
        self,
        table_id: int,
        who: Callable[[TableChange], PlayerState],
        req: MoveRequest,
        *,
        by_autopilot: bool = False,
        person: bool = False,
    ) -> MoveResult:
        player_seat: list[int] = []

        async def decide(tx: TableChange) -> MoveResult:
            player = who(tx)
            player_seat.append(player.seat)
            move = req
            if (
                req.seq is not None
                and req.seq < tx.table.seq
                and await self._only_chat_since(table_id, req.seq, tx.table.seq)
            ):
                move = MoveRequest(req.move, req.move_id, tx.table.seq)
            if person and player.bot is None:  # their own move: they are back
                at = tx.table.seq
                autopilot.take_back(tx, player)
                if move.seq == at:
                    move = MoveRequest(move.move, move.move_id, tx.table.seq)
            try:
                result = play.play(tx, player, move, autopilot=by_autopilot)
            except TableError:
                # a retry of a committed move fails the checks now (stale, not your
                # turn, ...): answer it from the committed row. A retry that would still
                # be legal is stopped by the unique (table_id, move_id) key below.
                prior = await self._prior(table_id, req.move_id) if req.move_id else None
                if prior is None:
                    raise
                return self._retry_answer(prior, player.seat, req)
            if by_autopilot:
                autopilot.count_turn(tx, player, self.autopilot.handover_moves)
            self.actions.after_settled(tx, at_once=by_autopilot)
            return result

        try:
            result, tx = await self.writer.change(table_id, decide)
        except TableError as err:
            if err.code == "conflict" and req.move_id is not None and player_seat:
                prior = await self._prior(table_id, req.move_id)
                if prior is not None:
                    return self._retry_answer(prior, player_seat[-1], req)
            raise
        if not result.duplicate:
            self.actions.schedule_deal(tx)
            self.actions.committed(tx)
        return result

    async def _prior(self, table_id: int, move_id: str) -> PriorMove | None:
        try:
            return await self.store.prior_move(table_id, move_id)
        except Unavailable:
            raise unavailable() from None

    @staticmethod
    def _retry_answer(prior: PriorMove, seat: int, req: MoveRequest) -> MoveResult:
        if not play.same_move(prior, seat, req.move):
            raise TableError(
                "move_id_reused",
                "this move_id was already used for another move; use a new one",
                409,
            )
        return MoveResult(prior.seq, duplicate=True)

    async def _only_chat_since(self, table_id: int, since: int, upto: int) -> bool:
        """Whether every event after ``since`` (up to ``upto``) is chat (or a device link
        made): a move made at ``since`` is then not ``stale`` (they change nothing a move
        is decided on)."""
        if upto - since > 50:
            return False
        try:
            cu = await self.store.catchup(table_id, since, 50)
        except Unavailable:
            raise unavailable() from None
        events = [e for e in (cu.events if cu else []) if e.seq <= upto]
        neutral = CHAT_KINDS | devices.NEUTRAL_KINDS
        return len(events) == upto - since and all(e.kind in neutral for e in events)
