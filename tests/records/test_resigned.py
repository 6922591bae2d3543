"""The record of a resigned match (docs/record.md): the winner in Result, the resignation
in a Termination tag, and the round in play as the last round — its deal, seed and moves
so far, ``resigned SEAT`` where a settled round has its end. Checked by replaying the
moves and the resignation (``Match.resign``), round-tripped through text, JSON and the
table events an import stores; a tampered resignation is refused at its line."""

from __future__ import annotations

import dataclasses
import random

import pytest

from app.engine import Match
from app.fairness import DealIds, next_round, start_match
from app.records import check, from_json, parse_text, record_from_match, to_json, write_text
from app.records.model import Record
from app.records.stored import events_of_record, record_from_events

from .matches import NAMES, meta, recorded_match


def resigned_match(
    players: int, game: int, rounds_done: int, moves: int, seat: int
) -> tuple[Match, dict[int, bytes]]:
    """A match with ``rounds_done`` settled rounds (fewer if R24 ends it), ``moves`` moves
    of the next round, then ``seat`` resigns."""
    rng = random.Random(f"resign/{players}/{game}")
    seeds = {1: rng.randbytes(32)}
    match = start_match(seeds[1], players, DealIds("ABC123", game, 1))
    for number in range(1, rounds_done + 1):
        while not match.round_over:
            turn = match.turn
            assert turn is not None
            match.play(turn, rng.choice(match.legal_moves(turn)))
        assert not match.over, "these games reach no R24 win this early"
        seeds[number + 1] = rng.randbytes(32)
        next_round(match, seeds[number + 1], DealIds("ABC123", game, number + 1))
    for _ in range(moves):
        turn = match.turn
        if turn is None or match.round_over:
            break
        match.play(turn, rng.choice(match.legal_moves(turn)))
    assert not match.round_over
    match.resign(seat)
    return match, seeds


def _record(players: int, game: int, rounds_done: int, moves: int, seat: int) -> Record:
    match, seeds = resigned_match(players, game, rounds_done, moves, seat)
    return record_from_match(match, meta(players, game, seeds), resigned=seat)


@pytest.mark.parametrize(
    ("players", "rounds_done", "moves", "seat"),
    [(2, 0, 0, 0), (2, 1, 3, 1), (3, 1, 4, 2), (3, 2, 1, 0)],
)
def test_a_resigned_record_round_trips_and_checks_valid(
    players: int, rounds_done: int, moves: int, seat: int
) -> None:
    match, seeds = resigned_match(players, 1, rounds_done, moves, seat)
    record = record_from_match(match, meta(players, 1, seeds), resigned=seat)
    text = write_text(record)
    assert f'[Result "{match.winner}"]' in text
    assert f'[Termination "resigned {seat}"]' in text
    assert text.endswith(f"\nresigned {seat}\n") and "end " not in text.split("\n\n")[-1]
    last = record.rounds[-1]
    assert last.number == match.round_number == rounds_done + 1
    assert last.seed == seeds[last.number].hex() and len(last.moves) == len(match.round.log)
    parsed = parse_text(text)
    assert parsed == record and write_text(parsed) == text
    assert from_json(to_json(record)) == record
    assert f'"resigned": {seat}' in to_json(record)
    result = check(parsed)
    assert str(result) == "valid"
    assert result.match is not None and result.match.winner == match.winner
    assert result.match.over and tuple(result.match.scores) == record.scores
    # what an import stores replays to the same record
    events = events_of_record(record)
    assert [e["type"] for e in events][-2:] == ["resigned", "revealed"]
    assert record_from_events(events, NAMES[:players]) == record


def test_a_record_not_resigned_has_no_termination_and_no_resigned_key() -> None:
    _, record = recorded_match(3, 2)
    assert record.resigned is None
    assert "Termination" not in write_text(record) and "resigned" not in to_json(record)


def test_a_resignation_between_rounds_is_recorded_after_the_settled_round() -> None:
    rng = random.Random(4)
    seeds = {1: rng.randbytes(32)}
    match = start_match(seeds[1], 2, DealIds("ABC123", 1, 1))
    while not match.round_over:
        turn = match.turn
        assert turn is not None
        match.play(turn, rng.choice(match.legal_moves(turn)))
    match.resign(0)
    record = record_from_match(match, meta(2, 1, seeds), resigned=0)
    text = write_text(record)
    assert '[Termination "resigned 0"]' in text and '[Result "1"]' in text
    assert record.rounds[-1].resigned is None and str(check(parse_text(text))) == "valid"
    assert record_from_events(events_of_record(record), NAMES[:2]) == record


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_resignation_by_another_seat_is_refused_at_its_line() -> None:
    record = _record(3, 1, 1, 4, 2)
    text = write_text(record).replace("\nresigned 2\n", "\nresigned 1\n")
    result = check(parse_text(text))
    assert not result.ok and result.line == _line_of(text, "resigned 1")
    assert "the header says seat 2 resigned" in result.problem


def test_a_wrong_winner_of_a_resignation_is_refused_at_the_result_tag() -> None:
    record = _record(2, 1, 1, 3, 1)
    wrong = 1 - (record.winner or 0)
    text = write_text(record).replace(f'[Result "{record.winner}"]', f'[Result "{wrong}"]')
    result = check(parse_text(text))
    assert not result.ok and result.line == _line_of(text, "[Result")


def test_an_unfinished_round_without_a_resignation_is_refused() -> None:
    record = _record(2, 1, 1, 3, 1)
    text = write_text(dataclasses.replace(record, resigned=None))
    result = check(parse_text(text))
    assert not result.ok and result.line == _line_of(text, "resigned 1")
    assert "Termination" in result.problem


def test_a_resignation_after_the_round_was_over_is_refused() -> None:
    """R21: a round that the moves end is settled; 'resigned' cannot replace its end."""
    rng = random.Random(4)
    seeds = {1: rng.randbytes(32)}
    match = start_match(seeds[1], 2, DealIds("ABC123", 1, 1))
    moves = 0
    while not match.round_over:
        turn = match.turn
        assert turn is not None
        match.play(turn, rng.choice(match.legal_moves(turn)))
        moves += 1
    record = record_from_match(match, meta(2, 1, seeds))
    done = record.rounds[0]
    cut = dataclasses.replace(done, result=None, finisher=None, left=(), scores=(), resigned=0)
    text = write_text(dataclasses.replace(record, rounds=(cut,), resigned=0, winner=1))
    result = check(parse_text(text))
    assert not result.ok and result.line == _line_of(text, "resigned 0")
    assert result.problem.startswith("R21")


def test_a_round_after_a_resignation_is_a_syntax_error() -> None:
    record = _record(2, 1, 0, 2, 0)
    text = write_text(record)
    block = text[text.index("round 1") :]
    with pytest.raises(ValueError, match="a resignation ends the match"):
        parse_text(text + "\n" + block.replace("round 1", "round 2"))
