"""docs/protocol.md is the routes' contract: every method and path the server's OpenAPI
schema lists is in it (written ```METHOD /path```, a path parameter by any name), so a
client written from the document finds every route; and every route it names is served."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from fastapi import FastAPI

from app.core.settings import Settings
from app.main import create_app

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _shape(path: str) -> str:
    """A path without its query (``?…`` or ``[?…]``), each parameter as ``{}``.

    >>> _shape("/api/tables/{code}/seats/{seat}/link"), _shape("/api/tables[?status=open]")
    ('/api/tables/{}/seats/{}/link', '/api/tables')
    """
    path = re.split(r"[\[?]", path)[0]
    return re.sub(r"\{[^}]*\}", "{}", path).rstrip("/") or "/"


def _documented() -> set[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s]*)`", text)
    return {(method, _shape(path)) for method, path in found}


def _app(database_url: str) -> FastAPI:
    return create_app(Settings(database_url=database_url))


def test_every_route_in_the_openapi_schema_is_in_the_protocol_document(sqlite_url: str) -> None:
    paths: dict[str, dict[str, object]] = _app(sqlite_url).openapi()["paths"]
    served = {(method.upper(), _shape(path)) for path, ops in paths.items() for method in ops}
    assert sorted(served - _documented()) == []


async def test_every_route_the_protocol_document_names_is_served(sqlite_url: str) -> None:
    """In the schema, or else a page (``GET /t/{code}``…, which the schema leaves out),
    served as HTML."""
    app = _app(sqlite_url)
    paths: dict[str, dict[str, object]] = app.openapi()["paths"]
    in_schema = {(method.upper(), _shape(path)) for path, ops in paths.items() for method in ops}
    pages = sorted(_documented() - in_schema)
    assert all(method == "GET" for method, _ in pages), pages
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://fiveup.test") as client:
        for _, shape in pages:
            r = await client.get(shape.replace("{}", "ZZZZZZ"))
            assert r.status_code == 200, (shape, r.status_code)
            assert r.headers["content-type"].startswith("text/html"), shape
