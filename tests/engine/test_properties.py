"""Property tests of the engine over random deals and random legal play (2, 3, 4 players)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import DRAW, PASS, IllegalMove, Match, Move, view_for
from app.engine.moves import OPEN, PLACEMENT
from app.engine.round import NO_TILE, settlement_deduction
from app.engine.tiles import NAMES

ALL_MOVES: list[Move] = [DRAW, PASS, *OPEN] + [m for row in PLACEMENT for m in row if m is not None]
TILE_RE = re.compile(r"[0-6]\|[0-6]")


def tiles_named(data: Any) -> set[str]:
    """Every tile notation that appears in any string anywhere in ``data``."""
    found: set[str] = set()
    if isinstance(data, str):
        found.update(TILE_RE.findall(data))
    elif isinstance(data, dict):
        for key, value in data.items():
            found |= tiles_named(key)
            found |= tiles_named(value)
    elif isinstance(data, list | tuple):
        for item in data:
            found |= tiles_named(item)
    return found


def known_to(match: Match, recipient: int | None) -> set[str]:
    """Tiles ``recipient`` may know: the layout, its own hand, revealed hands (R5, R22)."""
    rnd = match.round
    known = {NAMES[t] for t in rnd.layout.tiles}
    if recipient is not None:
        known |= {NAMES[t] for t in rnd.hand(recipient)}
    if match.settlement is not None:
        for hand in match.settlement["hands"]:
            known |= set(hand)
    return known


def assert_views_hide_everything_else(match: Match) -> None:
    for recipient in [None, *range(match.players)]:
        view = view_for(match, recipient)
        leaked = tiles_named(view) - known_to(match, recipient)
        assert not leaked, f"view for {recipient} names hidden tiles {leaked}"
        json.dumps(view)  # plain JSON data


def assert_state_round_trips(match: Match) -> None:
    data = match.to_dict()
    again = Match.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.turn == match.turn
    if match.turn is not None:
        assert again.legal_moves(again.turn) == match.legal_moves(match.turn)


def play_checked_round(match: Match, rng: random.Random, ledger: list[int]) -> None:
    """Play the current round to its end with random legal moves, checking invariants."""
    while not match.round_over:
        rnd = match.round
        assert rnd.tiles_accounted()  # R1: 28 tiles in hands + stock + layout
        seat = match.turn
        assert seat is not None
        legal = match.legal_moves(seat)
        assert legal, "a round that is not over always has a legal move"
        for other in range(match.players):
            if other != seat:
                assert match.legal_moves(other) == []
        # every legal move applies (on a copy)
        for move in legal:
            match.round.copy().play(move)
        # illegal moves are refused and change nothing
        before = match.to_dict()
        legal_set = set(legal)
        for move in rng.sample(ALL_MOVES, 25):
            if move in legal_set:
                continue
            try:
                match.play(seat, move)
            except IllegalMove as exc:
                assert re.match(r"R\d+: ", str(exc))
            else:
                raise AssertionError(f"{move} was accepted but is not legal")
        other_seat = (seat + 1) % match.players
        try:
            match.play(other_seat, legal[0])
        except IllegalMove as exc:
            assert exc.rule == "R8"
        else:
            raise AssertionError("a move out of turn was accepted")
        assert match.to_dict() == before
        chosen = rng.choice(legal)
        promised = {e["move"]: e.get("points") for e in view_for(match, seat)["legal"]}
        event = match.play(seat, chosen)
        if chosen.tile is not None:
            assert promised[chosen.text] == event["points"]  # the view's points are the real ones
        fresh = Match.from_dict(match.to_dict())
        for recipient in [None, *range(match.players)]:
            view = view_for(match, recipient)
            assert view == view_for(fresh, recipient)  # the caches are exact
            for entry, (mover, _, _, drawn, _) in zip(view["log"], match.round.log, strict=True):
                # R5: a drawn tile is shown to the seat that drew it, to no one else
                shown = NAMES[drawn] if drawn != NO_TILE and mover == recipient else None
                assert entry["drawn"] == shown
            assert view["last_move"] == view["log"][-1]
        ledger[match.side_of(seat)] += event["points"] // 5
        assert_views_hide_everything_else(match)
        assert_state_round_trips(match)
    settlement = match.settlement
    assert settlement is not None
    for seat, pips in enumerate(settlement["pips"]):
        assert settlement["deductions"][seat] == settlement_deduction(pips)
        ledger[match.side_of(seat)] -= settlement["deductions"][seat]
    assert match.scores == ledger  # awards minus settlements, nothing else
    assert match.round.tiles_accounted()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_random_rounds_keep_every_invariant(players: int, seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(players, rng)
    ledger = [0] * match.side_count
    assert_views_hide_everything_else(match)
    play_checked_round(match, rng, ledger)
    assert_views_hide_everything_else(match)
    assert_state_round_trips(match)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_random_matches_settle_and_end_only_with_a_single_leader_at_or_over_the_target(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    match = Match.new(players, rng, target=8)  # a low target reaches the end sooner
    ledger = [0] * match.side_count
    for _ in range(30):  # random play may drift below zero (R22 has no floor): bounded
        play_checked_round(match, rng, ledger)
        top = max(match.scores)
        if match.over:
            # R24: the sole leader with at least the target wins
            assert top >= match.target and match.scores.count(top) == 1
            assert match.winner == match.scores.index(top)
            break
        assert top < match.target or match.scores.count(top) > 1  # R25: tie plays on
        previous = match.round
        match.next_round(rng)
        if previous.result == "domino":
            assert match.round.starter == previous.finisher  # R23
        assert_state_round_trips(match)
