"""A lost connection you can see (static/js/net/socket.js, ui/table.js, ui/presence.js):
offline, a banner says so, the board, the hand and the buttons are inert (nothing
clickable), your own seat is not shown connected; back online the page reconnects at
once on the window's ``online`` event, without waiting out its back-off."""

from __future__ import annotations

from .conftest import shot
from .flows import start_two_player_game
from .screens_flows import dismiss_hint


def _go_offline(page) -> None:  # type: ignore[no-untyped-def]
    page.context.set_offline(True)
    page.wait_for_selector("[data-testid=offline-banner]")


def test_offline_shows_a_banner_and_the_table_is_inert_until_back_online(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _ = start_two_player_game(new_page)
    for p in (ann, bob):
        dismiss_hint(p)
    # whoever is to move: their hand and Draw/targets are live before the network goes
    mover = ann if ann.query_selector("[data-testid=play][data-my-turn='1']") else bob
    _go_offline(mover)
    banner = mover.inner_text("[data-testid=offline-banner]")
    assert "Connection lost" in banner
    play = mover.locator("[data-testid=play]")
    assert play.evaluate("el => el.inert") is True
    assert "offline-inert" in (play.get_attribute("class") or "")  # dimmed
    # nothing on the table takes a pointer: the element under a hand tile's centre is not it
    tile = mover.locator("[data-testid=hand-tile]").first
    box = tile.bounding_box()
    assert box
    hit = mover.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return !el || !el.closest('[data-testid=hand-tile]'); }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit  # the tile is drawn, dimmed, but a tap there reaches no tile
    before = mover.evaluate("document.body.dataset.seq")
    tile.click(force=True)
    mover.wait_for_timeout(200)
    assert mover.query_selector("[data-testid=hand-tile].selected") is None
    assert mover.evaluate("document.body.dataset.seq") == before
    shot(mover, "offline-banner")
    mover.context.set_offline(False)
    mover.wait_for_selector("[data-testid=conn][data-state=open]")
    mover.wait_for_selector("[data-testid=offline-banner]", state="detached")
    assert mover.locator("[data-testid=play]").evaluate("el => el.inert") is False


def test_own_presence_dot_is_not_green_while_offline(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _, _ = start_two_player_game(new_page)
    dot = "[data-testid=seat-area-0] .name .presence"
    ann.wait_for_selector(dot + "[data-presence=connected]")
    _go_offline(ann)
    ann.wait_for_selector(dot + "[data-presence=disconnected]")
    assert "on" not in (ann.get_attribute(dot, "class") or "").split()
    ann.context.set_offline(False)
    ann.wait_for_selector(dot + "[data-presence=connected]")


def test_back_online_reconnects_at_once_not_after_the_back_off(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _, _ = start_two_player_game(new_page)
    ann.clock.install()  # the page's timers stand still: a back-off timer never fires
    ann.clock.pause_at(ann.evaluate("Date.now()") + 1000)
    ann.context.set_offline(True)
    ann.evaluate("window.__fiveupTest.dropSocket()")  # the socket lost with the network
    ann.wait_for_selector("[data-testid=conn][data-state=reconnecting]")
    ann.context.set_offline(False)
    # only the `online` event can reconnect now: the back-off's timeout is frozen
    ann.wait_for_selector("[data-testid=conn][data-state=open]", timeout=15_000)
    # reconnected by `online` alone; time runs again so the page paints what arrived
    # (the client draws arriving frames on the next animation frame, which the frozen
    # clock holds back too)
    ann.clock.resume()
    ann.wait_for_selector("[data-testid=offline-banner]", state="detached")


def test_page_shown_again_with_its_socket_gone_reconnects_at_once(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _, _ = start_two_player_game(new_page)
    ann.clock.install()
    ann.clock.pause_at(ann.evaluate("Date.now()") + 1000)
    ann.evaluate("window.__fiveupTest.dropSocket()")
    ann.wait_for_selector("[data-testid=conn][data-state=reconnecting]")
    ann.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # still visible
    ann.wait_for_selector("[data-testid=conn][data-state=open]", timeout=15_000)
