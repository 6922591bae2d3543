"""A readable text description of the layout, after the worked examples of the original
ruleset: tiles, spinners, connections, open places and scoring ends (for logs, tests and
screen readers): of a :class:`~app.engine.layout.Layout` (:func:`describe_layout`), or of
a view's layout data (:func:`describe_laid`, the same words).

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

from typing import Any

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
    tiles = [f"[{NAMES[t]}]" for t in layout.tiles]
    spinners = [f"[{NAMES[t]}]" for t in layout.tiles if IS_DOUBLE[t]]
    links: list[str] = []
    for t in layout.tiles:
        at = layout.at[t]
        if at == OPENING:
            continue
        own = t * 4 + layout.via[t]
        links.append(_link(words, NAMES[at >> 2], side_name(at), NAMES[t], side_name(own)))
    places = [
        _place(words, NAMES[p >> 2], side_name(p), PLACE_VALUE[p]) for p in layout.open_places()
    ]
    ends = [f"[{tile}]: {value}" for tile, value in layout.scoring_ends()]
    return _sentences(words, tiles, spinners, links, places, ends, layout.end_sum)


def describe_laid(laid: dict[str, Any], language: str = "en") -> str:
    """The same words from a view's ``layout`` data (``tiles`` with ``tile``/``at``/
    ``via``, ``places``, ``ends``, ``sum``: :func:`app.engine.views.layout_data`), so a
    layout can be described from what was delivered without the live round.

    >>> laid = {"tiles": [{"tile": "1|4", "at": None, "via": None},
    ...                   {"tile": "1|1", "at": "1|4:low", "via": "lineA"}],
    ...         "places": [{"place": "1|1:lineB", "value": 1}, {"place": "1|4:high", "value": 4}],
    ...         "ends": [["1|1", 2], ["1|4", 4]], "sum": 6}
    >>> print(describe_laid(laid))
    Tiles: [1|4], [1|1]. Spinners: [1|1]. Connections: [1|4] (low) – [1|1] (line A). Open places: [1|1] (line B, 1); [1|4] (high, 4). Scoring ends: [1|1]: 2; [1|4]: 4. End sum: 6.
    >>> describe_laid({"tiles": [], "places": [], "ends": [], "sum": 0}, "uk")
    'Викладка порожня.'
    """
    words = _WORDS[language]
    laid_tiles: list[dict[str, Any]] = laid["tiles"]
    if not laid_tiles:
        return words["empty"]
    tiles: list[str] = []
    spinners: list[str] = []
    links: list[str] = []
    for entry in laid_tiles:
        name: str = entry["tile"]
        tiles.append(f"[{name}]")
        if name[0] == name[-1]:  # a double
            spinners.append(f"[{name}]")
        at: str | None = entry["at"]
        if at is not None:
            joined, joined_side = at.split(":")
            links.append(_link(words, joined, joined_side, name, str(entry["via"])))
    places: list[str] = []
    for open_place in laid["places"]:
        tile, side = str(open_place["place"]).split(":")
        places.append(_place(words, tile, side, int(open_place["value"])))
    ends = [f"[{tile}]: {value}" for tile, value in laid["ends"]]
    return _sentences(words, tiles, spinners, links, places, ends, int(laid["sum"]))


def _link(words: dict[str, str], at_tile: str, at_side: str, tile: str, via: str) -> str:
    return f"[{at_tile}] ({words[at_side]}) – [{tile}] ({words[via]})"


def _place(words: dict[str, str], tile: str, side: str, value: int) -> str:
    return f"[{tile}] ({words[side]}, {value})"


def _sentences(
    words: dict[str, str],
    tiles: list[str],
    spinners: list[str],
    links: list[str],
    places: list[str],
    ends: list[str],
    end_sum: int,
) -> str:
    def listed(items: list[str], sep: str) -> str:
        return sep.join(items) if items else words["none"]

    return " ".join(
        [
            f"{words['tiles']}: {listed(tiles, ', ')}.",
            f"{words['spinners']}: {listed(spinners, ', ')}.",
            f"{words['connections']}: {listed(links, '; ')}.",
            f"{words['places']}: {listed(places, '; ')}.",
            f"{words['ends']}: {listed(ends, '; ')}.",
            f"{words['sum']}: {end_sum}.",
        ]
    )
