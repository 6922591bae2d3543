"""Parse/format pairs for tiles, places and moves (conformance notation, R1, R10)."""

from __future__ import annotations

import re

import pytest

from app.engine import Move, NotationError, format_place, format_tile, parse_place, parse_tile
from app.engine.moves import OPEN, PLACEMENT
from app.engine.places import NUM_PLACES, VALID_PLACE


def test_every_tile_round_trips_through_notation() -> None:
    names = [format_tile(t) for t in range(28)]
    assert len(set(names)) == 28
    assert all(parse_tile(n) == t for t, n in enumerate(names))


def test_every_place_round_trips_through_notation() -> None:
    places = [p for p in range(NUM_PLACES) if VALID_PLACE[p]]
    assert len(places) == 7 * 4 + 21 * 2  # R10: doubles have four sides, others two
    assert all(parse_place(format_place(p)) == p for p in places)


def test_every_move_round_trips_through_notation() -> None:
    moves = [Move.parse("draw"), Move.parse("pass"), *OPEN]
    moves += [m for row in PLACEMENT for m in row if m is not None]
    for move in moves:
        assert Move.parse(str(move)) is move


@pytest.mark.parametrize(
    "text",
    [
        "5|3",
        "7|7",
        "1-4",
        "",
        "1|4|5",
        " 1|4",
        "a|b",
        "1|4@",
        "1|4@1|4:low",
        "1|4@2|5:lineA",
        "3|3@1|2:branchA",
        "1|4@9|9:low",
        "drawx",
        "PASS",
    ],
)
def test_bad_notation_is_refused_with_a_clear_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Move.parse(text)
    assert repr(text) in str(caught.value)


def test_a_mismatched_placement_is_notation_but_not_legal() -> None:
    move = Move.parse("2|3@1|4:low")  # R9 refuses it later, the notation is fine
    assert move.kind == "place" and str(move) == "2|3@1|4:low"
    assert Move.parse("2|3@1|4:low") is move


def test_tiles_are_written_low_pip_first() -> None:
    with pytest.raises(NotationError, match=re.escape("low pip first, as 3|5")):
        parse_tile("5|3")  # R1
