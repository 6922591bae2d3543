"""Rules the fixtures touch lightly, checked directly with the worked examples (RULES.md)."""

from __future__ import annotations

import random
import re

import pytest

from app.engine import IllegalMove, Layout, Match, Round, parse_place, parse_tile, view_for
from app.engine.round import settlement_deduction

# R13–R16 worked examples from the original ruleset: (move, raw points)
WORKED = [
    ("1|4", 5),
    ("1|1@1|4:low", 0),
    ("4|4@1|4:high", 10),
    ("3|4@4|4:lineB", 5),
    ("1|2@1|1:lineB", 5),
    ("1|5@1|1:branchA", 10),
    ("5|5@1|5:high", 15),
    ("0|5@5|5:lineB", 5),
    ("1|3@1|1:branchB", 0),
]


def _lay(board: Layout, text: str) -> int:
    tile_text, _, place_text = text.partition("@")
    if not place_text:
        return board.open_with(parse_tile(tile_text))
    board.check_placement(parse_tile(tile_text), parse_place(place_text))
    return board.place(parse_tile(tile_text), parse_place(place_text))


def test_worked_examples_of_the_ruleset_score_as_written() -> None:
    board = Layout()
    assert [_lay(board, move) for move, _ in WORKED] == [points for _, points in WORKED]
    assert board.end_sum == 8


@pytest.mark.parametrize(("opening", "points"), [("2|2", 0), ("0|0", 0), ("1|4", 5), ("5|5", 10)])
def test_the_opening_tile_scores_like_any_placement(opening: str, points: int) -> None:
    assert _lay(Layout(), opening) == points  # R8, R16


def test_six_six_on_three_six_makes_fifteen() -> None:
    board = Layout()
    _lay(board, "3|6")
    assert _lay(board, "6|6@3|6:high") == 15  # R13: an end double counts both halves


@pytest.mark.parametrize(
    ("pips", "deduction"), [(0, 0), (1, 0), (2, 0), (3, 1), (7, 1), (8, 2), (10, 2), (13, 3)]
)
def test_settlement_rounds_each_hand_to_the_nearest_five(pips: int, deduction: int) -> None:
    assert settlement_deduction(pips) == deduction  # R22


# Seat 0 holds only tiles with a 0; seat 1 none, and 0|5 is the first tile of the stock.
ZERO_HANDS = [["0|0", "0|1", "0|2", "0|3", "0|4"], ["1|1", "1|2", "2|2", "5|6", "6|6"]]
ZERO_STOCK = ["0|5", "3|3", "4|4", "0|6", "1|3", "1|4", "1|5", "1|6", "2|3"]
ZERO_STOCK += ["2|4", "2|5", "2|6", "3|4", "3|5", "3|6", "4|5", "4|6", "5|5"]


def test_a_drawn_tile_that_fits_must_be_placed_and_the_message_says_so() -> None:
    match = Match.from_deal(ZERO_HANDS, ZERO_STOCK, starter=0)
    match.play(0, "0|0")
    event = match.play(1, "draw")
    assert event["drawn"] == "0|5" and event["must_play"]
    with pytest.raises(IllegalMove, match=re.escape("R18: you drew 0|5 and must place it now")):
        match.play(1, "draw")
    assert view_for(match, 1)["must_play"] == "0|5"
    assert view_for(match, 0)["must_play"] is None


def test_passing_with_stock_left_is_refused() -> None:
    match = Match.from_deal(ZERO_HANDS, ZERO_STOCK, starter=0)
    match.play(0, "0|0")
    with pytest.raises(IllegalMove) as caught:
        match.play(1, "pass")
    assert caught.value.rule == "R19"


def test_branch_before_both_lines_names_the_spinner_rule() -> None:
    board = Layout()
    _lay(board, "4|4")
    _lay(board, "1|4@4|4:lineA")
    with pytest.raises(IllegalMove) as caught:
        _lay(board, "4|6@4|4:branchA")
    assert caught.value.rule == "R11"


def test_a_new_match_deals_five_each_and_draws_the_starter_by_lot() -> None:
    starters = set()
    for seed in range(40):
        match = Match.new(4, random.Random(seed))
        assert match.round.hand_sizes() == [5, 5, 5, 5]  # R6
        assert match.round.stock_size == 8
        starters.add(match.turn)
    assert starters == {0, 1, 2, 3}  # R7: any seat can start


def test_after_a_block_the_next_starter_comes_from_the_lot() -> None:
    rng = random.Random(5)
    for seed in range(400):
        match = Match.new(2, random.Random(seed))
        while not match.round_over:
            seat = match.turn
            assert seat is not None
            match.play(seat, rng.choice(match.legal_moves(seat)))
        if match.round.result == "blocked" and not match.over:
            assert match.round.finisher is None  # R21: no finisher in a blocked round
            with pytest.raises(ValueError):
                match.next_round_from_deal([["0|0"] * 5, ["0|0"] * 5], [], None)
            match.next_round(random.Random(seed))
            assert match.round_number == 2
            return
    pytest.fail("no blocked round in 400 random rounds")


def test_round_needs_the_full_set_in_an_explicit_deal() -> None:
    with pytest.raises(ValueError, match="28 tiles"):
        Round.from_deal([["0|0"], ["0|1"]], ["0|2"], starter=0)


def test_nothing_changes_after_the_match_is_over() -> None:
    rng = random.Random(11)
    match = Match.new(3, rng, target=10)
    while not match.over:
        while not match.round_over:
            seat = match.turn
            assert seat is not None
            match.play(seat, rng.choice(match.legal_moves(seat)))
        if not match.over:
            match.next_round(rng)
    with pytest.raises(IllegalMove) as caught:
        match.next_round(rng)
    assert caught.value.rule == "R24"
    assert view_for(match, None)["phase"] == "match_over"
