"""Phone first: at 390x844 in portrait, while playing, the scores, the last
move and your hand are on the first screen without scrolling; the log and the score
sheet are one tap away."""

from __future__ import annotations

import random

from .conftest import publish, shot
from .flows import act, my_turn, start_two_player_game, sync


def test_phone_shows_scores_last_move_and_hand_without_scrolling(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(31)
    ann, bob, _ = start_two_player_game(new_page, bob_viewport=(390, 844))
    pages = [ann, bob]
    bob.click("[data-testid=hint-dismiss]")
    for _ in range(5):
        sync(pages)
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            ann.wait_for_timeout(100)
            continue
        act(actor, rng)
    sync(pages)
    bob.evaluate("window.scrollTo(0, 0)")
    bob.wait_for_function("window.scrollY === 0")
    boxes = bob.evaluate("""() => ['phone-scores', 'phone-last', 'hand'].map((id) => {
      const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
      return [id, r.top, r.bottom]; })""")
    for sel, top, bottom in boxes:
        assert top >= 0 and bottom <= 844, (sel, top, bottom)
    view = bob.evaluate("window.__fiveupTest.view()")
    scores = bob.eval_on_selector_all(
        "[data-testid=phone-scores] [data-side] strong", "els => els.map(e => e.textContent)"
    )
    assert scores == [str(s) for s in view["scores"]]
    newest = bob.inner_text("[data-testid=log] li:first-child")
    words = newest.split(". ", 1)[1].split(" · ")[0]
    assert bob.inner_text("[data-testid=phone-last]").startswith(words)
    shot(bob, "17-phone-first")
    publish("17-phone-first.png", "phone-table.png")
    # The log (and the score sheet after it) is one tap away.
    bob.click("[data-testid=show-log]")
    bob.wait_for_function(
        "(() => { const r = document.querySelector('[data-testid=log-card]').getBoundingClientRect();"
        " return r.top >= -1 && r.top < window.innerHeight; })()"
    )
