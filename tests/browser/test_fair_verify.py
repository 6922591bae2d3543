"""static/js/fair/verify.js in real headless Chromium (WebCrypto) against vectors made by
the Python side (app.fairness, app.records): both deal the same from the same seed, a
genuine round verifies, and a tampered stock order, commitment or draw fails (R5–R7,
R18, R22, R23; docs/fairness.md)."""

from __future__ import annotations

import functools
import http.server
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.engine import Match
from app.fairness import DealIds, commitment, deal_from_seed, next_round, start_match
from app.records import RecordMeta, record_from_match, to_data

STATIC = Path(__file__).resolve().parents[2] / "static"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/blank":
            body = b"<!doctype html><title>fair</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def guess_type(self, path: Any) -> str:
        return "text/javascript" if str(path).endswith(".js") else super().guess_type(path)


@pytest.fixture(scope="module")
def static_url() -> Iterator[str]:
    """``static/`` over HTTP on 127.0.0.1 (a secure context, so WebCrypto is there)."""
    handler = functools.partial(_Quiet, directory=str(STATIC))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def page(browser: Any, static_url: str) -> Iterator[Any]:
    ctx = browser.new_context(base_url=static_url)
    errors: list[str] = []
    p = ctx.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto("/blank")
    yield p
    ctx.close()
    assert not errors, errors


def js(page: Any, body: str, arg: Any) -> Any:
    """Run ``body`` (an async function of ``m`` = the module and ``v`` = ``arg``)."""
    return page.evaluate(
        f"async (v) => {{ const m = await import('/js/fair/verify.js'); return await ({body})(m, v); }}",
        arg,
    )


def fair_record(players: int, game: int, code: str = "K7QX2M") -> dict[str, Any]:
    """A whole match dealt from seeds, played at random to 61, as a JSON-form record."""
    rng = random.Random(f"fair/{players}/{game}")
    seeds = {1: rng.randbytes(32)}
    match: Match = start_match(seeds[1], players, DealIds(code, game, 1))
    while True:
        while not match.round_over:
            seat = match.turn
            assert seat is not None
            match.play(seat, rng.choice(match.legal_moves(seat)))
        if match.over:
            break
        n = match.round_number + 1
        seeds[n] = rng.randbytes(32)
        next_round(match, seeds[n], DealIds(code, game, n))
    meta = RecordMeta("2026-11-30", code, game, [f"P{s}" for s in range(players)], seeds)
    return to_data(record_from_match(match, meta))


VERIFY_ALL = (
    "(m, rec) => Promise.all(rec.rounds.map((_, i) => m.verifyRound(m.recordRound(rec, i))))"
)
VERIFY_ONE = "(m, v) => m.verifyRound(m.recordRound(v.rec, v.i))"


def test_the_browser_deals_and_commits_exactly_as_python_does(page: Any) -> None:
    cases = []
    for i in range(12):
        seed = random.Random(i).randbytes(32)
        ids = DealIds(["ABC123", "K7QX2M", "zz_9-a"][i % 3], i // 3, 1 + i % 5)
        cases.append(
            {
                "seed": seed.hex(),
                "players": 2 + i % 3,
                "code": ids.code,
                "match": ids.match,
                "round": ids.round,
            }
        )
    got = js(
        page,
        "(m, cs) => Promise.all(cs.map(async (c) => ({deal: await m.dealFromSeed(c.seed, c.players, c.code, c.match, c.round),"
        " commitment: await m.commitmentOf(c.seed, c.code, c.match, c.round)})))",
        cases,
    )
    for case, out in zip(cases, got, strict=True):
        ids = DealIds(case["code"], case["match"], case["round"])
        deal = deal_from_seed(bytes.fromhex(case["seed"]), case["players"], ids)
        assert out["deal"] == {
            "hands": [list(h) for h in deal.hands],
            "stock": list(deal.stock),
            "lot": deal.lot,
        }
        assert out["commitment"] == commitment(bytes.fromhex(case["seed"]), ids)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_of_a_genuine_match_is_verified_in_the_browser(page: Any, players: int) -> None:
    rec = fair_record(players, 1)
    verdicts = js(page, VERIFY_ALL, rec)
    assert verdicts == [{"ok": True, "reason": "deal verified"}] * len(rec["rounds"])


def _round_with_draws(rec: dict[str, Any]) -> int:
    return next(
        i for i, r in enumerate(rec["rounds"]) if any(m["move"] == "draw" for m in r["moves"])
    )


def test_a_tampered_stock_order_fails_in_the_browser(page: Any) -> None:
    rec = fair_record(3, 2)
    i = _round_with_draws(rec)
    stock = rec["rounds"][i]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    verdict = js(page, VERIFY_ONE, {"rec": rec, "i": i})
    assert verdict["ok"] is False and "stock order" in verdict["reason"]


def test_a_tampered_commitment_fails_in_the_browser(page: Any) -> None:
    rec = fair_record(2, 3)
    c = rec["rounds"][0]["commitment"]
    rec["rounds"][0]["commitment"] = ("1" if c[0] == "0" else "0") + c[1:]
    verdict = js(page, VERIFY_ONE, {"rec": rec, "i": 0})
    assert verdict == {"ok": False, "reason": "the commitment does not match the revealed seed"}


def test_a_draw_other_than_the_next_committed_tile_fails_in_the_browser(page: Any) -> None:
    """R18: what a server dealing from another stock order would have shown the drawer."""
    rec = fair_record(4, 4)
    i = _round_with_draws(rec)
    draw = next(m for m in rec["rounds"][i]["moves"] if m["move"] == "draw")
    draw["drawn"] = next(t for t in rec["rounds"][i]["stock"] if t != draw["drawn"])
    verdict = js(page, VERIFY_ONE, {"rec": rec, "i": i})
    assert verdict["ok"] is False and "R18" in verdict["reason"]


def test_with_draws_hidden_the_revealed_hands_still_expose_another_deal(page: Any) -> None:
    """A spectator sees no drawn tiles; the hands revealed at the end (R22) must match."""
    rec = fair_record(2, 5)
    for r in rec["rounds"]:
        for m in r["moves"]:
            if m["move"] == "draw":
                m["drawn"] = None
    assert js(page, VERIFY_ALL, rec) == [{"ok": True, "reason": "deal verified"}] * len(
        rec["rounds"]
    )
    end = rec["rounds"][0]["end"]["hands"]
    loser = next(s for s, h in enumerate(end) if h)
    swap_in = next(t for t in rec["rounds"][0]["stock"] if all(t not in h for h in end))
    end[loser][0] = swap_in
    verdict = js(page, VERIFY_ONE, {"rec": rec, "i": 0})
    assert verdict["ok"] is False and "R22" in verdict["reason"]


def test_a_wrong_starter_fails_in_the_browser(page: Any) -> None:
    rec = fair_record(3, 6)
    rec["rounds"][0]["starter"] = (rec["rounds"][0]["starter"] + 1) % 3
    verdict = js(page, VERIFY_ONE, {"rec": rec, "i": 0})
    assert verdict["ok"] is False and "lot" in verdict["reason"]
