"""Security headers on every kind of response of a real server, and
``/docs`` served from packaged files only (or turned off)."""

from __future__ import annotations

import re

import httpx
import pytest

from .support import ServerProcess

PATHS = [
    "/",
    "/t/ABCDEF",
    "/static/js/main.js",
    "/static/css/style.css",
    "/api/tables",
    "/api/tables/ZZZZZZ",
    "/healthz",
    "/docs",
    "/openapi.json",
    "/nowhere",
]


@pytest.mark.parametrize("path", PATHS)
async def test_every_response_carries_the_security_headers(
    http: httpx.AsyncClient, live: ServerProcess, path: str
) -> None:
    r = await http.get(path)
    csp = r.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    host = f"127.0.0.1:{live.port}"
    assert directives["connect-src"] == f"'self' ws://{host} wss://{host}"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


async def test_a_forged_host_header_cannot_inject_into_the_policy(http: httpx.AsyncClient) -> None:
    r = await http.get("/", headers={"Host": "evil.example; script-src *"})
    assert "evil" not in r.headers["content-security-policy"]


async def test_docs_load_swagger_ui_from_this_server_only(http: httpx.AsyncClient) -> None:
    page = (await http.get("/docs")).text
    assert "<script>" not in page.replace(" ", "")  # no inline script
    urls = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert urls and all(u.startswith("/docs/assets/") for u in urls), urls
    for url in urls:
        r = await http.get(url)
        assert r.status_code == 200 and len(r.content) > 100, url
    bundle = await http.get("/docs/assets/swagger-ui-bundle.js")
    assert "SwaggerUIBundle" in bundle.text
    assert (await http.get("/docs/assets/../../../etc/passwd")).status_code == 404


def test_docs_can_be_turned_off(pg_url: str) -> None:
    server = ServerProcess(pg_url, FIVEUP_DOCS="false").start()
    try:
        assert httpx.get(f"{server.http}/docs").status_code == 404
        assert httpx.get(f"{server.http}/openapi.json").status_code == 200
    finally:
        server.stop()
