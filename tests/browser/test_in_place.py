"""The table updates in place (static/js/reconcile.js): what a frame does not change
keeps its DOM node and gets no write, so a tile on the board, a focused hand tile and
the score sheet's rows are the same nodes after further moves; server frames arriving
in a burst are drawn once (one render per animation frame); a click lands even when
frames are drawn between its press and its release."""

from __future__ import annotations

import random
from typing import Any

from .flows import (
    act,
    hand,
    my_turn,
    play_until_round_end,
    seq_of,
    start_two_player_game,
    sync,
    wait_seq,
)

# Holds the page's WebSocket messages while `window.__held` is a list, and delivers
# them all in one task on `window.__release()`: real server frames, in a burst.
HOLD_FRAMES = """(() => {
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  window.__held = null;
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    configurable: true,
    get() { return this.__handler || null; },
    set(fn) {
      this.__handler = fn;
      desc.set.call(this, (ev) => { if (window.__held) window.__held.push([fn, ev]); else fn(ev); });
    },
  });
  window.__release = () => {
    const held = window.__held || [];
    window.__held = null;
    for (const [fn, ev] of held) fn(ev);
    return held.length;
  };
})();"""

# Resolves after two animation frames: a render asked for by a frame has happened.
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# Counts every change (nodes, attributes, text) under the elements `sel` matches.
OBSERVE = """(sel) => {
  window.__mutations = 0;
  const obs = new MutationObserver((list) => { window.__mutations += list.length; });
  for (const el of document.querySelectorAll(sel)) {
    obs.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  window.__observer = obs;
  return document.querySelectorAll(sel).length;
}"""

STOP_OBSERVING = """() => { window.__mutations += window.__observer.takeRecords().length;
  window.__observer.disconnect(); return window.__mutations; }"""


def _presence(page: Any, spectators: int) -> None:
    """Feed the page a presence frame (through its socket's own handling)."""
    page.evaluate(
        """(n) => window.__fiveupTest.inject({type: "presence", connected: [0, 1], spectators: n})""",
        spectators,
    )


def _until_tiles_on_board(pages: list[Any], rng: random.Random, n: int) -> None:
    for _ in range(60):
        sync(pages)
        if pages[0].locator("[data-board-tile]").count() >= n:
            return
        act(next(p for p in pages if my_turn(p)), rng)
    raise AssertionError("no tiles were laid")


def _actor(pages: list[Any]) -> Any:
    sync(pages)
    for _ in range(50):
        found = next((p for p in pages if my_turn(p)), None)
        if found is not None:
            return found
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody to move")


def test_a_board_tile_is_the_same_node_after_further_moves(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    _until_tiles_on_board(pages, rng, 1)
    for p in pages:
        p.evaluate("""() => { const g = document.querySelector('[data-board-tile]');
            g.__kept = g.dataset.boardTile; document.querySelector('[data-testid=log]').__kept = 1; }""")
    before = seq_of(ann)
    for _ in range(4):
        act(_actor(pages), rng)
    sync(pages)
    assert seq_of(ann) >= before + 4
    for p in pages:
        kept = p.evaluate("""() => { const g = [...document.querySelectorAll('[data-board-tile]')]
            .find((x) => x.__kept); return g ? g.__kept === g.dataset.boardTile : null; }""")
        assert kept is True, "the first tile's node was replaced"
        assert p.evaluate("document.querySelector('[data-testid=log]').__kept") == 1


def test_a_burst_of_frames_is_drawn_once(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(12)
    ann, bob, code = start_two_player_game(new_page)
    eve = new_page()
    eve.add_init_script(HOLD_FRAMES)
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    pages = [ann, bob]
    sync([ann, bob, eve])
    eve.evaluate("window.__held = []")
    for _ in range(3):
        act(_actor(pages), rng)
    top = sync(pages)
    eve.wait_for_function("window.__held.length >= 3")
    eve.evaluate(TWO_FRAMES)
    renders = eve.evaluate("window.__fiveupTest.renders()")
    released = eve.evaluate("window.__release()")
    assert released >= 3
    eve.evaluate(TWO_FRAMES)
    assert seq_of(eve) == top
    assert eve.evaluate("window.__fiveupTest.renders()") - renders == 1
    # and the one render shows where the burst ended
    moves = ann.eval_on_selector_all("[data-testid=log] li[data-notation]", "els => els.length")
    assert (
        eve.eval_on_selector_all("[data-testid=log] li[data-notation]", "els => els.length")
        == moves
    )


def test_unchanged_parts_get_no_writes(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(13)
    ann, bob, code = start_two_player_game(new_page)
    pages = [ann, bob]
    _until_tiles_on_board(pages, rng, 1)
    actor = _actor(pages)
    # A spectator arrives: only the head's counts change on the players' pages.
    parts = "svg.board, [data-testid=hand], [data-testid=score-sheet], [data-testid=log], .seat-area .backs"
    assert actor.evaluate(OBSERVE, parts) == 5
    renders = actor.evaluate("window.__fiveupTest.renders()")
    eve = new_page()
    eve.goto(f"/t/{code}?watch=1")
    actor.wait_for_function(
        "document.querySelector('[data-testid=table-counts]').textContent.includes('1 watching')"
    )
    assert actor.evaluate("window.__fiveupTest.renders()") > renders
    assert actor.evaluate(STOP_OBSERVING) == 0
    # The player to move plays: the other player's hand (face down on the mover's page)
    # is not touched, and neither is the score sheet when the move scored nothing.
    newest_points = """() => { const log = window.__fiveupTest.view().log.filter((e) => e.type === 'move');
        return log[log.length - 1].points || 0; }"""
    quiet = 0
    for _ in range(12):
        actor = _actor(pages)
        actor.evaluate(OBSERVE, ".seat-area .backs")
        before = seq_of(actor)
        act(actor, rng)
        actor.evaluate(TWO_FRAMES)
        assert actor.evaluate(STOP_OBSERVING) == 0, "the other player's hand was rewritten"
        actor = _actor(pages)
        actor.evaluate(OBSERVE, "[data-testid=score-sheet]")
        before = seq_of(actor)
        act(actor, rng)
        actor.evaluate(TWO_FRAMES)
        sheet = actor.evaluate(STOP_OBSERVING)
        assert seq_of(actor) > before
        if actor.evaluate(newest_points) == 0:
            assert sheet == 0, "the score sheet was rewritten by a move that scored nothing"
            quiet += 1
        if quiet >= 2:
            return
    raise AssertionError("no move that scored nothing")


def test_a_click_lands_when_frames_are_drawn_during_the_press(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _ = start_two_player_game(new_page)
    actor = _actor([ann, bob])
    tile = actor.eval_on_selector(
        "[data-testid=hand-tile][data-playable='1']", "e => e.dataset.tile"
    )

    def press_with_frames(locator: Any) -> None:
        box = locator.bounding_box()
        assert box
        actor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        actor.mouse.down()
        renders = actor.evaluate("window.__fiveupTest.renders()")
        for n in (1, 0, 1):
            _presence(actor, n)
            actor.evaluate(TWO_FRAMES)
        assert actor.evaluate("window.__fiveupTest.renders()") >= renders + 3
        actor.mouse.up()

    press_with_frames(actor.locator(f"[data-testid=hand-tile][data-tile='{tile}']"))
    assert actor.get_attribute("[data-testid=turn-indicator]", "data-selected") == tile
    move = actor.eval_on_selector("svg.board [data-move]", "e => e.dataset.move")
    before = seq_of(actor)
    press_with_frames(actor.locator(f"svg.board [data-move='{move}'] .target-rect"))
    wait_seq(actor, before + 1)
    assert actor.get_attribute("[data-testid=log] li:first-child", "data-notation") == move


def test_focus_stays_on_its_element_across_an_arriving_frame(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(14)
    ann, bob, _ = start_two_player_game(new_page)
    actor = _actor([ann, bob])
    waiting = bob if actor is ann else ann
    tile = hand(waiting)[0]
    waiting.focus(f"[data-testid=hand-tile][data-tile='{tile}']")
    waiting.evaluate("document.activeElement.__kept = 1")
    before = seq_of(waiting)
    act(actor, rng)  # the other player's move arrives on the waiting page
    wait_seq(waiting, before + 1)
    waiting.evaluate(TWO_FRAMES)
    assert waiting.evaluate("document.activeElement.__kept") == 1
    assert waiting.evaluate("document.activeElement.dataset.tile") == tile
    # and with a tile selected by the keyboard, a frame keeps the focus and the target
    actor = waiting
    for _ in range(len(hand(actor)) + 1):
        if actor.evaluate("document.activeElement.dataset.playable") == "1":
            break
        actor.keyboard.press("ArrowRight")
    if actor.evaluate("document.activeElement.dataset.playable") != "1":
        return  # nothing playable (a draw): the focus part above is the point
    actor.keyboard.press("Enter")
    actor.keyboard.press("ArrowRight")
    focused = actor.get_attribute("svg.board .target.focused", "data-move")
    actor.evaluate("document.activeElement.__kept = 2")
    _presence(actor, 1)
    actor.evaluate(TWO_FRAMES)
    assert actor.evaluate("document.activeElement.__kept") == 2
    assert actor.get_attribute("svg.board .target.focused", "data-move") == focused


def test_score_sheet_rows_are_kept_in_place(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(15)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    for p in pages:
        p.wait_for_selector("[data-testid=sheet-row][data-round='1']")
        p.evaluate("document.querySelector(\"[data-testid=sheet-row][data-round='1']\").__kept = 1")
    play_until_round_end(pages, rng)
    for p in pages:
        p.click("[data-testid=next-round-button]")
    for p in pages:
        p.wait_for_selector("[data-testid=sheet-row][data-round='2']")
        # the settled round (from the history fetched for the new round) on the same row
        p.wait_for_selector("[data-testid=sheet-row][data-round='1'][data-settled='1']")
        kept = p.evaluate(
            "document.querySelector(\"[data-testid=sheet-row][data-round='1']\").__kept"
        )
        assert kept == 1, "round 1's row was replaced"
