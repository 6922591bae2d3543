"""Serving the browser client: ``/``, ``/t/{code}`` (invite links), ``/t/{code}/replay``
(the replay of its finished rounds) and ``/check`` (a downloaded record checked) give
``index.html``; ``/profile`` gives ``profile.html``;
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


@router.get("/check")
async def record_check(request: Request) -> Response:
    return _index(request)
