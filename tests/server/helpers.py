"""Service-level helpers shared by the service tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.db.rows import TableState
from app.engine import Match
from app.engine.views import legal_entries
from app.tables.delivery_port import NoDelivery
from app.tables.service import TableService


async def seated(
    svc: TableService, players: int, start: bool = True, public: bool = True
) -> tuple[str, int, list[str]]:
    """A table with every seat taken (host at 0). Returns (code, table_id, tokens)."""
    created = await svc.create("Test", players, public, "Host")
    tokens = [created.token]
    for seat in range(1, players):
        joined = await svc.join(created.code, f"P{seat}", seat)
        tokens.append(joined.token)
    if start:
        await svc.start(created.code, tokens[0])
    ident = await svc.identify(created.code, None)
    return created.code, ident.table_id, tokens


async def current_match(svc: TableService, code: str) -> tuple[Match, TableState]:
    """The stored match (server-side truth) of a table, and its columns."""
    loaded = await svc.store.load(await svc.table_id(code))
    assert loaded is not None
    match = loaded[0].match()
    assert match is not None
    return match, loaded[0]


async def play_random_move(
    svc: TableService, code: str, table_id: int, tokens: list[str], rng: random.Random
) -> None:
    """The seat to move plays a greedy legal move (most points, ties at random)."""
    m, table = await current_match(svc, code)
    seat = m.turn
    assert seat is not None
    await svc.act(table_id, tokens[seat], greedy_choice(legal_entries(m, seat), rng), seq=table.seq)


def greedy_choice(legal: list[dict[str, Any]], rng: random.Random) -> str:
    """A bot's pick from a view's ``legal`` list: most points, ties broken at random."""
    best = max(e.get("points", 0) for e in legal)
    return str(rng.choice([e for e in legal if e.get("points", 0) == best])["move"])


class SetPresence(NoDelivery):
    """Delivery with no sockets whose presence the test sets: ``connected(table_id)``
    lists the seats with a socket, ``absent(table_id, seat)`` says since when a seat
    has had none, ``people()`` the tables where a person has one (as the hub would
    answer)."""

    def __init__(
        self,
        connected: Callable[[int], list[int]] | None = None,
        absent: Callable[[int, int], float | None] | None = None,
        people: Callable[[], set[int]] | None = None,
    ) -> None:
        super().__init__()
        self._connected = connected or (lambda _tid: [])
        self._absent = absent or (lambda _tid, _seat: None)
        self._people = people or set

    def tables_with_people(self) -> set[int]:
        return self._people()

    def connected_seats(self, table_id: int) -> list[int]:
        return self._connected(table_id)

    def absent_since(self, table_id: int, seat: int) -> float | None:
        return self._absent(table_id, seat)
