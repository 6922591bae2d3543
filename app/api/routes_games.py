"""HTTP routes of my games and the player page (docs/protocol.md "My games and the
player page", docs/games.md):

- ``GET /api/profile/games`` (signed in): live tables, your move first, then finished
  matches newest first, paged by an opaque ``before`` cursor;
- ``PUT /api/profile/visibility`` (signed in, Origin-checked): who sees the player page;
- ``GET /api/players/{handle}`` (public; a signed-in viewer may see a ``friends`` page):
  the player page, counted against ``FIVEUP_RATE_LIMIT_PLAYER_PAGES`` per address.

Every route counts against the HTTP quota of its address."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request

from app.api.deps import ServiceDep
from app.api.profile_auth import COOKIE, ProfileDep, ProfilesDep, origin_guard
from app.api.quota_deps import player_pages_quota, quota_router
from app.db.rows import TableStatus
from app.db.store import Unavailable
from app.games_schemas import (
    FinishedOut,
    LiveTableOut,
    MyGamesOut,
    PairingOut,
    PersonOut,
    PlayerOut,
    RatingOut,
    StatsOut,
    VisibilityIn,
    VisibilityOut,
)
from app.ratings import Rating, displayed
from app.schemas import ErrorResponse
from app.tables.errors import unavailable
from app.tables.games import Games, MyMatch, PlayerPage
from app.tables.service import TableService

ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 422, 503)
}

router = quota_router("/api", "games", ERRORS)
router.dependencies.append(Depends(origin_guard))


def get_games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


GamesDep = Annotated[Games, Depends(get_games)]


def _your_move(service: TableService) -> Any:
    async def your_move(code: str, seat: int) -> bool:
        tx = await service.reads.load(await service.table_id(code))
        m = tx.match
        return (
            tx.table.status == TableStatus.PLAYING
            and m is not None
            and not m.round_over
            and not m.over
            and m.turn == seat
        )

    return your_move


def _finished(m: MyMatch) -> FinishedOut:
    return FinishedOut(
        code=m.match.table_code,
        match=m.match.match_number,
        players=m.match.players,
        rated=m.match.rated,
        finished_at=m.match.finished_at,
        result="won" if m.seat.won else "lost",
        seat=m.seat.seat,
        side=m.seat.side,
        scores=m.scores,
        partners=[PersonOut(name=p.name, handle=p.handle) for p in m.partners],
        opponents=[PersonOut(name=p.name, handle=p.handle) for p in m.opponents],
        replay=m.replay,
    )


@router.get("/profile/games", response_model=MyGamesOut)
async def my_games(
    profile: ProfileDep,
    profiles: ProfilesDep,
    games: GamesDep,
    service: ServiceDep,
    before: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
) -> MyGamesOut:
    """The signed-in player's games: live tables (first page only), those waiting for
    its move first, then its finished matches, newest first; ``limit`` at most
    ``FIVEUP_MY_GAMES_PAGE_MAX`` (``400 bad_limit``), ``before`` the previous page's
    ``next_before`` (``400 bad_cursor``)."""
    try:
        bound = await profiles.tables(profile) if before is None else []
    except Unavailable:
        raise unavailable() from None
    got = await games.my_games(profile, bound, _your_move(service), before=before, limit=limit)
    return MyGamesOut(
        live=[
            LiveTableOut(
                code=t.code,
                name=t.name,
                status=t.status,
                players=t.players,
                seat=t.seat,
                your_move=t.your_move,
            )
            for t in got.live
        ],
        finished=[_finished(m) for m in got.finished],
        next_before=got.next_before,
        visibility=got.visibility,  # type: ignore[arg-type]
    )


@router.put("/profile/visibility", response_model=VisibilityOut)
async def set_visibility(body: VisibilityIn, profile: ProfileDep, games: GamesDep) -> VisibilityOut:
    """Who sees the signed-in player's page: ``everyone``, ``friends`` or ``me``."""
    await games.set_visibility(profile, body.visibility)
    return VisibilityOut(visibility=body.visibility)


def _player(page: PlayerPage) -> PlayerOut:
    stats = [
        StatsOut(
            players=s.players,
            played=s.played,
            won=s.won,
            rounds=s.rounds,
            rounds_dominoed=s.rounds_dominoed,
            points_made=s.points_made,
            points_per_round=round(s.points_made / s.rounds, 2) if s.rounds else 0.0,
            deductions=s.deductions,
            best_round=s.best_round,
        )
        for s in page.stats
    ]
    if stats:
        rounds = sum(s.rounds for s in stats)
        made = sum(s.points_made for s in stats)
        stats.append(
            StatsOut(
                players=None,
                played=sum(s.played for s in stats),
                won=sum(s.won for s in stats),
                rounds=rounds,
                rounds_dominoed=sum(s.rounds_dominoed for s in stats),
                points_made=made,
                points_per_round=round(made / rounds, 2) if rounds else 0.0,
                deductions=sum(s.deductions for s in stats),
                best_round=max(s.best_round for s in stats),
            )
        )
    return PlayerOut(
        handle=page.handle,
        display_name=page.display_name,
        ratings=[
            RatingOut(
                pool=r.pool,
                rating=displayed(Rating(r.mu, r.sigma)),
                mu=r.mu,
                sigma=r.sigma,
                matches=r.matches,
                provisional=provisional,
            )
            for r, provisional in page.ratings
        ],
        stats=stats,
        opponents=[
            PairingOut(handle=p.handle, display_name=p.display_name, played=p.played, won=p.won)
            for p in page.opponents
        ],
        partners=[
            PairingOut(handle=p.handle, display_name=p.display_name, played=p.played, won=p.won)
            for p in page.partners
        ],
    )


@router.get(
    "/players/{handle}", response_model=PlayerOut, dependencies=[Depends(player_pages_quota)]
)
async def player_page(
    request: Request,
    profiles: ProfilesDep,
    games: GamesDep,
    handle: Annotated[str, Path(min_length=1, max_length=64)],
) -> PlayerOut:
    """A player's page: ratings, figures, head-to-head and partners. ``404
    player_not_found`` for an unknown handle and for a page hidden from the viewer by its
    visibility (the same answer: a hidden page does not say it exists)."""
    try:
        viewer = await profiles.signed_in(request.cookies.get(COOKIE))
    except Unavailable:
        raise unavailable() from None
    return _player(await games.player_page(handle, viewer))
