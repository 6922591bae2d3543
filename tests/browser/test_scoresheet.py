"""The score sheet: after two rounds, what the players' and a spectator's
sheets say equals the server's settlements (GET /api/tables/{code}/history): per round
the points made (R3/R15), the deductions (R22) and the running totals; a past round's
final board and settlement stay reachable from the sheet after the next deal, and the
round-end dialog tucked away with "Show the board" stays reachable until the deal."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from .conftest import publish, shot
from .flows import play_until_round_end, start_two_player_game, sync


def _history(page: Any, code: str) -> dict[str, Any]:
    base = page.evaluate("location.origin")
    with urllib.request.urlopen(f"{base}/api/tables/{code}/history") as r:
        return json.load(r)  # type: ignore[no-any-return]


def _sheet(page: Any) -> dict[int, list[dict[str, str]]]:
    rows = page.eval_on_selector_all(
        "[data-testid=score-sheet] [data-testid=sheet-row]",
        """els => els.map(r => [Number(r.dataset.round), [...r.querySelectorAll('td[data-side]')]
              .map(c => ({made: c.dataset.made, ded: c.dataset.deducted, total: c.dataset.total}))])""",
    )
    return {r: cells for r, cells in rows}


def _expected(rnd: dict[str, Any], sides: list[list[int]]) -> list[dict[str, str]]:
    s = rnd["settlement"]
    out = []
    for side, seats in enumerate(sides):
        made = sum(
            m["points"] // 5
            for m in rnd["moves"]
            if m["kind"] in ("open", "place") and m["seat"] in seats
        )
        ded = sum(s["deductions"][seat] for seat in seats)
        out.append({"made": str(made), "ded": str(ded), "total": str(s["scores"][side])})
    return out


def test_score_sheet_after_two_rounds_equals_the_servers_settlements(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(2611)
    ann, bob, code = start_two_player_game(new_page)
    eve = new_page()
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    pages = [ann, bob, eve]
    play_until_round_end(pages, rng)
    # "Show the board" tucks the dialog away; it stays one click away until the deal.
    eve.click("[data-testid=hide-results]")
    eve.wait_for_selector("[data-testid=show-results]")
    assert eve.query_selector("[data-testid=round-end]") is None
    assert eve.query_selector(".dialog-tab [data-testid=next-round-countdown]") is not None
    eve.click("[data-testid=show-results]")
    eve.wait_for_selector("[data-testid=round-end]")
    for p in (ann, bob):
        p.click("[data-testid=next-round-button]")
    for p in pages:
        p.wait_for_selector("[data-testid=play][data-phase=playing]")
    play_until_round_end(pages, rng)
    sync(pages)
    hist = _history(ann, code)
    sides = [[0], [1]]
    settled = [r for r in hist["rounds"] if r["settlement"]]
    assert [r["round"] for r in settled] == [1, 2]
    for p in pages:
        p.wait_for_function(
            "document.querySelectorAll('[data-testid=sheet-row][data-settled=\"1\"]').length >= 2"
        )
        sheet = _sheet(p)
        for rnd in settled:
            assert sheet[rnd["round"]] == _expected(rnd, sides), (rnd["round"], sheet)
        # Running totals: the previous total + made - deducted (R22), from zero.
        prev = [0, 0]
        for r in (1, 2):
            for side in (0, 1):
                c = sheet[r][side]
                assert prev[side] + int(c["made"]) - int(c["ded"]) == int(c["total"])
                prev[side] = int(c["total"])
    # After the next deal, round 1's board and settlement are still there to look at.
    for p in (ann, bob):
        p.click("[data-testid=next-round-button]")
    eve.wait_for_selector("[data-testid=play][data-phase=playing]")
    eve.wait_for_function("document.querySelectorAll('[data-testid=sheet-review]').length >= 2")
    eve.click("[data-testid=sheet-review][data-round='1']")
    eve.wait_for_selector("[data-testid=round-review][data-round='1']")
    r1 = settled[0]
    for seat in (0, 1):
        shown = eve.eval_on_selector_all(
            f"[data-testid=round-review] [data-testid=settle-hand-{seat}] [data-tile]",
            "els => els.map(e => e.dataset.tile)",
        )
        assert shown == r1["settlement"]["hands"][seat]
    placed = [m["tile"] for m in r1["moves"] if m["kind"] in ("open", "place")]
    drawn = eve.eval_on_selector_all(
        "[data-testid=review-board] [data-board-tile]", "els => els.map(e => e.dataset.tile)"
    )
    assert sorted(drawn) == sorted(placed)
    shot(eve, "13-round-review")
    publish("13-round-review.png", "round-review.png")
    eve.click("[data-testid=close-review]")
    eve.wait_for_function("document.querySelector('[data-testid=round-review]') === null")
    shot(ann, "14-score-sheet")
    publish("14-score-sheet.png", "score-sheet.png")
