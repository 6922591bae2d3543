"""Match records (docs/record.md): made from the engine's history, checked by replaying
through the engine, round-tripped through text and JSON, and every tampering reported
at the line where it is (R3, R6, R15, R17–R19, R21–R24)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from app.fairness import DealIds, commitment, next_round, start_match
from app.records import (
    RecordMeta,
    RecordSyntaxError,
    check,
    from_json,
    parse_text,
    record_from_match,
    to_json,
    write_text,
)

from .matches import meta, play_match, recorded_match

GAMES = [(players, game) for players in (2, 3, 4) for game in range(8)]


@pytest.mark.parametrize(("players", "game"), GAMES)
def test_a_random_match_exports_checks_valid_and_round_trips(players: int, game: int) -> None:
    match, record = recorded_match(players, game)
    text = write_text(record)
    parsed = parse_text(text)
    result = check(parsed)
    assert str(result) == "valid"
    assert parsed == record and write_text(parsed) == text
    assert from_json(to_json(record)) == record
    assert write_text(from_json(to_json(parsed))) == text
    # the replayed match is the stored one: what an import would store (R24 included)
    assert result.match is not None
    assert result.match.history == match.history and result.match.winner == match.winner
    again = record_from_match(result.match, meta(players, game, _seeds(record)))
    assert write_text(again) == text


def _seeds(record: object) -> dict[int, bytes]:
    rounds = record.rounds  # type: ignore[attr-defined]
    return {r.number: bytes.fromhex(r.seed) for r in rounds}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_without_recorded_seeds_still_checks_valid(players: int) -> None:
    """Older tables dealt without a seed: the deal is rebuilt from moves and hands."""
    match, _ = play_match(players, 3)
    record = record_from_match(
        match, RecordMeta("2026-11-30", "OLD001", 1, ("a", "b", "c", "d")[:players])
    )
    assert all(r.seed is None and r.commitment is None for r in record.rounds)
    text = write_text(record)
    assert str(check(parse_text(text))) == "valid"
    assert write_text(parse_text(text)) == text


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _find(lines: list[str], predicate: object, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if predicate(lines[i]):  # type: ignore[operator]
            return i
    raise AssertionError("no such line")


def test_an_altered_move_is_reported_at_its_line() -> None:
    """R17/R19: a pass where a tile can be placed is illegal."""
    _, record = recorded_match(3, 1)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: s.startswith("2. "))
    number, seat = lines[i].split()[:2]
    lines[i] = f"{number} {seat} pass"
    result = check(parse_text("\n".join(lines)))
    assert not result.ok and result.line == i + 1
    assert "illegal move pass" in result.problem


def test_a_move_by_the_wrong_seat_is_reported_at_its_line() -> None:
    _, record = recorded_match(2, 2)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: s.startswith("3. "))
    parts = lines[i].split()
    parts[1] = str(1 - int(parts[1]))
    lines[i] = " ".join(parts)
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, i + 1) and "R8" in result.problem


def test_an_altered_score_is_reported_at_its_line() -> None:
    _, record = recorded_match(4, 2)
    lines = _lines(write_text(record))
    i = _find(
        lines, lambda s: " = " in s and s.split()[0] == "4.", _find(lines, lambda s: s == "round 2")
    )
    head, scores = lines[i].split(" = ")
    values = scores.split()
    values[0] = str(int(values[0]) + 1)
    lines[i] = f"{head} = {' '.join(values)}"
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, i + 1)
    assert result.problem.startswith("R3, R15: the scores after this move are")


def test_altered_points_are_reported_at_their_line() -> None:
    _, record = recorded_match(2, 5)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: " +0 = " in s)
    lines[i] = lines[i].replace(" +0 = ", " +5 = ")
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, i + 1) and result.problem.startswith("R15")


def _swap_stock(line: str) -> str:
    tiles = line.split()[1:]
    tiles[0], tiles[1] = tiles[1], tiles[0]
    return "stock " + " ".join(tiles)


def test_an_altered_stock_order_is_reported_at_the_stock_line() -> None:
    """The committed seed fixes the stock order; a swapped pair contradicts it."""
    _, record = recorded_match(3, 4)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: s.startswith("stock "), _find(lines, lambda s: s == "round 2"))
    lines[i] = _swap_stock(lines[i])
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, i + 1)
    assert "the stock order is not the committed one" in result.problem


def test_without_a_seed_an_altered_stock_shows_at_the_first_draw_it_changes() -> None:
    """R18: draws come from the stock in order, so a swapped stock shows at a draw."""
    for game in range(20):
        match, _ = play_match(2, game)
        record = record_from_match(match, RecordMeta("2026-11-30", "OLD001", 1, ("a", "b")))
        lines = _lines(write_text(record))
        first = _find(lines, lambda s: s == "round 1")
        draws = [
            i
            for i in range(first, _find(lines, lambda s: s.startswith("end"), first))
            if " draw " in lines[i]
        ]
        if draws:
            break
    else:
        raise AssertionError("no first round with a draw")
    s = _find(lines, lambda s: s.startswith("stock "), first)
    lines[s] = _swap_stock(lines[s])
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, draws[0] + 1) and result.problem.startswith("R18")


def test_a_commitment_that_does_not_match_its_seed_is_reported_at_its_tag() -> None:
    _, record = recorded_match(2, 6)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: s.startswith("[Commit2 "))
    digit = lines[i][10]
    lines[i] = lines[i][:10] + ("0" if digit != "0" else "1") + lines[i][11:]
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, i + 1) and "commitment" in result.problem


def test_an_altered_settlement_and_result_are_reported() -> None:
    _, record = recorded_match(3, 2)
    text = write_text(record)
    lines = _lines(text)
    i = _find(lines, lambda s: s.startswith("left 1 ") and not s.endswith("minus 0"))
    parts = lines[i].split()
    parts[-1] = str(int(parts[-1]) - 1)
    bad = lines.copy()
    bad[i] = " ".join(parts)
    result = check(parse_text("\n".join(bad)))
    assert (result.ok, result.line) == (False, i + 1) and result.problem.startswith("R22")
    r = _find(lines, lambda s: s.startswith("[Result "))
    bad = lines.copy()
    bad[r] = '[Result "*"]'
    result = check(parse_text("\n".join(bad)))
    assert (result.ok, result.line) == (False, r + 1) and "R24" in result.problem


def test_a_round_after_the_match_was_won_is_refused() -> None:
    """R24: once a side is the sole leader with 61 after a settlement, play stops."""
    _, record = recorded_match(2, 0)
    extra = dataclasses.replace(
        record.rounds[-1], number=len(record.rounds) + 1, seed=None, commitment=None
    )
    longer = dataclasses.replace(record, rounds=(*record.rounds, extra))
    result = check(longer)
    assert not result.ok and result.problem.startswith("R24")
    assert _lines(write_text(longer))[result.line - 1] == f"round {extra.number}"


def test_a_running_round_and_its_seed_never_reach_a_record() -> None:
    """R5: a round being played is hidden; even if its seed is handed in, it is not written."""
    rng = random.Random(9)
    seeds = {1: rng.randbytes(32), 2: rng.randbytes(32)}
    match = start_match(seeds[1], 3, DealIds("ABC123", 1, 1))
    while not match.round_over:
        seat = match.turn
        assert seat is not None
        match.play(seat, rng.choice(match.legal_moves(seat)))
    next_round(match, seeds[2], DealIds("ABC123", 1, 2))
    seat = match.turn
    assert seat is not None
    match.play(seat, match.legal_moves(seat)[0])
    record = record_from_match(match, meta(3, 1, seeds))
    text, data = write_text(record), to_json(record)
    assert [r.number for r in record.rounds] == [1] and record.winner is None
    hidden = (seeds[2].hex(), commitment(seeds[2], DealIds("ABC123", 1, 2)))
    assert not any(h in text or h in data for h in hidden)
    assert seeds[1].hex() in text and str(check(record)) == "valid"


def test_a_malformed_json_record_is_a_problem_not_a_crash() -> None:
    _, record = recorded_match(2, 1)
    data = json.loads(to_json(record))
    data["rounds"][0]["moves"][0]["move"] = "7|7"
    result = check(from_json(json.dumps(data)))
    assert not result.ok and "7|7" in result.problem


def test_syntax_errors_name_their_line() -> None:
    _, record = recorded_match(2, 3)
    lines = _lines(write_text(record))
    i = _find(lines, lambda s: s.startswith("starter "))
    lines[i] = "starter 0 coin"
    with pytest.raises(RecordSyntaxError) as err:
        parse_text("\n".join(lines))
    assert err.value.line == i + 1


def test_comments_and_blank_lines_are_ignored_and_lines_still_count() -> None:
    _, record = recorded_match(2, 4)
    lines = _lines(write_text(record))
    commented = ["; a comment", "", *lines]
    assert parse_text("\n".join(commented)) == record
    i = _find(commented, lambda s: s.startswith("1. "))
    commented[i] = commented[i].split()[0] + " " + commented[i].split()[1] + " draw 6|6"
    result = check(parse_text("\n".join(commented)))
    assert result.line == i + 1


def test_the_example_in_the_docs_is_a_valid_canonical_record() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "record.md").read_text()
    example = doc.split("```text\n", 1)[1].split("```", 1)[0]
    record = parse_text(example)
    assert str(check(record)) == "valid" and write_text(record) == example


def test_a_round_cut_short_is_reported_at_its_end_line() -> None:
    """R21: a round ends only with a domino or a block."""
    _, record = recorded_match(3, 5)
    lines = _lines(write_text(record))
    end = _find(lines, lambda s: s.startswith("end "))
    del lines[end - 1]
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, end) and result.problem.startswith("R21")


def test_hands_swapped_between_seats_are_reported_at_the_first_hand() -> None:
    """With a seed, each hand is the committed one (R5, R6), not just the same 28 tiles."""
    _, record = recorded_match(2, 6)
    lines = _lines(write_text(record))
    h0 = _find(lines, lambda s: s.startswith("hand 0 "))
    a, b = lines[h0].split(), lines[h0 + 1].split()
    a[2], b[2] = b[2], a[2]
    lines[h0], lines[h0 + 1] = " ".join(a), " ".join(b)
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, h0 + 1) and "committed deal" in result.problem


def test_a_tile_dealt_twice_is_reported() -> None:
    """R1 and R6 without a seed: 28 different tiles, five per hand."""
    match, _ = play_match(2, 2)
    record = record_from_match(match, RecordMeta("2026-11-30", "OLD001", 1, ("a", "b")))
    lines = _lines(write_text(record))
    s = _find(lines, lambda x: x.startswith("stock "))
    first_hand_tile = lines[s - 2].split()[2]
    lines[s] = lines[s].replace(lines[s].split()[-1], first_hand_tile)
    result = check(parse_text("\n".join(lines)))
    assert (result.ok, result.line) == (False, s + 1) and result.problem.startswith("R1")
