"""A table closed as abandoned in the middle of a match (app/tables/sweep.py) shows the
closed card, with the replay of its finished rounds, on an open page: the close is
made by another table service on the same database (as another server process's sweep
would), and the page's server delivers the ``closed`` event."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from app.core.settings import Settings
from app.main import make_store
from app.tables.service import TableService


async def _close_as_abandoned(database_url: str, code: str) -> None:
    service = TableService(make_store(Settings(database_url=database_url)))
    try:
        table_id = await service.table_id(code)
        for _ in range(100):  # a computer player may move in between: try again
            version = (await service.writer.load(table_id)).table.version
            if await service.close_abandoned(table_id, version):
                return
            await asyncio.sleep(0.1)
        raise AssertionError("the table could not be closed")
    finally:
        await service.close()


def test_a_table_abandoned_mid_match_shows_the_closed_card(new_page, browser_db) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.fill("[data-testid=practice-name]", "Solo")
    page.select_option("[data-testid=practice-players]", "2")
    page.click("[data-testid=practice-submit]")
    page.wait_for_selector("[data-testid=play]")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    with ThreadPoolExecutor(1) as pool:  # off Playwright's own event loop
        pool.submit(asyncio.run, _close_as_abandoned(browser_db, code)).result(60)
    page.wait_for_selector("[data-testid=table-closed]")
    assert page.query_selector("[data-testid=play]") is None
    assert page.get_attribute("[data-testid=closed-replay]", "href") == f"/t/{code}/replay"
