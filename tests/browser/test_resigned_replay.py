"""The replay of a resigned match, in real Chromium against a real server (docs/record.md,
docs/fairness.md): Bob resigns with the button in the middle of round 1; the replay page
steps through that round's moves to a last step "Bob resigned.", and the round's deal
is verified in the browser from the seed the resignation revealed."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from .flows import act, my_turn, start_two_player_game, sync


def _record(server: str, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/tables/{code}/record.json") as r:
        return dict(json.load(r))


def test_a_resigned_round_replays_to_the_resignation_with_its_deal_verified(  # type: ignore[no-untyped-def]
    new_page, server
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    rng = random.Random(3)
    for _ in range(3):
        sync([ann, bob])
        mover = ann if my_turn(ann) else bob
        act(mover, rng)
    sync([ann, bob])
    assert _record(server, code)["rounds"] == []  # the round in play is hidden
    bob.on("dialog", lambda d: d.accept())
    bob.click("[data-testid=seat-panel] summary")
    bob.click("[data-testid=resign]")
    ann.wait_for_selector("[data-testid=match-end]")

    record = _record(server, code)
    (rnd,) = record["rounds"]
    assert record["resigned"] == 1 and rnd["resigned"] == 1 and "end" not in rnd
    assert rnd["seed"] and len(rnd["moves"]) >= 3

    eve = new_page()
    eve.goto(f"/t/{code}/replay")
    eve.wait_for_selector("[data-testid=replay-step][data-step='0']")
    total = len(rnd["moves"]) + 2  # the deal, the moves, the resignation
    assert eve.get_attribute("[data-testid=replay-scrubber]", "max") == str(total - 1)
    eve.wait_for_selector("[data-testid=replay-rounds] [data-round='1'][data-state=ok]")
    eve.keyboard.press("End")
    eve.wait_for_selector(f"[data-testid=replay-step][data-step='{total - 1}']")
    assert eve.get_attribute("[data-testid=replay-step]", "data-kind") == "resigned"
    assert eve.text_content("[data-testid=replay-event]") == "Round 1: Bob resigned."
    placed = sum(m["move"] not in ("draw", "pass") for m in rnd["moves"])
    assert eve.get_attribute("[data-testid=board]", "data-tiles") == str(placed)
    eve.keyboard.press("ArrowLeft")
    assert eve.get_attribute("[data-testid=replay-step]", "data-kind") == "move"
