"""The client and ``/docs`` work under the strict Content-Security-Policy:
a real Chromium plays a round and renders the API docs while every CSP violation
the browser reports is collected; there must be none."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import Page

from .flows import play_until_round_end, start_two_player_game

_LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '')));
"""


def _poll_without_eval(page: Page, expression: str, timeout: float = 45_000, **_: Any) -> None:
    """``wait_for_function`` without the in-page eval the policy forbids: the predicate
    runs through the debugging protocol (not subject to CSP) every 50 ms."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def _violations(page: Any) -> list[str]:
    return list(page.evaluate("window.__csp || []"))


def test_client_plays_a_round_under_the_strict_policy(  # type: ignore[no-untyped-def]
    new_page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Page, "wait_for_function", _poll_without_eval)
    console: list[str] = []

    def make() -> Any:
        page = new_page(csp=True)
        page.add_init_script(_LISTEN)
        page.on(
            "console", lambda m: console.append(m.text) if "Content Security" in m.text else None
        )
        return page

    ann, bob, _code = start_two_player_game(make)
    response = ann.request.get("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    play_until_round_end([ann, bob], random.Random(7))
    # the connection badge, the drag ghost and the grid areas are styled through the CSSOM
    assert ann.eval_on_selector(
        "[data-testid=turn-indicator]", "e => e.style.gridArea"
    ) or ann.query_selector("[data-testid=play]")
    assert _violations(ann) == [] and _violations(bob) == []
    assert console == []


def test_api_docs_render_from_packaged_assets_under_the_policy(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(csp=True)
    page.add_init_script(_LISTEN)
    outside: list[str] = []
    page.on(
        "request",
        lambda r: (
            outside.append(r.url)
            if "127.0.0.1" not in r.url and not r.url.startswith("data:")
            else None
        ),
    )
    page.goto("/docs")
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=30_000)
    assert "/api/tables" in page.inner_text(".swagger-ui")
    assert outside == []
    assert _violations(page) == []
