"""Player and spectator counts: the table page shows how many players are
here and how many watch, kept up to date by presence frames; the lobby shows the
spectators of a public table."""

from __future__ import annotations

from .flows import create_table


def test_the_table_and_the_lobby_show_players_and_spectators(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=2, host="Ann", public=True)
    counts = "[data-testid=table-counts]"
    ann.wait_for_function(
        f"document.querySelector('{counts}').textContent.includes('1 of 2 players here · 0 watching')"
    )
    eve = new_page()
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=waiting-room]")
    ann.wait_for_function(
        f"document.querySelector('{counts}').textContent.includes('1 of 2 players here · 1 watching')"
    )
    visitor = new_page(lang="uk")
    visitor.goto("/")
    row = f"[data-testid=lobby-row][data-code='{code}']"
    visitor.wait_for_selector(row)
    assert "Дивляться: 1" in (visitor.text_content(f"{row} [data-testid=lobby-spectators]") or "")
    eve.close()
    ann.wait_for_function(
        f"document.querySelector('{counts}').textContent.includes('1 of 2 players here · 0 watching')"
    )
