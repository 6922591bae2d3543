"""A visitor who mistyped table codes too often is told to wait, not that the table
does not exist (docs/protocol.md: HTTP 429 with Retry-After, socket close 4430)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from .conftest import database, page_maker, running_server, shot

#: a visit to an unknown code costs two misses (its HTTP look-up and its socket)
MISSES = 4


@pytest.fixture(scope="module")
def quota_server() -> Iterator[str]:
    settings = {
        "FIVEUP_RATE_LIMIT_ENABLED": "true",
        "FIVEUP_RATE_LIMIT_LOOKUP_MISS": f"{MISSES}/minute",
    }
    with database() as url, running_server(url, settings, log_name="server-code-tries.log") as base:
        yield base


@pytest.fixture
def quota_page(browser, quota_server):  # type: ignore[no-untyped-def]
    make, close = page_maker(browser, quota_server)
    yield make
    close()


def _try_code(page, code: str) -> str:  # type: ignore[no-untyped-def]
    page.goto("/")
    page.fill("[data-testid=join-code-input]", code)
    page.click("[data-testid=join-code-submit]")
    page.wait_for_selector(".notice.error")
    return str(page.inner_text(".notice.error"))


def test_too_many_mistyped_codes_say_how_long_to_wait_in_english_and_ukrainian(quota_page) -> None:  # type: ignore[no-untyped-def]
    page = quota_page()
    for code in ("QQQQQQ", "WWWWWW"):
        assert _try_code(page, code) == "No table with that code."
    text = _try_code(page, "EEEEEE")
    assert re.fullmatch(r"Too many tries, wait \d+ s\.", text), text
    assert int(re.findall(r"\d+", text)[0]) >= 1
    uk = quota_page(width=390, height=844, lang="uk")
    text = _try_code(uk, "RRRRRR")
    assert re.fullmatch(r"Забагато спроб, зачекайте \d+ с\.", text), text
    shot(uk, "code-tries-phone-uk")
