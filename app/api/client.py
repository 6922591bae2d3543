"""Serving the browser client: ``/``, ``/t/{code}`` (invite links), ``/t/{code}/replay``
(the replay of its finished rounds) and ``/check`` (a downloaded record checked) give
``index.html``; ``/profile`` gives ``profile.html``; ``/friends`` and ``/f/{token}`` (friend links)
give ``friends.html``; ``/games`` ``games.html`` (my games), ``/p/{handle}``
``player.html`` (a player's page), ``/leaderboard`` ``leaderboard.html``, and
``/clubs``, ``/clubs/{id}`` and ``/c/{token}`` (club invites) ``clubs.html``;
other files live under ``/static/``. Tolerates the client not being there yet."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

router = APIRouter(include_in_schema=False)

_PLACEHOLDER = "<!doctype html><title>Five Up</title><p>The client is not installed.</p>"


def _index(request: Request) -> Response:
    static_dir: Path = request.app.state.settings.static_dir
    index = static_dir / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)


@router.get("/")
async def root(request: Request) -> Response:
    return _index(request)


@router.get("/t/{code}")
async def invite(request: Request, code: str) -> Response:
    return _index(request)


@router.get("/t/{code}/replay")
async def replay(request: Request, code: str) -> Response:
    return _index(request)


@router.get("/profile")
async def profile(request: Request) -> Response:
    """The profile page (sign up, sign in, one-time links); a one-time link's secret is
    in the URL fragment, which never reaches the server."""
    static_dir: Path = request.app.state.settings.static_dir
    page = static_dir / "profile.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)


@router.get("/leaderboard")
async def leaderboard(request: Request) -> Response:
    """The leaderboard page (docs/ratings.md); the pool is in its query (``?pool=2``)."""
    return _page(request, "leaderboard.html")


@router.get("/friends")
async def friends(request: Request) -> Response:
    """The friends page (your friend link, friends, requests, blocks)."""
    return _page(request, "friends.html")


@router.get("/f/{token}")
async def friend_link(request: Request, token: str) -> Response:
    """A friend link: the friends page, which sends the request (signed in) or asks the
    guest to make a profile first."""
    return _page(request, "friends.html")


@router.get("/clubs")
async def clubs(request: Request) -> Response:
    """The clubs page: my clubs and a new one (docs/clubs.md)."""
    return _page(request, "clubs.html")


@router.get("/clubs/{club_id}")
async def club(request: Request, club_id: str) -> Response:
    """A club's page (the same page, which reads its id from the path)."""
    return _page(request, "clubs.html")


@router.get("/c/{token}")
async def club_invite(request: Request, token: str) -> Response:
    """A club's invite link: the clubs page, which joins (signed in) or asks the guest
    to make a profile first."""
    return _page(request, "clubs.html")


def _page(request: Request, name: str) -> Response:
    static_dir: Path = request.app.state.settings.static_dir
    page = static_dir / name
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)


@router.get("/games")
async def my_games(request: Request) -> Response:
    """My games: a signed-in player's tables and finished matches; a guest's remembered
    tables (this browser's seats)."""
    return _page(request, "games.html")


@router.get("/p/{handle}")
async def player(request: Request, handle: str) -> Response:
    """A player's page (the script reads the handle from the path)."""
    return _page(request, "player.html")


@router.get("/check")
async def record_check(request: Request) -> Response:
    return _index(request)
