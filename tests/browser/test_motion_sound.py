"""Motion and sound: tiles slide and points float (each animation at most
250 ms) unless the user asked for reduced motion, then nothing moves; sounds are made
with WebAudio, never before the user has interacted with the page, and a mute toggle
is remembered in the browser."""

from __future__ import annotations

import random
from typing import Any

from .flows import act, create_table, join_table, my_turn, sync


def _play_some(pages: list[Any], rng: random.Random, n: int, until: Any = None) -> None:
    """``n`` steps of play (a move, or the next round asked for), or fewer once
    ``until()`` holds."""
    for _ in range(n):
        sync(pages)
        if until is not None and until():
            return
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            for p in pages:  # a round is over: its seats ask for the next one
                ready = p.locator("[data-testid=next-round-button]:not([disabled])")
                if ready.count():
                    ready.first.click()
            pages[0].wait_for_timeout(100)
            continue
        act(actor, rng)
    sync(pages)


def _game(new_page, reduce: bool):  # type: ignore[no-untyped-def]
    ann = new_page()
    bob = new_page()
    eve = new_page()
    for p in (ann, bob, eve):
        p.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
    code = create_table(ann, players=2, host="Ann", public=False)
    join_table(bob, code, name="Bob", seat=1)
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=waiting-room]")
    ann.wait_for_selector("[data-testid=start-button]:not([disabled])")
    ann.click("[data-testid=start-button]")
    for p in (ann, bob, eve):
        p.wait_for_selector("[data-testid=play]")
    return ann, bob, eve


def _motion(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => ({ started: window.__fiveupMotion.started,
                    running: document.getAnimations().length,
                    longest: Math.max(0, ...document.getAnimations().map(a => a.effect.getTiming().duration)) })"""
    )


def test_tiles_slide_within_250ms(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, eve = _game(new_page, reduce=False)
    eve.evaluate("""() => { window.__durations = []; const orig = Element.prototype.animate;
      Element.prototype.animate = function (k, o) { window.__durations.push(o.duration); return orig.call(this, k, o); }; }""")
    # Until three tiles slid in on the spectator's board (the deal is random: draws and
    # passes move no tile there, so a fixed number of moves may lay fewer than three).
    _play_some([ann, bob, eve], random.Random(5), 60, until=lambda: _motion(eve)["started"] >= 3)
    assert _motion(eve)["started"] >= 3
    durations = eve.evaluate("window.__durations")
    assert durations and max(durations) <= 250


def test_reduced_motion_turns_animation_off(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, eve = _game(new_page, reduce=True)
    _play_some([ann, bob, eve], random.Random(5), 6)
    for p in (ann, bob, eve):
        m = _motion(p)
        assert m["started"] == 0 and m["running"] == 0, m


def test_sounds_wait_for_interaction_and_mute_is_remembered(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, eve = _game(new_page, reduce=True)
    pages = [ann, bob, eve]
    rng = random.Random(9)

    # Play until the spectator's page has asked for a sound (a scoring move) and Ann's
    # turn has come back after she clicked (the deal is random: either may come first).
    def ann_heard_her_turn() -> bool:
        sounds = ann.evaluate("window.__fiveupTest.sounds()")
        return any(s["name"] == "turn" and s["played"] for s in sounds)

    for _ in range(120):
        _play_some(pages, rng, 1)
        heard = eve.evaluate("window.__fiveupTest.sounds()")
        if heard and ann_heard_her_turn():
            break
    # The spectator has not touched the page: nothing has played for them.
    assert heard and not any(s["played"] for s in heard)
    # Ann (who clicked) heard her turn come.
    assert ann_heard_her_turn()
    # Ann mutes; the choice survives a reload and nothing plays any more. (The click goes
    # to the toggle itself: the round may just have ended, its settlement over the page.)
    ann.locator("[data-testid=mute-toggle]").dispatch_event("click")
    ann.wait_for_selector("[data-testid=mute-toggle][aria-pressed=true]")
    ann.reload()
    ann.wait_for_selector("[data-testid=mute-toggle][aria-pressed=true]")
    ann.keyboard.press("Shift")  # an interaction, still muted
    for _ in range(60):
        _play_some(pages, rng, 1)
        after = ann.evaluate("window.__fiveupTest.sounds()")
        if after:
            break
    assert after and not any(s["played"] for s in after)
