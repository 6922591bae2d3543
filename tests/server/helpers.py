"""Service-level helpers shared by the service tests."""

from __future__ import annotations

import random
from typing import Any

from app.engine.views import legal_entries
from app.tables.service import TableService


async def seated(svc: TableService, players: int, start: bool = True,
                 public: bool = True) -> tuple[str, int, list[str]]:
    """A table with every seat taken (host at 0). Returns (code, table_id, tokens)."""
    info, token, _ = await svc.create("Test", players, public, "Host")
    tokens = [token]
    for seat in range(1, players):
        _, tok, _ = await svc.join(info["code"], f"P{seat}", seat)
        tokens.append(tok)
    if start:
        await svc.start(info["code"], tokens[0])
    ident = await svc.identify(info["code"], None)
    return info["code"], ident.table_id, tokens


async def current_match(svc: TableService, code: str):  # type: ignore[no-untyped-def]
    """The stored match (server-side truth) of a table."""
    from sqlalchemy import select

    from app.db.models import TableRow
    from app.engine import Match

    async with svc.sessionmaker() as s:
        table = await s.scalar(select(TableRow).where(TableRow.code == code))
    assert table is not None and table.state is not None
    return Match.from_dict(table.state), table


async def play_random_move(svc: TableService, code: str, table_id: int, tokens: list[str],
                           rng: random.Random) -> None:
    """The seat to move plays a greedy legal move (most points, ties at random)."""
    m, table = await current_match(svc, code)
    seat = m.turn
    assert seat is not None
    await svc.act(table_id, tokens[seat], greedy_choice(legal_entries(m, seat), rng),
                  seq=table.seq)


def greedy_choice(legal: list[dict[str, Any]], rng: random.Random) -> str:
    """A bot's pick from a view's ``legal`` list: most points, ties broken at random."""
    best = max(e.get("points", 0) for e in legal)
    return str(rng.choice([e for e in legal if e.get("points", 0) == best])["move"])
