"""Presence that tells the truth, in the browser: the player to move hides
their page — the other player sees them "away" (with a ticking "since") and the status
line "<name> (away) to play", still away after their socket reconnects; they show it
again — connected; they close the page — the other sees "disconnected" and
"<name> (disconnected) to play". A spectator sees the same marks."""

from __future__ import annotations

import re
from typing import Any

from .conftest import shot
from .flows import start_two_player_game

SET_VISIBILITY = """state => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def _mark(page: Any, seat: int) -> str | None:
    """The presence state drawn on a seat of the table in play."""
    return page.get_attribute(f"[data-testid=seat-area-{seat}] [data-presence]", "data-presence")


def _wait_mark(page: Any, seat: int, state: str) -> None:
    page.wait_for_selector(f"[data-testid=seat-area-{seat}] [data-presence={state}]")


def _status(page: Any) -> str:
    return page.text_content("[data-testid=turn-indicator]") or ""


def test_the_other_player_sees_away_then_disconnected_on_the_seat_and_in_the_status(
    new_page: Any,
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    turn = int(ann.get_attribute("[data-testid=play]", "data-turn") or "0")
    mover, other = (ann, bob) if turn == 0 else (bob, ann)
    name = "Ann" if turn == 0 else "Bob"
    watcher = new_page()
    watcher.goto(f"/t/{code}?watch=1")
    watcher.wait_for_selector("[data-testid=play]")
    for page in (other, watcher):
        _wait_mark(page, turn, "connected")
    assert _status(other) == f"{name} to play"

    mover.evaluate(SET_VISIBILITY, "hidden")
    for page in (other, watcher):
        _wait_mark(page, turn, "away")
    other.wait_for_function(
        "t => document.querySelector('[data-testid=turn-indicator]').textContent === t",
        arg=f"{name} (away) to play",
    )
    label = other.text_content(f"[data-testid=presence-{turn}]") or ""
    assert re.fullmatch(r"away \d+:\d\d", label), label

    # the hidden page's socket drops and reconnects: it says it is away again at once
    since = other.get_attribute(f"[data-testid=presence-{turn}]", "data-presence-since")
    mover.evaluate("window.__fiveupTest.dropSocket()")
    other.wait_for_function(
        """([s, before]) => { const el = document.querySelector(s);
             return !!el && el.dataset.state === "away" && el.dataset.presenceSince !== before; }""",
        arg=[f"[data-testid=presence-{turn}]", since],
    )

    mover.evaluate(SET_VISIBILITY, "visible")
    for page in (other, watcher):
        _wait_mark(page, turn, "connected")
    other.wait_for_function(
        "t => document.querySelector('[data-testid=turn-indicator]').textContent === t",
        arg=f"{name} to play",
    )

    mover.close()
    for page in (other, watcher):
        _wait_mark(page, turn, "disconnected")
    other.wait_for_function(
        "t => document.querySelector('[data-testid=turn-indicator]').textContent === t",
        arg=f"{name} (disconnected) to play",
    )
    label = other.text_content(f"[data-testid=presence-{turn}]") or ""
    assert re.fullmatch(r"disconnected \d+:\d\d", label), label
    # the label ticks on its own (no frame needed): it shows a later time eventually
    other.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent !== t",
        arg=[f"[data-testid=presence-{turn}]", label],
    )
    assert _mark(other, 1 - turn) == "connected"
    shot(other, "presence_disconnected")
