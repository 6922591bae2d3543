"""Two-step play: a first click only selects a tile and shows its places
with the points the score will change by; a second click plays; another tile switches
the selection (never plays it); Esc or a click on empty felt deselects."""

from __future__ import annotations

from .flows import (
    click_target,
    hand,
    my_turn,
    round_over,
    seq_of,
    start_two_player_game,
    sync,
    wait_seq,
)


def _targets(page) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(
        "svg.board [data-move]",
        "els => els.map(e => ({move: e.dataset.move, raw: e.dataset.points,"
        " score: e.dataset.score, text: e.textContent}))",
    )


def _empty_felt_point(page) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """A point of the board area where a click lands on bare felt or board."""
    point = page.evaluate(
        """() => {
            const r = document.querySelector('[data-testid=board-area]').getBoundingClientRect();
            const busy = 'button, [data-move], [data-board-tile], a, input, select, .zoom-controls, .board-info';
            for (const fy of [0.05, 0.95, 0.5, 0.25, 0.75]) {
                for (const fx of [0.03, 0.97, 0.15, 0.85, 0.3, 0.7]) {
                    const x = r.left + fx * r.width, y = r.top + fy * r.height;
                    const el = document.elementFromPoint(x, y);
                    if (el && el.closest('.felt') && !el.closest(busy)) return [x, y];
                }
            }
            return null;
        }"""
    )
    assert point is not None, "no bare felt in the board area"
    return point[0], point[1]


def _status(page) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    el = "[data-testid=turn-indicator]"
    return page.get_attribute(el, "data-selected") or "", page.inner_text(el)


def test_two_click_play_switch_and_deselect(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _ = start_two_player_game(new_page)
    sync([ann, bob])
    actor = ann if my_turn(ann) else bob
    before = seq_of(actor)
    a, b = hand(actor)[:2]
    # The opening (R8): every tile fits in exactly one place; a click still only selects.
    actor.locator(f"[data-testid=hand-tile][data-tile='{a}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    assert seq_of(actor) == before
    assert [t["move"] for t in _targets(actor)] == [a]
    sel, text = _status(actor)
    assert sel == a and a in text
    # Another tile switches the selection and is not played.
    actor.locator(f"[data-testid=hand-tile][data-tile='{b}']").click()
    actor.wait_for_function(
        f"document.querySelector('[data-testid=turn-indicator]').dataset.selected === '{b}'"
    )
    assert [t["move"] for t in _targets(actor)] == [b]
    assert seq_of(actor) == before and len(hand(actor)) == 5
    # A click on empty felt deselects (a point of the board area with no control, tile
    # or place on it: a toast or a seat's badge may lie over any one corner).
    x, y = _empty_felt_point(actor)
    actor.mouse.click(x, y)
    actor.wait_for_function("document.querySelector('[data-move]') === null")
    sel, text = _status(actor)
    assert sel == "" and b not in text
    # Esc deselects too.
    actor.locator(f"[data-testid=hand-tile][data-tile='{a}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    actor.keyboard.press("Escape")
    actor.wait_for_function("document.querySelector('[data-move]') === null")
    assert seq_of(actor) == before
    # A second click on the selected tile with one place plays it.
    actor.locator(f"[data-testid=hand-tile][data-tile='{b}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    actor.locator(f"[data-testid=hand-tile][data-tile='{b}']").click()
    wait_seq(actor, before + 1)
    assert b not in hand(actor)
    actor.wait_for_selector(f"svg.board [data-board-tile='{b}']")


def _select_and_read_places(actor, tile: str) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    """Select one tile (first click) and return its places; checks each pill sits inside its ghost."""
    before = seq_of(actor)
    actor.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
    actor.wait_for_function(
        f"document.querySelector('[data-testid=turn-indicator]').dataset.selected === '{tile}'"
        " && document.querySelector('svg.board [data-move]') !== null"
    )
    assert seq_of(actor) == before, "a first click only selects"
    # Each pill lies inside its own ghost, so it never covers a placed tile.
    inside = actor.eval_on_selector_all(
        "svg.board [data-move]",
        """els => els.map(g => { const p = g.querySelector('.target-pill').getBoundingClientRect();
            const r = g.querySelector('.target-rect').getBoundingClientRect();
            return p.left >= r.left - 1 && p.right <= r.right + 1 && p.top >= r.top - 1 && p.bottom <= r.bottom + 1; })""",
    )
    assert all(inside), inside
    return _targets(actor)


def test_a_press_held_on_bare_felt_deselects_while_the_layout_words_arrive(new_page) -> None:  # type: ignore[no-untyped-def]
    """A person's click lasts a tenth of a second. Pressing the board focuses it, and
    the page then asks for the layout's words (they are stale after the start's event);
    they are drawn in place, keeping the node under the pointer, or the browser would
    fire no click and the tile would stay selected."""
    ann, bob, _ = start_two_player_game(new_page)
    sync([ann, bob])
    actor = ann if my_turn(ann) else bob
    actor.locator(f"[data-testid=hand-tile][data-tile='{hand(actor)[0]}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    x, y = _empty_felt_point(actor)
    actor.mouse.move(x, y)
    actor.mouse.down()
    actor.wait_for_timeout(150)
    actor.mouse.up()
    actor.wait_for_function("document.querySelector('[data-move]') === null")
    assert actor.get_attribute("[data-testid=turn-indicator]", "data-selected") in ("", None)
    # the words asked for on focus arrived and were drawn
    actor.wait_for_function(
        "document.querySelector('[data-testid=layout-description]').textContent !== ''"
    )


def test_a_click_completes_when_a_frame_lands_during_the_press(new_page) -> None:  # type: ignore[no-untyped-def]
    """A spectator arrives while the player to move holds a press on bare felt: the
    presence frame is drawn in place during the press (the felt under the pointer is
    the same node), so the click happens (the tile is deselected) and the count shows
    the spectator."""
    ann, bob, code = start_two_player_game(new_page)
    sync([ann, bob])
    actor = ann if my_turn(ann) else bob
    # the layout's words first (a press focusing the board asks for them; not this test)
    actor.focus("svg.board")
    actor.wait_for_function(
        "document.querySelector('[data-testid=layout-description]').textContent !== ''"
    )
    actor.locator(f"[data-testid=hand-tile][data-tile='{hand(actor)[0]}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    x, y = _empty_felt_point(actor)
    actor.mouse.move(x, y)
    actor.mouse.down()
    eve = new_page()
    eve.goto(f"/t/{code}?watch=1")
    # the presence frame has reached the actor's page during the press
    actor.wait_for_function("window.__fiveupTest.table().spectators === 1")
    actor.mouse.up()
    actor.wait_for_function("document.querySelector('[data-move]') === null")
    actor.wait_for_function(
        "document.querySelector('[data-testid=table-counts]').textContent.includes('1 watching')"
    )


def test_second_click_on_a_place_plays_and_pill_matches_the_log(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    # Play on (across rounds, R19) until a player holds a tile with a scoring place
    # (R3): select each playable tile in turn, read its pills, then click the best place.
    for _ in range(400):
        sync(pages)
        if any(p.query_selector("[data-testid=match-end]") for p in pages):
            break
        if all(round_over(p) for p in pages):
            for p in pages:
                ready = p.locator("[data-testid=next-round-button]:not([disabled])")
                if ready.count():
                    ready.click()
            ann.wait_for_function("document.querySelector('[data-testid=round-end]') === null")
            continue
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            ann.wait_for_timeout(100)
            continue
        before = seq_of(actor)
        playable = actor.eval_on_selector_all(
            "[data-testid=hand-tile][data-playable='1']", "els => els.map(e => e.dataset.tile)"
        )
        if not playable:
            if actor.query_selector("[data-testid=draw-button]"):
                actor.click("[data-testid=draw-button]")
            wait_seq(actor, before + 1)  # else the server's own pass (R19)
            continue
        best: dict[str, str] | None = None
        best_tile = selected = ""
        for tile in playable:
            selected = tile
            place = max(_select_and_read_places(actor, tile), key=lambda x: int(x["raw"]))
            if best is None or int(place["raw"]) > int(best["raw"]):
                best, best_tile = place, tile
            if int(best["raw"]) > 0:
                break
        assert best is not None
        if selected != best_tile:
            _select_and_read_places(actor, best_tile)  # the best place is another tile's
        click_target(actor, best["move"])
        wait_seq(actor, before + 1)
        sync(pages)
        # The log's points for that move say what the pill said: raw → +displayed (R3).
        top = actor.inner_text("[data-testid=log] li:first-child")
        if int(best["raw"]) > 0:
            assert best["text"] == "+" + best["score"]
            assert f"{best['raw']} → +{best['score']}" in top
            return
    raise AssertionError("no scoring placement offered in a whole match")
