"""The home page: a drawn layout, the ways in (play with friends, watch a
live table, how to play) and the live tables, those looking for players first."""

from __future__ import annotations

from .conftest import publish, shot
from .flows import create_table, join_table


def test_home_invites_and_lists_tables_looking_for_players_first(new_page) -> None:  # type: ignore[no-untyped-def]
    # One public table in play, one looking for a player.
    ann = new_page()
    playing = create_table(ann, players=2, host="Ann", name="Playing now")
    bob = new_page()
    join_table(bob, playing, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=start-button]:not([disabled])")
    ann.click("[data-testid=start-button]")
    ann.wait_for_selector("[data-testid=play]")
    cid = new_page()
    waiting = create_table(cid, players=3, host="Cid", name="Come and play")

    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=hero]")
    assert len(page.query_selector_all("[data-testid=hero-board] [data-board-tile]")) == 7
    assert "/static/rules.html" in page.get_attribute("[data-testid=hero-rules]", "href")
    page.wait_for_selector(f"[data-testid=lobby-row][data-code='{waiting}']")
    page.wait_for_selector(f"[data-testid=lobby-row][data-code='{playing}']")
    rows = page.eval_on_selector_all(
        "[data-testid=lobby-row]",
        "els => els.map(e => [e.dataset.code, !!e.querySelector('[data-testid=lobby-looking]')])",
    )
    looking = [flag for _, flag in rows]
    assert looking == sorted(looking, reverse=True)  # every "looking" row comes first
    assert dict(rows)[waiting] is True and dict(rows)[playing] is False
    assert "looking for 2 players" in page.inner_text(
        f"[data-testid=lobby-row][data-code='{waiting}']"
    )
    shot(page, "18-home")
    publish("18-home.png", "home.png")
    # Play with friends: straight to the form.
    page.click("[data-testid=hero-play]")
    page.wait_for_function(
        "['create-name', 'create-host-name'].includes(document.activeElement.dataset.testid)"
    )
    # Watch a live table: a table in play, as a spectator.
    page.wait_for_selector("[data-testid=hero-watch]:not([disabled])")
    page.click("[data-testid=hero-watch]")
    page.wait_for_selector("[data-testid=spectating]")
    assert "watch=1" in page.url
