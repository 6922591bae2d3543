"""Bot turns: when a computer player is to move, this process plays its move — after a
human-looking delay, thinking off the event loop, through the same path as a person's
move (:meth:`app.tables.service.TableService.play_bot`, the same decision as ``act``).

- **Scheduling.** After every commit whose seat to move is a bot, the committing process
  schedules that turn (:meth:`BotTurns.after_commit`) with :class:`~.timers.Timers`,
  which retries through database outages. On start-up every table in play is checked
  and its pending bot turn resumed (:meth:`BotTurns.resume`), so a killed process's
  turn is played after a restart.
- **The autopilot** (:mod:`app.tables.autopilot`) plays a person's turn the same way:
  at the stored deadline of a clock table, after the grace period of a disconnected
  seat at a table without one, or after the bots' pause for a seat on autopilot — with
  ``move_id = auto-<seq>``. A timer that finds the autopilot not due yet (the player
  came back and left again) waits again; one whose state moved on does nothing.
- **A pause that tells nothing.** The time from the turn to the move is a target drawn
  from ``FIVEUP_BOT_DELAY_MS``, whatever the position: the bot thinks at once, then
  waits ``target - thinking`` (:func:`pause_after`, at least 0), so a turn with a single
  legal move waits the whole target and one with many is no later (unless its thinking
  alone takes longer than the target). Each turn's target, thinking and pause are kept
  in :attr:`BotTurns.turn_times` (never sent or logged).
- **Nobody at the table, nobody plays.** A table whose persons have all had no socket on
  any process for the grace (``AutopilotRules.stopped``) gets no bot or autopilot turn:
  one found due is dropped, and planned again when a person's socket opens
  (``TableService.presence_changed``). Computer players are not persons.
- **Exactly once.** A turn is named by the table's seq when it became due: the move is
  sent with ``seq`` (a move against an older state is ``stale``) and ``move_id =
  bot-<seq>`` or ``auto-<seq>`` (unique per table in the database). However many processes try the same
  turn, one commits; the others are refused and do nothing.
- **Only the projection.** The bot sees ``view_for(match, seat)`` as a
  :class:`~app.bots.SeatView`, nothing else (docs/bots.md).
- **Off the loop, degrading first.** ``medium`` and ``hard`` think in a process pool
  (``FIVEUP_BOT_POOL`` workers); ``hard`` gets ``FIVEUP_BOT_HARD_BUDGET_MS``, shrunk in
  proportion when more hard turns wait than there are workers (never below
  :data:`MIN_HARD_BUDGET_MS`): under load bots play weaker, people's moves are never
  delayed by them.

>>> delay_range("600-1200"), delay_range("0"), delay_range("250")
((600, 1200), (0, 0), (250, 250))
>>> pause_after(0.9, thinking=0.2), pause_after(0.9, thinking=1.5), pause_after(0.9, 0.0)
(0.7, 0.0, 0.9)
>>> shrunk_budget(300, pool=1, waiting=1), shrunk_budget(300, pool=1, waiting=3)
(300.0, 100.0)
>>> shrunk_budget(300, pool=2, waiting=100), shrunk_budget(0, pool=1, waiting=9)
(10.0, 0.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass

from app.bots import Level, SeatView, choose_move
from app.core import metrics
from app.engine import view_for
from app.tables.autopilot import AutopilotRules
from app.tables.bot_seats import bot_to_move, level_of
from app.tables.change import TableChange
from app.tables.errors import TableError
from app.tables.timers import Timers

log = logging.getLogger(__name__)

#: the least budget a loaded server gives ``hard`` (one determinisation at least)
MIN_HARD_BUDGET_MS = 10.0
#: refusals that mean the turn was played already (here or by another process)
TURN_GONE = frozenset(
    {
        *("stale", "not_your_turn", "move_id_reused", "round_over", "match_over"),
        *("not_started", "unauthorized", "not_due", "table_closed"),
    }
)


def delay_range(text: str) -> tuple[int, int]:
    """``FIVEUP_BOT_DELAY_MS``: ``"lo-hi"`` (uniform) or one number, in milliseconds."""
    lo, _, hi = text.partition("-")
    a, b = int(lo), int(hi or lo)
    return (min(a, b), max(a, b))


def pause_after(target: float, thinking: float) -> float:
    """The pause (seconds) between a bot's thinking and its move so that the turn takes
    ``target`` seconds from the moment it was due: ``target - thinking``, at least 0 —
    the same total whether the bot had one legal move or many."""
    return round(max(0.0, target - thinking), 9)


def shrunk_budget(base_ms: float, *, pool: int, waiting: int) -> float:
    """``hard``'s budget with ``waiting`` hard turns queued or thinking on ``pool``
    workers: the base while each has a worker, else shared out (never under the floor)."""
    if base_ms <= 0:
        return 0.0
    return float(max(MIN_HARD_BUDGET_MS, base_ms * pool / max(pool, waiting)))


@dataclass(frozen=True, slots=True)
class BotSettings:
    """The bot settings of app/core/settings.py (docs/configuration.md)."""

    delay_ms: tuple[int, int] = (0, 0)
    hard_budget_ms: float = 0.0
    pool: int = 1


@dataclass(frozen=True, slots=True)
class TurnTime:
    """One bot or autopilot turn played after the bots' pause: the target (seconds from
    the turn to the move, drawn from the delay range), the thinking time, the pause that
    followed it, and how many legal moves the seat had."""

    target: float
    thinking: float
    pause: float
    choices: int


def think(level: Level, view: SeatView, seed: int, budget_ms: float) -> str:
    """A bot's choice (run in a worker process): ``choose_move`` on the seat's view."""
    return choose_move(level, view, random.Random(seed), budget_ms=budget_ms)


def _exit_with_parent(parent: int) -> None:
    """Pool worker initializer: exit when the server process ``parent`` is gone (even
    SIGKILLed, even before this worker finished starting)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


Load = Callable[[int], Awaitable[TableChange]]
Play = Callable[[int, int, str, str, int], Awaitable[object]]


class BotTurns:
    """This process's pending bot turns and the pool they think in."""

    def __init__(
        self,
        timers: Timers,
        settings: BotSettings,
        load: Load,
        play: Play,
        rng: random.Random,
        *,
        rules: AutopilotRules | None = None,
        play_auto: Play | None = None,
    ) -> None:
        self.timers = timers
        self.settings = settings
        self._load = load
        self._play = play
        self._rng = rng
        #: the autopilot's rules and its move path (None: no autopilot)
        self.rules = rules
        self._play_auto = play_auto
        self._pending: set[tuple[int, int]] = set()
        self._hard_waiting = 0
        self._pool: Executor | None = None
        #: the budgets the latest hard turns were given (for logs, benchmarks, tests)
        self.hard_budgets: deque[float] = deque(maxlen=256)
        #: the latest turns' target, thinking and pause (for tests and benchmarks)
        self.turn_times: deque[TurnTime] = deque(maxlen=1024)

    def after_commit(self, tx: TableChange) -> None:
        """Schedule the bot's turn if a bot is to move after this commit (and start the
        pool when a thinking bot sits down, so its first turn does not wait for it)."""
        if not tx.events:
            return
        if self._pool is None and any(p.bot in ("medium", "hard") for p in tx.players):
            self._executor().submit(int)  # spawn the workers now, off the first turn
        self.plan(tx)

    def plan(self, tx: TableChange) -> bool:
        """Schedule the turn due in this state, if a bot or the autopilot is to play it
        and a person is at the table (or left it less than the grace ago)."""
        if bot_to_move(tx) is not None:
            if self._stopped(tx):
                return False
            self.schedule(tx.table.id, tx.table.seq)
            return True
        wait = self.rules.wait(tx) if self.rules is not None else None
        if wait is None or self._stopped(tx):
            return False
        # due now (on autopilot, a draw of its own, a grace long gone): after the bots'
        # pause, so people can follow; else at the deadline
        self.schedule(tx.table.id, tx.table.seq, wait if wait > 0 else None)
        return True

    def schedule(self, table_id: int, seq: int, delay: float | None = None) -> None:
        """Play the turn due at ``seq`` after ``delay`` seconds, once per process. With
        ``delay`` None the bots' pause: the bot thinks at once and its move is played a
        target drawn from the delay range after the turn (:func:`pause_after`)."""
        if (table_id, seq) in self._pending:
            return
        self._pending.add((table_id, seq))
        target: float | None = None
        if delay is None:
            target, delay = self.draw_target(), 0.0
        self.timers.at(
            delay,
            lambda: self._take_turn(table_id, seq, target),
            f"table {table_id}: turn at {seq}",
        )

    def draw_target(self) -> float:
        """Seconds from a turn to its move: uniform in ``FIVEUP_BOT_DELAY_MS``."""
        lo, hi = self.settings.delay_ms
        return self._rng.uniform(lo, hi) / 1000 if hi > 0 else 0.0

    def _stopped(self, tx: TableChange) -> bool:
        return self.rules is not None and self.rules.stopped(tx)

    def resume(self, tables: list[TableChange]) -> int:
        """After a (re)start: schedule every pending bot or autopilot turn of these
        tables (a deadline passed while no process ran is due at once)."""
        return sum(1 for tx in tables if self.plan(tx))

    async def _take_turn(self, table_id: int, seq: int, target: float | None) -> None:
        again: float | None = None
        began = time.monotonic()
        try:
            tx = await self._load(table_id)
            if tx.table.seq != seq or tx.match is None:
                return  # played already, here or elsewhere
            if self._stopped(tx):
                log.debug("table %s: no person here; the turn at %s waits for one", table_id, seq)
                return
            bot = bot_to_move(tx)
            if bot is not None:
                seat, level, move_id, play = bot.seat, level_of(bot.bot), f"bot-{seq}", self._play
            else:
                wait = self.rules.wait(tx) if self.rules is not None else None
                if wait is None or tx.match.turn is None or self._play_auto is None:
                    return  # nobody to play for (the player came back)
                if wait > 0:
                    again = wait  # not due yet (a later absence, another process's clock)
                    return
                assert self.rules is not None
                seat, level, move_id = tx.match.turn, self.rules.level, f"auto-{seq}"
                play = self._play_auto
            view = SeatView.from_view(view_for(tx.match, seat))
            try:
                move = await self._choose(level, view)
            except Exception as exc:  # a broken pool, a bug in a bot: never stall a table
                log.error("table %s: bot failed to think (%r); it plays at random", table_id, exc)
                self.close()  # a fresh pool next time
                move = think("easy", view, self._rng.getrandbits(64), 0)
            if target is not None:
                thinking = time.monotonic() - began
                pause = pause_after(target, thinking)
                self.turn_times.append(TurnTime(target, thinking, pause, len(view.legal)))
                await asyncio.sleep(pause)
            try:
                await play(table_id, seat, move, move_id, seq)
            except TableError as err:
                if err.code not in TURN_GONE:
                    raise
                log.debug("table %s: turn at %s already played (%s)", table_id, seq, err.code)
        finally:
            self._pending.discard((table_id, seq))
            if again is not None:
                self.schedule(table_id, seq, again)

    @metrics.times_decision
    async def _choose(self, level: Level, view: SeatView) -> str:
        seed = self._rng.getrandbits(64)
        if level == "easy":  # a random choice: nothing to take off the loop
            return think(level, view, seed, 0)
        hard = level == "hard"
        if hard:
            self._hard_waiting += 1
        try:
            budget = shrunk_budget(
                self.settings.hard_budget_ms, pool=self.settings.pool, waiting=self._hard_waiting
            )
            if hard:
                self.hard_budgets.append(budget)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor(), think, level, view, seed, budget)
        finally:
            if hard:
                self._hard_waiting -= 1

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.settings.pool,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Let go of the pool without waiting for it (a broken pool: a fresh one next
        time; its workers end on their own)."""
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def shutdown(self) -> None:
        """Stop the pool at server shutdown and wait, off the loop, for its workers to
        end (a hard turn being thought finishes within its budget; queued ones are
        cancelled and resume at the next start). Waiting matters: the pool's queues
        hold named semaphores, released when the pool is gone; uvicorn ends the process
        by raising SIGTERM again, which skips multiprocessing's exit handlers, and a
        pool left running would leave them to the resource tracker, which then writes
        a warning that is not a log line (tests/server/test_bot_pool_shutdown.py)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
