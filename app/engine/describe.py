"""A readable text description of the layout, after the worked examples of the original
ruleset: tiles, spinners, connections, open places and scoring ends (for logs, tests and
screen readers).

>>> from app.engine.layout import Layout
>>> from app.engine.tiles import parse_tile as t
>>> from app.engine.places import parse_place as p
>>> board = Layout()
>>> _ = board.open_with(t("1|4")); _ = board.place(t("1|1"), p("1|4:low"))
>>> _ = board.place(t("4|4"), p("1|4:high"))
>>> print(describe_layout(board))
Tiles: [1|4], [1|1], [4|4]. Spinners: [1|1], [4|4]. Connections: [1|4] (low) – [1|1] (line A); [1|4] (high) – [4|4] (line A). Open places: [1|1] (line B, 1); [4|4] (line B, 4). Scoring ends: [1|1]: 2; [4|4]: 8. End sum: 10.
>>> print(describe_layout(Layout()))
The layout is empty.
"""

from __future__ import annotations

from .layout import OPENING, Layout
from .places import PLACE_VALUE, side_name
from .tiles import IS_DOUBLE, NAMES

_SIDE_WORDS = {
    "low": "low",
    "high": "high",
    "lineA": "line A",
    "lineB": "line B",
    "branchA": "branch A",
    "branchB": "branch B",
}


def _side_words(place: int) -> str:
    return _SIDE_WORDS[side_name(place)]


def describe_layout(layout: Layout) -> str:
    """The layout in words (English)."""
    if layout.is_empty:
        return "The layout is empty."
    tiles = ", ".join(f"[{NAMES[t]}]" for t in layout.tiles)
    spinners = [f"[{NAMES[t]}]" for t in layout.tiles if IS_DOUBLE[t]]
    links: list[str] = []
    for t in layout.tiles:
        at = layout.at[t]
        if at == OPENING:
            continue
        own = t * 4 + layout.via[t]
        links.append(f"[{NAMES[at >> 2]}] ({_side_words(at)}) – [{NAMES[t]}] ({_side_words(own)})")
    places = [
        f"[{NAMES[p >> 2]}] ({_side_words(p)}, {PLACE_VALUE[p]})" for p in layout.open_places()
    ]
    ends = [f"[{tile}]: {value}" for tile, value in layout.scoring_ends()]
    parts = [
        f"Tiles: {tiles}.",
        f"Spinners: {', '.join(spinners) if spinners else 'none'}.",
        f"Connections: {'; '.join(links) if links else 'none'}.",
        f"Open places: {'; '.join(places) if places else 'none'}.",
        f"Scoring ends: {'; '.join(ends) if ends else 'none'}.",
        f"End sum: {layout.end_sum}.",
    ]
    return " ".join(parts)
