"""Delivery never reads state newer than the commit it delivers: what the writer hands
delivery (app/realtime/committed.py) is a snapshot of the commit — copies of the table
and its players and the projection of the match at its seq — that no later decision,
commit or refused write changes, and that equals the engine's projection of the state
replayed from the stored events at that seq (R5: each seat sees only its own hand)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest

from app.core.settings import Settings
from app.engine import Match, view_for
from app.main import make_store
from app.realtime.committed import Committed
from app.tables.delivery_port import NoDelivery
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import current_match, play_random_move, seated
from .support import replay_states

MOVES = 40


class Keeping(NoDelivery):
    """Delivery that follows every table and keeps each commit it is handed, with the
    commit's JSON as it was when handed over."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[tuple[Committed, bytes]] = []

    def watches(self, table_id: int) -> bool:
        return True

    async def committed(self, c: Committed) -> None:
        self.kept.append((c, _as_json(c)))


def _as_json(c: Committed) -> bytes:
    views = c.views
    return orjson.dumps(
        {
            "table": dataclasses.asdict(c.table),
            "players": [dataclasses.asdict(p) for p in c.players],
            "events": [e.payload for e in c.events],
            "views": None
            if views is None
            else {
                "public": views.public,
                "own": {str(r): views.own_fields(r) for r in views.own},
                "summary": None if views.summary is None else views.summary._asdict(),
            },
        },
        option=orjson.OPT_NON_STR_KEYS,
    )


@pytest.fixture
async def keeping(db_url: str) -> AsyncIterator[tuple[TableService, Keeping]]:
    delivery = Keeping()
    svc = TableService(
        make_store(Settings(database_url=db_url)), next_round_seconds=0, delivery=delivery
    )
    yield svc, delivery
    await svc.close()


async def _true_states(svc: TableService, table_id: int) -> dict[int, dict[str, Any] | None]:
    cu = await svc.store.catchup(table_id, 0, 100_000)
    assert cu is not None
    return replay_states({e.seq: {"payload": e.payload} for e in cu.events})


def _assert_is_the_commit(c: Committed, states: dict[int, dict[str, Any] | None]) -> None:
    """Every recipient's view in ``c`` is the engine's view of the state at its seq."""
    assert c.views is not None and c.views.seq == c.seq == c.table.seq
    state = states[c.seq]
    truth = Match.from_dict(state) if state is not None else None
    for recipient in [*range(c.table.players), None]:
        expected = view_for(truth, recipient, describe=False) if truth is not None else None
        assert c.views.view(recipient, describe=False) == expected, (c.seq, recipient)


@pytest.mark.parametrize("players", [2, 4])
async def test_a_commit_handed_to_delivery_is_never_changed_by_the_moves_after_it(
    keeping: tuple[TableService, Keeping], players: int
) -> None:
    svc, delivery = keeping
    code, table_id, tokens = await seated(svc, players)
    rng = random.Random(players)
    for _ in range(MOVES):
        await play_random_move(svc, code, table_id, tokens, rng)
    states = await _true_states(svc, table_id)
    mine = [(c, frozen) for c, frozen in delivery.kept if c.table.id == table_id]
    assert len(mine) >= MOVES
    for c, frozen in mine:
        assert _as_json(c) == frozen, c.seq  # nothing later changed what delivery holds
        _assert_is_the_commit(c, states)


async def test_a_refused_write_does_not_reach_what_delivery_holds(
    keeping: tuple[TableService, Keeping], db_url: str
) -> None:
    """The writer decides a move on the state it remembers (changing its live match),
    the write is refused because another process committed first, and the move is then
    refused on fresh state: the commit delivery was handed before is unchanged."""
    svc, delivery = keeping
    elsewhere = TableService(make_store(Settings(database_url=db_url)), next_round_seconds=0)
    try:
        code, table_id, tokens = await seated(svc, 2)
        rng = random.Random(3)
        await play_random_move(svc, code, table_id, tokens, rng)  # remembered by svc
        before, _ = await current_match(svc, code)
        seat = before.turn
        assert seat is not None
        legal = before.legal_moves(seat)
        # another process plays the seat's turn to its end (a draw keeps the turn, R18:
        # then the stale move below could still be legal on the fresh state)
        for _ in range(30):
            now, _ = await current_match(elsewhere, code)
            if now.turn != seat:
                break
            await elsewhere.act(table_id, tokens[seat], now.legal_moves(seat)[0].text)
        else:
            raise AssertionError("the seat kept the turn")
        last, frozen = delivery.kept[-1]
        with pytest.raises(TableError):  # decided on memory, refused, refused again
            await svc.act(table_id, tokens[seat], legal[-1].text)
        assert delivery.kept[-1][0] is last
        assert _as_json(last) == frozen
        _assert_is_the_commit(last, await _true_states(svc, table_id))
    finally:
        await elsewhere.close()
