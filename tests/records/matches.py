"""Random but reproducible matches dealt from seeds, played to 61 by a seeded random
player through the real engine, and their records."""

from __future__ import annotations

import random

from app.engine import Match
from app.fairness import DealIds, next_round, start_match
from app.records import Record, RecordMeta, record_from_match

NAMES = ("Ann", 'Bob "the dealer"', "Олена", "Dee | 4")


def play_match(players: int, game: int, code: str = "ABC123") -> tuple[Match, dict[int, bytes]]:
    """A whole match (until R24 ends it), each round dealt from its own seed."""
    rng = random.Random(f"{players}/{game}")
    seeds = {1: rng.randbytes(32)}
    match = start_match(seeds[1], players, DealIds(code, game, 1))
    while True:
        while not match.round_over:
            seat = match.turn
            assert seat is not None
            match.play(seat, rng.choice(match.legal_moves(seat)))
        if match.over:
            return match, seeds
        number = match.round_number + 1
        seeds[number] = rng.randbytes(32)
        next_round(match, seeds[number], DealIds(code, game, number))


def meta(players: int, game: int, seeds: dict[int, bytes], code: str = "ABC123") -> RecordMeta:
    return RecordMeta("2026-11-30", code, game, NAMES[:players], seeds)


def recorded_match(players: int, game: int) -> tuple[Match, Record]:
    match, seeds = play_match(players, game)
    return match, record_from_match(match, meta(players, game, seeds))
