"""Serving the browser client: ``/``, ``/t/{code}`` (invite links), ``/t/{code}/replay``
(the replay of its finished rounds) and ``/check`` (a downloaded record checked) give
``index.html``;
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


@router.get("/check")
async def record_check(request: Request) -> Response:
    return _index(request)
