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
>>> print(describe_layout(board, "uk").split(". ")[2])
З’єднання: [1|4] (менший кінець) – [1|1] (лінія A); [1|4] (більший кінець) – [4|4] (лінія A)
"""

from __future__ import annotations

from .layout import OPENING, Layout
from .places import PLACE_VALUE, side_name
from .tiles import IS_DOUBLE, NAMES

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "low": "low",
        "high": "high",
        "lineA": "line A",
        "lineB": "line B",
        "branchA": "branch A",
        "branchB": "branch B",
        "empty": "The layout is empty.",
        "tiles": "Tiles",
        "spinners": "Spinners",
        "connections": "Connections",
        "places": "Open places",
        "ends": "Scoring ends",
        "sum": "End sum",
        "none": "none",
    },
    # The wording of the original (Ukrainian) ruleset's worked examples.
    "uk": {
        "low": "менший кінець",
        "high": "більший кінець",
        "lineA": "лінія A",
        "lineB": "лінія B",
        "branchA": "гілка A",
        "branchB": "гілка B",
        "empty": "Викладка порожня.",
        "tiles": "Плитки",
        "spinners": "Розгалужувальні дублі",
        "connections": "З’єднання",
        "places": "Дозволені місця продовження",
        "ends": "Залікові внески",
        "sum": "Сума кінців",
        "none": "немає",
    },
}
LANGUAGES = tuple(_WORDS)


def describe_layout(layout: Layout, language: str = "en") -> str:
    """The layout in words, in English (``"en"``) or Ukrainian (``"uk"``)."""
    words = _WORDS[language]
    if layout.is_empty:
        return words["empty"]

    def side(place: int) -> str:
        return words[side_name(place)]

    def listed(items: list[str], sep: str) -> str:
        return sep.join(items) if items else words["none"]

    tiles = [f"[{NAMES[t]}]" for t in layout.tiles]
    spinners = [f"[{NAMES[t]}]" for t in layout.tiles if IS_DOUBLE[t]]
    links: list[str] = []
    for t in layout.tiles:
        at = layout.at[t]
        if at == OPENING:
            continue
        own = t * 4 + layout.via[t]
        links.append(f"[{NAMES[at >> 2]}] ({side(at)}) – [{NAMES[t]}] ({side(own)})")
    places = [f"[{NAMES[p >> 2]}] ({side(p)}, {PLACE_VALUE[p]})" for p in layout.open_places()]
    ends = [f"[{tile}]: {value}" for tile, value in layout.scoring_ends()]
    return " ".join(
        [
            f"{words['tiles']}: {listed(tiles, ', ')}.",
            f"{words['spinners']}: {listed(spinners, ', ')}.",
            f"{words['connections']}: {listed(links, '; ')}.",
            f"{words['places']}: {listed(places, '; ')}.",
            f"{words['ends']}: {listed(ends, '; ')}.",
            f"{words['sum']}: {layout.end_sum}.",
        ]
    )
