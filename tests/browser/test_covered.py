"""Nothing covers what a player reads (static/js/board/render.js, ui/play.js,
ui/device.js, ui/scoresheet.js): a last move's initial and its "+N" never sit on an
open end's value; the "Round over — show the results" tab covers neither your revealed
hand nor your name (desktop and phone); "Play on another device" is in view without
unfolding a panel; the round-end table marks each player's team at four players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import page_maker, shot
from .flows import play_until_round_end, start_two_player_game
from .screens_flows import MARK_OVERLAPS_JS, boxes_meet, dismiss_hint, start_practice


@pytest.fixture(scope="module")
def settled(browser, server) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Ann (1440x900) and Bob (390x844) play a round to its end; every overlap of a
    last-move mark with an open end's value seen on either page before each move."""
    make, close = page_maker(browser, server)
    ann, bob, code = start_two_player_game(make, bob_viewport=(390, 844))
    for p in (ann, bob):
        dismiss_hint(p)
    overlaps: list[str] = []
    play_until_round_end(
        [ann, bob],
        random.Random(32),
        on_step=lambda: [overlaps.extend(p.evaluate(MARK_OVERLAPS_JS)) for p in (ann, bob)],
    )
    yield {"ann": ann, "bob": bob, "code": code, "overlaps": overlaps}
    close()


def test_last_move_marks_and_points_never_cover_an_open_end_value(settled) -> None:  # type: ignore[no-untyped-def]
    assert settled["overlaps"] == []


def test_results_tab_covers_no_own_hand_tile_or_name_on_desktop_and_phone(settled) -> None:  # type: ignore[no-untyped-def]
    for who, page in (("desktop", settled["ann"]), ("phone", settled["bob"])):
        page.click("[data-testid=hide-results]")
        page.wait_for_selector("[data-testid=show-results]")
        you = page.get_attribute("[data-testid=play]", "data-you")
        tab = page.locator("[data-testid=show-results]").bounding_box()
        own = page.locator(
            f"[data-testid=seat-area-{you}] .name, [data-testid=seat-area-{you}] [data-testid=hand-tile]"
        )
        assert own.count() >= 1
        for i in range(own.count()):
            assert not boxes_meet(tab, own.nth(i).bounding_box()), f"{who}: the tab covers {i}"
        # nor anything else of the table: it lies outside the table's whole box
        assert not boxes_meet(tab, page.locator("[data-testid=play]").bounding_box()), who
        # and the tab is where it can be tapped: the element at its centre is the tab
        assert tab
        assert page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=show-results]')",
            [tab["x"] + tab["width"] / 2, tab["y"] + tab["height"] / 2],
        )
        shot(page, f"results-tab-{who}")
        page.click("[data-testid=show-results]")
        page.wait_for_selector("[data-testid=round-end]")


def test_play_on_another_device_is_in_view_without_unfolding_a_panel(new_page) -> None:  # type: ignore[no-untyped-def]
    for width, height in ((1440, 900), (390, 844)):
        page = new_page(width, height)
        start_practice(page, players=2)
        button = page.locator("[data-testid=another-device-top]")
        assert button.is_visible()
        box = button.bounding_box()
        assert (
            box
            and box["x"] >= 0
            and box["x"] + box["width"] <= width
            and box["y"] + box["height"] <= height
        )
        button.click()
        page.wait_for_selector("[data-testid=device-link]")
        assert page.locator("[data-testid=device-link]").is_visible()


def test_round_end_table_marks_each_players_team_at_four_players(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(1440, 900)
    start_practice(page, players=4)
    dismiss_hint(page)
    overlaps: list[str] = []
    play_until_round_end(
        [page], random.Random(5), on_step=lambda: overlaps.extend(page.evaluate(MARK_OVERLAPS_JS))
    )
    assert overlaps == []  # three computers' last moves marked at once: none on an end's value
    page.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
    sides = page.evaluate("window.__fiveupTest.view().sides")
    for seat in range(4):
        mark = page.locator(f"[data-testid=settle-team-{seat}]")
        side = next(i for i, s in enumerate(sides) if seat in s)
        assert mark.get_attribute("data-side") == str(side)
        assert mark.get_attribute("title") == f"Team {side + 1}"
    shot(page, "round-end-teams")
