"""Small details of the pages, each checked in the page: the optional table name,
the name-length warning, the full-table visitor, "Copied!" going back, the spectator's
seats drawn once and nothing drawn over the board, the phone settlement dialog not
cut off, automatic passes marked, and a young layout drawn big and centred."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from app.engine import Match, view_for

from .conftest import publish, shot
from .flows import create_table, join_table, start_two_player_game


def _boxes_intersect(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_table_name_is_optional_and_long_names_warn(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    assert page.get_attribute("[data-testid=create-name]", "required") is None
    page.fill("[data-testid=create-host-name]", "A" * 30)
    hint = page.inner_text("[data-testid=name-hint]")
    assert "30" in hint and "24" in hint
    page.click("[data-testid=create-submit]")
    assert page.inner_text("[data-testid=home-error]")  # refused before asking the server
    assert page.query_selector("[data-testid=waiting-room]") is None
    page.fill("[data-testid=create-host-name]", "Marta")
    assert "30" not in page.inner_text("[data-testid=name-hint]")
    page.click("[data-testid=create-submit]")  # no table name: named after the host
    page.wait_for_selector("[data-testid=waiting-room]")
    assert "Marta" in page.inner_text(".table-head strong")


def test_full_table_visitor_and_copied_resets(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=2, host="Ann")
    ann.click("[data-testid=copy-invite]")
    ann.wait_for_function(
        "document.querySelector('[data-testid=copy-invite]').textContent === 'Copied!'"
    )
    ann.wait_for_function(
        "document.querySelector('[data-testid=copy-invite]').textContent === 'Copy'",
        timeout=6000,
    )
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    eve = new_page()
    eve.goto(f"/t/{code}")
    eve.wait_for_selector("[data-testid=table-full]")
    assert eve.query_selector("[data-testid=join-name]") is None
    assert "pick a free seat" not in eve.inner_text("main")


def test_spectator_page_seats_once_and_nothing_covers_the_board(new_page) -> None:  # type: ignore[no-untyped-def]
    _ann, _bob, code = start_two_player_game(new_page)
    eve = new_page(390, 844)
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    for seat in (0, 1):
        assert len(eve.query_selector_all(f"[data-testid=seat-area-{seat}]")) == 1
    boxes = eve.evaluate("""() => Object.fromEntries(['board-area', 'spectating-banner', 'zoom-controls']
      .map((id) => { const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
                     return [id, { x: r.x, y: r.y, width: r.width, height: r.height }]; }))""")
    for sel in ("spectating-banner", "zoom-controls"):
        assert not _boxes_intersect(boxes[sel], boxes["board-area"]), sel


def _settled_match(seed: int) -> Match:
    m = Match.new(2, random.Random(seed))
    rng = random.Random(seed)
    while not m.round_over:
        m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
    return m


def _inject(page: Any, code: str, view: dict[str, Any], seq: int) -> None:
    base = page.evaluate("location.origin")
    with urllib.request.urlopen(f"{base}/api/tables/{code}") as r:
        info = json.load(r)
    frame = {"type": "snapshot", "seq": seq, "you": 0, "table": info, "view": view, "events": []}
    page.evaluate("f => window.__fiveupTest.inject(f)", frame)


def test_phone_settlement_dialog_is_not_cut_off(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _bob, code = start_two_player_game(new_page, host="Oleksandra-Kateryna")
    ann.set_viewport_size({"width": 390, "height": 844})
    # A long name stays on one line in the score panel, cut with an ellipsis and
    # readable in full as its title.
    # (one evaluation: the page may re-render for the new size meanwhile)
    ann.wait_for_function(
        """(() => { const n = document.querySelector('[data-testid=score-side-0] .name-text');
              return n && n.title === 'Oleksandra-Kateryna' && n.getBoundingClientRect().height < 30
                && window.innerWidth === 390; })()"""
    )
    m = _settled_match(7)
    _inject(ann, code, view_for(m, 0), 10_000)
    ann.wait_for_selector("[data-testid=round-end]")
    # Measured in one evaluation (the page may re-render between separate queries).
    fit = ann.evaluate("""() => {
      const c = document.querySelector('[data-testid=round-end]');
      const box = c.getBoundingClientRect();
      const cut = [...c.querySelectorAll('.settlement-table th')]
        .filter((th) => th.getBoundingClientRect().right > box.right + 0.5).map((th) => th.textContent);
      return { left: box.left, right: box.right, scroll: c.scrollWidth <= c.clientWidth + 1, cut };
    }""")
    assert fit["left"] >= 0 and fit["right"] <= 390, fit
    assert fit["scroll"] and fit["cut"] == [], fit
    assert "Deduction" in ann.inner_text("[data-testid=round-end] .settlement-table thead")
    shot(ann, "15-phone-round-end")
    publish("15-phone-round-end.png", "phone-round-end.png")


def test_automatic_passes_are_marked(new_page) -> None:  # type: ignore[no-untyped-def]
    """The server plays a forced pass itself (R19) and marks its event `auto`; the log
    says "(automatic)" for it."""
    ann, _bob, code = start_two_player_game(new_page)
    rng = random.Random(1)
    for seed in range(200):
        m = Match.new(2, random.Random(seed))
        while not m.round_over:
            m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
            last = m.round.log[-1]
            if view_for(m, 0)["log"][-1]["kind"] == "pass" and not m.round_over:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no pass in 200 rounds")
    assert last is not None
    v = view_for(m, 0)
    pas = v["log"][-1]
    _inject(ann, code, v, 20_000)
    ann.wait_for_function("document.body.dataset.seq === '20000'")
    frame = {"type": "event", "seq": 20_001, "event": {**pas, "auto": True}, "view": v}
    ann.evaluate("f => window.__fiveupTest.inject(f)", frame)
    ann.wait_for_function("document.body.dataset.seq === '20001'")
    top = ann.inner_text("[data-testid=log] li:first-child")
    assert "passed" in top and "(automatic)" in top


def test_young_layout_is_drawn_big_and_centred(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _ = start_two_player_game(new_page)
    for p in (ann, bob):
        p.set_viewport_size({"width": 1440, "height": 900})
    actor = ann if ann.query_selector("[data-testid=play][data-my-turn='1']") else bob
    tile = actor.get_attribute("[data-testid=hand-tile]", "data-tile")
    actor.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    actor.locator(f"svg.board [data-move='{tile}']").click()
    actor.wait_for_selector(f"svg.board [data-board-tile='{tile}']")
    # The readable maximum (26 px per grid unit, a tile is 4 units long), not tiny;
    # the board re-fits itself after the viewport change (measured once the tile has
    # finished sliding in).
    actor.wait_for_function(
        f"""(() => {{ const r = document.querySelector("svg.board [data-board-tile='{tile}'] .tile-body")
              .getBoundingClientRect(); const l = Math.max(r.width, r.height);
              return l >= 95 && l <= 106 && document.getAnimations().length === 0; }})()""",
        timeout=5000,
    )
    b = actor.query_selector(f"svg.board [data-board-tile='{tile}'] .tile-body").bounding_box()
    area = actor.query_selector("[data-testid=board-area]").bounding_box()
    cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    assert abs(cx - (area["x"] + area["width"] / 2)) < 3
    assert abs(cy - (area["y"] + area["height"] / 2)) < 3
