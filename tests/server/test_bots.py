"""Computer players at a table (service level, both backends): the host seats, changes
and removes bots before the start (docs/protocol.md), bots vote by themselves, and a
bot's move goes through the person's path exactly once (docs/bots.md, "In the server")."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.bots import SeatView, choose_move
from app.core.settings import Settings
from app.engine import view_for
from app.main import make_store
from app.tables.bot_turns import BotSettings
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import SetPresence, current_match


async def _code_and_id(svc: TableService, players: int = 4) -> tuple[str, int, str]:
    created = await svc.create("Bots", players, True, "Host")
    return created.code, await svc.table_id(created.code), created.token


async def _refused(coro: object, code: str) -> None:
    with pytest.raises(TableError) as err:
        await coro  # type: ignore[misc]
    assert err.value.code == code, err.value.message


async def test_host_seats_changes_and_removes_a_bot_before_the_start(
    service: TableService,
) -> None:
    code, _, host = await _code_and_id(service)
    info = (await service.put_bot(code, host, 2, "easy")).model_dump()
    assert info["seats"][2]["bot"] == "easy" and info["seats"][2]["name"]
    assert info["seats"][0]["bot"] is None and info["seats"][1]["bot"] is None
    info = (await service.put_bot(code, host, 2, "hard")).model_dump()  # change its level
    assert info["seats"][2]["bot"] == "hard"
    again = (await service.info(code)).model_dump()  # as stored
    assert again["seats"][2]["bot"] == "hard"
    info = (await service.remove_bot(code, host, 2)).model_dump()
    assert info["seats"][2]["name"] is None and info["seats"][2]["bot"] is None


async def test_bot_seat_errors(service: TableService) -> None:
    code, _, host = await _code_and_id(service, 3)
    guest = (await service.join(code, "Guest", 1)).token
    await _refused(service.put_bot(code, guest, 2, "easy"), "not_host")
    await _refused(service.put_bot(code, host, 1, "easy"), "seat_taken")
    await _refused(service.put_bot(code, host, 2, "expert"), "unknown_level")
    await _refused(service.put_bot(code, host, 3, "easy"), "bad_seat")  # R2: seats 0..2
    await _refused(service.remove_bot(code, host, 1), "bad_seat")  # a person, not a bot
    await _refused(service.remove_bot(code, host, 2), "bad_seat")  # empty
    await _refused(service.put_bot(code, None, 2, "easy"), "unauthorized")
    await service.put_bot(code, host, 2, "medium")
    await _refused(service.remove_bot(code, guest, 2), "not_host")
    await _refused(service.join(code, "Late", 2), "seat_taken")
    await service.start(code, host)
    await _refused(service.put_bot(code, host, 2, "easy"), "already_started")
    await _refused(service.remove_bot(code, host, 2), "already_started")


async def test_nobody_can_act_for_a_bot_and_a_bot_is_never_host(service: TableService) -> None:
    code, table_id, host = await _code_and_id(service, 2)
    await service.put_bot(code, host, 1, "easy")
    loaded = await service.store.load(table_id)
    assert loaded is not None
    bot = next(p for p in loaded[1] if p.seat == 1)
    assert bot.bot == "easy" and bot.token_hash.startswith("bot-")  # no token hashes to it
    await _refused(service.identify(code, bot.token_hash), "unauthorized")
    info = (await service.leave(code, host)).model_dump()  # only a bot left: closed
    assert info["status"] == "closed" and info["host"] is None


async def test_lobby_counts_bot_seats(service: TableService) -> None:
    code, _, host = await _code_and_id(service, 4)
    await service.put_bot(code, host, 1, "easy")
    await service.put_bot(code, host, 3, "hard")
    table_id = await service.table_id(code)
    service.reads.delivery = SetPresence(people=lambda: {table_id})  # the host's page is open
    entry = next(e for e in await service.lobby() if e.code == code)
    assert entry.seats_taken == 3 and entry.bots == 2


async def _until(pred: object, timeout: float = 60) -> None:
    async with asyncio.timeout(timeout):
        while not await pred():  # type: ignore[operator]
            await asyncio.sleep(0.02)


async def test_practice_table_starts_with_bots_that_play_and_vote(service: TableService) -> None:
    """One person and three bots: bots move by themselves; at each settled round the
    bots are ready at once (R21), so only the person's ``next_round`` is awaited; at
    the match's end they vote for a rematch (R24)."""
    svc = TableService(service.store, next_round_seconds=30, bot_settings=BotSettings())
    joined = await svc.practice(4, "medium", "Solo")
    info = joined.table.model_dump()
    assert joined.seat == 0 and info["status"] == "playing" and info["host"] == 0
    assert [s["bot"] for s in info["seats"]] == [None, "medium", "medium", "medium"]
    assert not info["public"]
    table_id = await svc.table_id(joined.code)
    rng = random.Random(3)
    rounds_seen = 0
    while True:

        async def settled_or_mine() -> bool:
            m, t = await current_match(svc, joined.code)
            return m.round_over or m.turn == 0 or t.status != "playing"

        await _until(settled_or_mine)
        m, table = await current_match(svc, joined.code)
        if table.status == "finished":
            assert sorted(table.rematch_votes) == [1, 2, 3]  # the bots voted at once
            break
        if m.round_over:
            rounds_seen += 1
            assert sorted(table.ready) == [1, 2, 3]  # the bots are ready at once
            await svc.ready(table_id, joined.token)
            continue
        view = SeatView.from_view(view_for(m, 0))
        move = choose_move("easy", view, rng)
        await svc.act(table_id, joined.token, move, move_id=f"me-{table.seq}", seq=table.seq)
    await svc.rematch(joined.code, joined.token)
    m, table = await current_match(svc, joined.code)
    assert table.status == "playing" and table.match_number == 2 and rounds_seen >= 1
    await svc.timers.close()
    svc.bot_turns.close()


async def test_two_services_on_one_database_play_a_bot_turn_exactly_once(
    service: TableService, db_url: str
) -> None:
    """Two processes' services try the same bot turn at the same moment: exactly one
    move is committed (the seq check and the unique ``bot-<seq>`` move id)."""
    slow = TableService(  # commits the start; its own turn would come in a minute
        service.store, next_round_seconds=0, bot_settings=BotSettings(delay_ms=(60000, 60000))
    )
    other = TableService(make_store(Settings(database_url=db_url)), next_round_seconds=0)
    for _ in range(40):  # the starter is drawn by lot (R7): until the bot is to move
        code, table_id, host = await _code_and_id(slow, 2)
        await slow.put_bot(code, host, 1, "easy")
        await slow.start(code, host)
        m, table = await current_match(slow, code)
        if m.turn == 1:
            break
    assert m.turn == 1
    await slow.timers.close()
    seq = table.seq
    service.bot_turns.schedule(table_id, seq)
    other.bot_turns.schedule(table_id, seq)
    await _until(_moved_past(service, code, seq))
    await asyncio.sleep(0.5)  # the loser has long finished
    caught = await service.store.catchup(table_id, seq, 100)
    assert caught is not None
    moves = [e for e in caught.events if e.kind == "move" and not e.payload.get("auto")]
    assert [(e.seat, e.move_id) for e in moves] == [(1, f"bot-{seq}")]
    m, _ = await current_match(service, code)
    assert m.turn == 0 or m.round_over  # the person's turn now (R8)
    await other.close()


def _moved_past(svc: TableService, code: str, seq: int) -> object:
    async def pred() -> bool:
        _, table = await current_match(svc, code)
        return table.seq > seq

    return pred


async def test_many_waiting_hard_turns_get_a_smaller_budget(service: TableService) -> None:
    """Under load bots play weaker, not later: with more hard turns waiting than pool
    workers, each is given a share of the budget (docs/bots.md, "In the server")."""
    svc = TableService(
        service.store,
        next_round_seconds=0,
        bot_settings=BotSettings(hard_budget_ms=200, pool=1),
    )
    for _ in range(40):  # a table whose bot starts (R7: by lot): its turn is alone
        first = await svc.practice(2, "hard", "Solo")
        m, _ = await current_match(svc, first.code)
        if m.turn == 1 or svc.bot_turns.hard_budgets:
            break
    await _until(lambda: _bot_thought(svc, 1))
    assert svc.bot_turns.hard_budgets[0] == 200.0  # alone: the whole budget
    # twelve tables whose bots are all to move at once (R7: the starter by lot)
    # (their turns begin together, so a shared budget shows as soon as two of them are
    # waiting: whether the one worker has finished any turn yet does not matter)
    await asyncio.gather(*(svc.practice(4, "hard", f"P{i}") for i in range(12)))
    await _until(lambda: _budget_shared(svc))
    assert min(svc.bot_turns.hard_budgets) < 200.0
    assert min(svc.bot_turns.hard_budgets) >= 10.0  # never under the floor
    assert first.table.status == "playing"
    await svc.timers.close()
    svc.bot_turns.close()


async def _bot_thought(svc: TableService, n: int) -> bool:
    return len(svc.bot_turns.hard_budgets) >= n


async def _budget_shared(svc: TableService) -> bool:
    return min(svc.bot_turns.hard_budgets) < 200.0


async def test_a_killed_pool_worker_never_stalls_a_table(service: TableService) -> None:
    """A bot whose thinking fails (here: its pool worker SIGKILLed) plays a random legal
    move instead, and the next turn gets a fresh pool."""
    import os
    import signal
    from concurrent.futures import ProcessPoolExecutor

    svc = TableService(service.store, next_round_seconds=0, bot_settings=BotSettings(pool=1))
    joined = await svc.practice(2, "medium", "Solo")
    table_id = await svc.table_id(joined.code)
    pool = svc.bot_turns._pool
    assert isinstance(pool, ProcessPoolExecutor)
    await asyncio.wrap_future(pool.submit(int))  # its worker is up
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)
    rng = random.Random(2)
    bot_moves = 0
    for _ in range(200):
        m, table = await current_match(svc, joined.code)
        if m.turn == 0 and not m.round_over:
            move = choose_move("easy", SeatView.from_view(view_for(m, 0)), rng)
            await svc.act(table_id, joined.token, move, seq=table.seq)
            continue
        caught = await svc.store.catchup(table_id, 0, 1000)
        assert caught is not None
        bot_moves = sum(1 for e in caught.events if str(e.move_id).startswith("bot-"))
        if bot_moves >= 4 or table.status != "playing":
            break
        await asyncio.sleep(0.05)
    assert bot_moves >= 4 or table.status == "finished"
    assert svc.bot_turns._pool is not pool  # replaced after the failure
    await svc.timers.close()
    svc.bot_turns.close()
