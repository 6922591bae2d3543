"""Shared steps of the screen tests (offline state, covered things, words): a practice
table against computer players, and what a board draws over what."""

from __future__ import annotations

from typing import Any


def start_practice(page: Any, *, players: int, name: str = "Solo") -> str:
    """From the home page: play against ``players - 1`` computers; the table's code."""
    page.goto("/")
    page.fill("[data-testid=practice-name]", name)
    page.select_option("[data-testid=practice-players]", str(players))
    page.click("[data-testid=practice-submit]")
    page.wait_for_selector("[data-testid=play]")
    code = page.text_content("[data-testid=table-code]")
    assert code and len(code) == 6
    return code


def wait_my_turn(page: Any) -> None:
    page.wait_for_selector(
        "[data-testid=play][data-phase=playing][data-my-turn='1'][data-busy='0'],"
        " [data-testid=round-end], [data-testid=match-end]"
    )


def dismiss_hint(page: Any) -> None:
    if page.query_selector("[data-testid=hint-dismiss]"):
        page.click("[data-testid=hint-dismiss]")


# Every last-move mark and "+N" float on the board whose box meets an open end's
# value marker (boxes in the board's drawing units).
MARK_OVERLAPS_JS = """() => {
  const svg = document.querySelector('svg.board');
  if (!svg) return [];
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const meet = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const ends = [...svg.querySelectorAll('.open-end')].map((g) => [g.dataset.open, box(g)]);
  const out = [];
  for (const el of svg.querySelectorAll('circle.last-mark, text.float-points')) {
    for (const [place, b] of ends) if (meet(box(el), b)) out.push(el.getAttribute('class') + ' on ' + place + ' ' + JSON.stringify([box(el), b, el.dataset.tile || '']));
  }
  return out;
}"""


def boxes_meet(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """Whether two bounding boxes (Playwright's {x, y, width, height}) overlap."""
    if not a or not b:
        return False
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )
