"""Property test of the client's layout routine (static/js/board/layout.js), run in
real Chromium on layouts the real engine reaches (random legal games, 2-4 players), at
the viewports the client supports (phone 390x844, tablet 768x1024, desktop 1440x900,
each with the board shape the client picks for it): no two tiles overlap, two tiles
touch only if one joins the other, a connector line never crosses a tile (targets
included), every tile (and every target shown for a legal move) lies inside the
drawing's viewBox, doubles lie crosswise, and every open place of the engine has a
matching attachment point in the drawing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.engine import Match, view_for

CHECK_JS = """
async ({cases, boards}) => {
  const L = await import('/static/js/board/layout.js');
  // null: the board the client itself picks for this viewport
  boards = boards || [L.boardFor(window.innerWidth, window.innerHeight)];
  const problems = [];
  let tiles = 0, connectors = 0, far = 0, ghosts = 0;
  for (const c of cases) {
    for (const board of boards) {
      const { rects, layout } = L.computeLayout(c.tiles, { board });
      const tag = `${c.name} board ${board.w}x${board.h}`;
      if (rects.length !== c.tiles.length) problems.push(`${tag}: ${rects.length} rects for ${c.tiles.length} tiles`);
      const gh = c.legal.map((m) => L.ghostRect(layout, m.tile, m.place));
      const vb = L.viewBoxFor(layout, gh);
      const inside = (r) => r.x >= vb[0] && r.y >= vb[1] && r.x + r.w <= vb[0] + vb[2] && r.y + r.h <= vb[1] + vb[3];
      for (let i = 0; i < rects.length; i++) {
        const a = rects[i];
        tiles++;
        if (a.connector) connectors++;
        if (a.kind === 'far') far++;
        if (!inside(a)) problems.push(`${tag}: ${a.tile} outside the drawing`);
        if (a.double ? ((a.dir === 'E' || a.dir === 'W') ? a.h <= a.w : a.w <= a.h)
                     : ((a.dir === 'E' || a.dir === 'W') ? a.w <= a.h : a.h <= a.w))
          problems.push(`${tag}: ${a.tile} wrongly oriented (${a.dir} ${a.w}x${a.h})`);
        for (let j = i + 1; j < rects.length; j++) {
          if (L.overlaps(a, rects[j])) problems.push(`${tag}: ${a.tile} overlaps ${rects[j].tile}`);
        }
      }
      for (const g of gh) {
        ghosts++;
        if (!inside(g)) problems.push(`${tag}: target ${g.tile}@${g.place} outside the drawing`);
        for (const r of rects) if (L.overlaps(g, r)) problems.push(`${tag}: target ${g.tile}@${g.place} overlaps ${r.tile}`);
      }
      // Touching means joined; connectors cross no tile (targets included).
      for (const b of L.layoutProblems(rects, gh)) problems.push(`${tag}: ${b.kind} ${b.a} / ${b.b}`);
      for (const p of c.places) {
        if (!layout.ports.has(p.place)) problems.push(`${tag}: open place ${p.place} has no attachment point`);
      }
    }
  }
  return { problems: problems.slice(0, 40), count: problems.length, tiles, connectors, far, ghosts, board: boards[0] };
}
"""

BOARDS = [{"w": 56, "h": 36}, {"w": 28, "h": 44}]


def _cases(n_matches: int, seed: int) -> list[dict[str, Any]]:
    """Layouts reached by random legal play: the end of every round, plus mid-round
    positions with the legal placements of the player to move (their targets)."""
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    for k in range(n_matches):
        players = (2, 3, 4)[k % 3]
        m = Match.new(players, random.Random(rng.randrange(1 << 30)))
        rounds = 0
        while not m.over and rounds < 4:
            step = 0
            while not m.round_over:
                seat = m.turn
                moves = m.legal_moves(seat)
                if rng.random() < 0.15:
                    v = view_for(m, seat)
                    cases.append(
                        {
                            "name": f"match {k} round {m.round_number} step {step}",
                            "tiles": v["layout"]["tiles"],
                            "places": v["layout"]["places"],
                            "legal": [
                                {"tile": x["tile"], "place": x.get("place")}
                                for x in v["legal"]
                                if x["kind"] in ("place", "open")
                            ],
                        }
                    )
                m.play(seat, rng.choice(moves))
                step += 1
            v = view_for(m, None)
            cases.append(
                {
                    "name": f"match {k} round {m.round_number} end",
                    "tiles": v["layout"]["tiles"],
                    "places": v["layout"]["places"],
                    "legal": [],
                }
            )
            rounds += 1
            if not m.over:
                m.next_round(random.Random(rng.randrange(1 << 30)))
    return cases


VIEWPORTS = [(390, 844), (768, 1024), (1440, 900)]


@pytest.fixture(scope="module")
def reachable_cases() -> list[dict[str, Any]]:
    cases = _cases(90, seed=61)
    ends = [c for c in cases if c["name"].endswith("end")]
    assert len(ends) >= 200, len(ends)
    assert max(len(c["tiles"]) for c in cases) >= 18  # long games are in the sample
    return cases


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_layout_property_on_reachable_layouts(new_page, reachable_cases, viewport) -> None:  # type: ignore[no-untyped-def]
    page = new_page(*viewport)
    page.goto("/")
    cases = reachable_cases
    total: dict[str, int] = {"tiles": 0, "connectors": 0, "far": 0, "ghosts": 0}
    board = None
    for i in range(0, len(cases), 150):
        res = page.evaluate(CHECK_JS, {"cases": cases[i : i + 150], "boards": None})
        assert res["count"] == 0, json.dumps(res["problems"], indent=1)
        board = res["board"]
        for key in total:
            total[key] += res[key]
    print(f"\nlayout property at {viewport}: {len(cases)} positions, board {board}, {total}")
    # Quality, not only correctness: nearly every tile touches the tile it joins.
    assert total["far"] <= total["tiles"] * 0.02, total


def test_layout_property_on_both_board_shapes(new_page, reachable_cases) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    for i in range(0, len(reachable_cases), 150):
        res = page.evaluate(CHECK_JS, {"cases": reachable_cases[i : i + 150], "boards": BOARDS})
        assert res["count"] == 0, json.dumps(res["problems"], indent=1)


def test_layout_of_full_set_random_trees(new_page) -> None:  # type: ignore[no-untyped-def]
    """Stress: long random chains of the whole set (generated in the page by the dev
    simulator, which follows R9-R12 for open places), far beyond a normal round."""
    page = new_page()
    page.goto("/")
    res = page.evaluate("""async () => {
      const L = await import('/static/js/board/layout.js');
      const S = await import('/static/dev/sim.js');
      let bad = 0, n = 0;
      for (let s = 1; s <= 400; s++) {
        const { tiles } = S.simulate(S.rng(s), 28);
        for (const board of [{w: 56, h: 36}, {w: 28, h: 44}, {w: 20, h: 12}]) {
          const { rects, layout } = L.computeLayout(tiles, { board });
          const vb = L.viewBoxFor(layout);
          n++;
          bad += L.layoutProblems(rects).length; // touching means joined; no crossing connector
          for (let i = 0; i < rects.length; i++) {
            const a = rects[i];
            if (a.x < vb[0] || a.y < vb[1] || a.x + a.w > vb[0] + vb[2] || a.y + a.h > vb[1] + vb[3]) bad++;
            for (let j = i + 1; j < rects.length; j++) if (L.overlaps(a, rects[j])) bad++;
          }
        }
      }
      return { bad, n };
    }""")
    assert res == {"bad": 0, "n": 1200}


def test_spinner_geometry(new_page) -> None:  # type: ignore[no-untyped-def]
    """R10/R11 as drawn: a double lies crosswise, its two lines run straight through it,
    its branches leave at right angles from its middle, and a double on a branch is a
    spinner again. Every tile touches the tile it joins (no connector)."""
    tiles = [
        {"tile": "3|3", "at": None, "via": None},
        {"tile": "1|3", "at": "3|3:lineA", "via": "high"},
        {"tile": "3|4", "at": "3|3:lineB", "via": "low"},
        {"tile": "3|5", "at": "3|3:branchA", "via": "low"},
        {"tile": "2|3", "at": "3|3:branchB", "via": "high"},
        {"tile": "5|5", "at": "3|5:high", "via": "lineA"},
        {"tile": "5|6", "at": "5|5:lineB", "via": "low"},
        {"tile": "0|5", "at": "5|5:branchA", "via": "high"},
        {"tile": "4|5", "at": "5|5:branchB", "via": "high"},
    ]
    page = new_page()
    page.goto("/")
    r = page.evaluate(
        """async (tiles) => {
      const L = await import('/static/js/board/layout.js');
      const { rects } = L.computeLayout(tiles);
      return Object.fromEntries(rects.map((x) => [x.tile, x]));
    }""",
        tiles,
    )

    def centre(t: str) -> tuple[float, float]:
        return (r[t]["x"] + r[t]["w"] / 2, r[t]["y"] + r[t]["h"] / 2)

    def touching(a: str, b: str) -> bool:
        ra, rb = r[a], r[b]
        return (
            ra["x"] <= rb["x"] + rb["w"]
            and rb["x"] <= ra["x"] + ra["w"]
            and ra["y"] <= rb["y"] + rb["h"]
            and rb["y"] <= ra["y"] + ra["h"]
        )

    # The opening double lies crosswise to its line (lines run west-east).
    assert (r["3|3"]["w"], r["3|3"]["h"]) == (2, 4)
    cx, cy = centre("3|3")
    # Lines straight through it: same row, west and east.
    assert centre("1|3")[1] == cy and centre("1|3")[0] < cx
    assert centre("3|4")[1] == cy and centre("3|4")[0] > cx
    # Branches at right angles from its middle: same column, north (A) and south (B).
    assert centre("3|5")[0] == cx and centre("3|5")[1] < cy
    assert centre("2|3")[0] == cx and centre("2|3")[1] > cy
    # The double on the branch lies crosswise to the branch (horizontal) and spins:
    # its line goes on north, its branches leave west/east.
    assert (r["5|5"]["w"], r["5|5"]["h"]) == (4, 2)
    bx, by = centre("5|5")
    assert centre("5|6")[0] == bx and centre("5|6")[1] < by
    assert {centre("0|5")[1], centre("4|5")[1]} == {by}
    assert (
        sorted([centre("0|5")[0], centre("4|5")[0]])[0]
        < bx
        < sorted([centre("0|5")[0], centre("4|5")[0]])[1]
    )
    # The joined half is the matching one: 1|3 shows its 3 next to the spinner.
    assert r["1|3"]["first"] == 3 and r["3|4"]["first"] == 3
    for t in tiles[1:]:
        parent = t["at"].split(":")[0]
        assert touching(t["tile"], parent), t
        assert r[t["tile"]]["connector"] is None, t
