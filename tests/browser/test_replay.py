"""The replay page and the in-browser deal check, in real Chromium against a real server
(docs/fairness.md, docs/record.md): two rounds played by clicking, the "Deal verified ✓"
mark in each round-end dialog, then /t/<code>/replay scrubbed with the slider, the step
buttons and the ←/→ keys over every move of both finished rounds (R22: every hand shown);
and a record whose stock order was tampered with is loudly refused by the browser."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from .conftest import shot
from .flows import play_until_round_end, start_two_player_game


def _record(server: str, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/tables/{code}/record.json") as r:
        return dict(json.load(r))


def _step(page: Any) -> dict[str, str]:
    return dict(
        page.eval_on_selector(
            "[data-testid=replay-step]",
            "e => ({step: e.dataset.step, round: e.dataset.round, kind: e.dataset.kind})",
        )
    )


def _marks_ok(page: Any, selector: str) -> None:
    mark = f":is({selector}) [data-testid=deal-verified]"
    page.wait_for_selector(f"{mark}[data-state=ok]")
    text = page.text_content(mark)
    assert text == "Deal verified ✓"


def test_two_finished_rounds_replay_with_scrubber_and_keys_and_verified_deals(  # type: ignore[no-untyped-def]
    new_page, server
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    rng = random.Random(12)
    for rnd in (1, 2):
        play_until_round_end([ann, bob], rng)
        for p in (ann, bob):
            _marks_ok(p, "[data-testid=round-end], [data-testid=match-end]")
        link = ann.get_attribute("[data-testid=replay-link]", "href")
        assert link == f"/t/{code}/replay?match=1"
        shot(ann, f"replay-round-end-{rnd}")
        if ann.query_selector("[data-testid=match-end]"):
            break
        for p in (ann, bob):
            p.click("[data-testid=next-round-button]")
        for p in (ann, bob):
            p.wait_for_selector("[data-testid=play][data-phase=playing]")

    record = _record(server, code)
    rounds = record["rounds"]
    assert len(rounds) == 2 and all(r["seed"] for r in rounds)  # round 3 runs: not in it
    total = sum(len(r["moves"]) + 2 for r in rounds)  # each round: deal, moves, settlement

    eve = new_page()  # anyone with the link, no seat
    eve.goto(f"/t/{code}/replay")
    eve.wait_for_selector("[data-testid=replay-step][data-step='0']")
    assert eve.get_attribute("[data-testid=replay-scrubber]", "max") == str(total - 1)
    for i in (0, 1):  # each finished round verified in this browser
        eve.wait_for_selector(
            f"[data-testid=replay-rounds] [data-round='{rounds[i]['round']}'][data-state=ok]"
        )
    _marks_ok(eve, ".replay-mark")
    # at the deal every hand is shown as dealt (R22 makes them public after the round)
    for seat in (0, 1):
        tiles = eve.get_attribute(f"[data-testid=replay-hand-{seat}]", "data-tiles")
        assert tiles is not None and sorted(tiles.split()) == sorted(rounds[0]["hands"][seat])
    assert eve.get_attribute("[data-testid=board]", "data-tiles") == "0"

    # → steps through round 1 move by move; the board grows with each placement
    placed = 0
    for k, move in enumerate(rounds[0]["moves"], start=1):
        eve.keyboard.press("ArrowRight")
        eve.wait_for_selector(f"[data-testid=replay-step][data-step='{k}']")
        if move["move"] not in ("draw", "pass"):
            placed += 1
        assert eve.get_attribute("[data-testid=board]", "data-tiles") == str(placed)
        if move["move"] == "draw":
            hand = eve.get_attribute(f"[data-testid=replay-hand-{move['seat']}]", "data-tiles")
            assert move["drawn"] in (hand or "").split()
        if "scores" in move:
            scores = eve.get_attribute("[data-testid=replay-scores]", "data-scores")
            assert scores == " ".join(str(s) for s in move["scores"])
    eve.keyboard.press("ArrowRight")  # the settlement: left hands as revealed (R22)
    assert _step(eve) == {"step": str(len(rounds[0]["moves"]) + 1), "round": "1", "kind": "end"}
    for seat in (0, 1):
        tiles = eve.get_attribute(f"[data-testid=replay-hand-{seat}]", "data-tiles") or ""
        assert sorted(tiles.split()) == sorted(rounds[0]["end"]["hands"][seat])
    eve.keyboard.press("ArrowRight")
    assert _step(eve)["round"] == "2" and _step(eve)["kind"] == "deal"
    eve.keyboard.press("ArrowLeft")
    assert _step(eve)["round"] == "1" and _step(eve)["kind"] == "end"

    # the scrubber jumps anywhere; the step buttons move one at a time; End / Home
    eve.eval_on_selector(
        "[data-testid=replay-scrubber]",
        f"e => {{ e.value = '{total - 1}'; e.dispatchEvent(new Event('input')); }}",
    )
    assert _step(eve) == {"step": str(total - 1), "round": "2", "kind": "end"}
    shot(eve, "replay-end")
    eve.click("[data-testid=replay-prev]")
    assert _step(eve)["step"] == str(total - 2)
    eve.click("[data-testid=replay-first]")
    assert _step(eve)["step"] == "0"
    eve.click("[data-testid=replay-next]")
    assert _step(eve)["step"] == "1"
    eve.keyboard.press("End")
    assert _step(eve)["step"] == str(total - 1)
    href = eve.get_attribute("[data-testid=download-record]", "href")
    assert href == f"/api/tables/{code}/record.txt?match=1"


def test_a_tampered_stock_order_is_refused_loudly_by_the_browser(  # type: ignore[no-untyped-def]
    new_page, server
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    play_until_round_end([ann, bob], random.Random(4))
    _marks_ok(ann, "[data-testid=round-end], [data-testid=match-end]")
    record = _record(server, code)
    stock = record["rounds"][0]["stock"]
    stock[0], stock[-1] = stock[-1], stock[0]  # the same tiles in another order
    body = json.dumps(record)

    eve = new_page()
    eve.route(
        "**/record.json*",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    eve.goto(f"/t/{code}/replay")
    eve.wait_for_selector(".replay-mark [data-testid=deal-verified][data-state=failed]")
    text = eve.text_content(".replay-mark [data-testid=deal-verified]") or ""
    assert text.startswith("DEAL NOT VERIFIED") and "stock order" in text
    # the same check, called directly: the genuine record verifies, the tampered one not
    verdicts = eve.evaluate(
        """async ([genuine, tampered]) => {
          const { verifyRound, recordRound } = await import('/static/js/fair/verify.js');
          return [await verifyRound(recordRound(genuine, 0)), await verifyRound(recordRound(tampered, 0))];
        }""",
        [_record(server, code), record],
    )
    assert verdicts[0] == {"ok": True, "reason": "deal verified"}
    assert verdicts[1]["ok"] is False and "stock order" in verdicts[1]["reason"]
