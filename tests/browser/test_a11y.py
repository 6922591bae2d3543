"""Accessibility audit: axe-core, run inside the page (the PyPI package
axe-playwright-python ships it), finds no serious or critical violation on the home
page, the waiting room, the table in play (a player's and a spectator's page, with
targets shown) and the rules page."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

from .flows import create_table, my_turn, start_two_player_game, sync

AXE = Axe()


def _serious(page: Any) -> list[str]:
    res = AXE.run(page)
    out = []
    for v in res.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:4])
            out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {nodes}")
    return out


def test_home_and_rules_pages_pass_axe(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=hero]")
    page.wait_for_function(
        "document.querySelector('[data-testid=lobby-empty]').textContent !== 'Loading…'"
    )
    assert _serious(page) == []
    page.goto("/static/rules.html")
    page.wait_for_selector("[data-testid=rules]")
    assert _serious(page) == []


def test_waiting_room_passes_axe(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=3, host="Ann")
    assert _serious(ann) == []
    eve = new_page()
    eve.goto(f"/t/{code}")
    eve.wait_for_selector("[data-testid=join-name]")
    assert _serious(eve) == []


def test_table_in_play_passes_axe(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, code = start_two_player_game(new_page)
    sync([ann, bob])
    actor = ann if my_turn(ann) else bob
    actor.locator("[data-testid=hand-tile][data-playable='1']").first.click()
    actor.wait_for_selector("svg.board [data-move]")
    assert _serious(actor) == []
    eve = new_page(390, 844)
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    assert _serious(eve) == []


def test_result_dialogs_pass_axe(new_page) -> None:  # type: ignore[no-untyped-def]
    """The round-end dialog (drawn from a real settled round's view) and the match-end
    screen with its score sheet."""
    import json
    import random
    import urllib.request

    from app.engine import Match, view_for

    ann, _bob, code = start_two_player_game(new_page)
    m = Match.new(2, random.Random(3))
    rng = random.Random(3)
    base = ann.evaluate("location.origin")
    with urllib.request.urlopen(f"{base}/api/tables/{code}") as r:
        info = json.load(r)

    def show(seq: int) -> None:
        frame = {"type": "snapshot", "seq": seq, "you": 0, "table": info,
                 "view": view_for(m, 0), "events": []}  # fmt: skip
        ann.evaluate("f => window.__fiveupTest.inject(f)", frame)

    while not m.round_over:
        m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
    show(10_000)
    ann.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
    assert _serious(ann) == []
    while not m.over:
        if m.round_over:
            m.next_round(random.Random(rng.randrange(1 << 30)))
        while not m.round_over:
            m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
    show(10_001)
    ann.wait_for_selector("[data-testid=match-end]")
    assert _serious(ann) == []
