"""Every level returns one of the view's legal moves in every state, deterministically.

Rounds of 2, 3 and 4 players with the real engine; the states include openings (R8),
forced draws and must-play-the-drawn-tile (R17, R18) and passes (R19).
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots import LEVELS, SeatView, choose_move
from app.engine import Match, view_for

from .positions import states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_returns_a_legal_move_in_every_state_of_random_rounds(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        for state in states(players, seed):
            view = SeatView.from_view(view_for(state.match, state.seat))
            legal = {e.move for e in view.legal}
            kinds = {e.kind for e in view.legal}
            seen["draw" if "draw" in kinds else "pass" if "pass" in kinds else "place"] += 1
            if view.must_play is not None:
                seen["must_play"] += 1
                assert all(e.tile == view.must_play for e in view.legal)  # R18
            for level in LEVELS:
                move = choose_move(level, view, random.Random(seed), playouts=3)
                assert move in legal, (level, move, sorted(legal))
    # the rounds went through forced draws and must-play states (R17, R18)
    assert seen["draw"] > 0 and seen["must_play"] > 0 and seen["place"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_passes_when_the_stock_is_empty_and_nothing_fits(players: int) -> None:
    passes = 0
    for seed in range(3000):
        for state in states(players, seed, levels=("easy",)):
            view = SeatView.from_view(view_for(state.match, state.seat))
            if [e.move for e in view.legal] != ["pass"]:
                continue
            passes += 1
            for level in LEVELS:
                assert choose_move(level, view, random.Random(seed), playouts=3) == "pass"  # R19
        if passes >= 3:
            break
    assert passes >= 3


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), pick=st.integers(0, 60))
def test_every_level_is_deterministic_given_its_random_source(
    players: int, seed: int, pick: int
) -> None:
    all_states = list(states(players, seed))
    state = all_states[pick % len(all_states)]
    view = SeatView.from_view(view_for(state.match, state.seat))
    for level in LEVELS:
        first = choose_move(level, view, random.Random(seed), playouts=4)
        again = choose_move(level, view, random.Random(seed), playouts=4)
        assert first == again
    assert choose_move("hard", view, random.Random(seed), budget_ms=0) == choose_move(
        "hard", view, random.Random(seed), budget_ms=0
    )


def test_easy_spreads_its_choices_over_the_legal_moves() -> None:
    match = Match.new(2, random.Random(4))
    view = SeatView.from_view(view_for(match, match.turn))
    chosen = {choose_move("easy", view, random.Random(s)) for s in range(200)}
    assert chosen == {e.move for e in view.legal}  # uniformly random: all five openings (R8)


def test_a_spectator_view_is_refused() -> None:
    match = Match.new(3, random.Random(1))
    with pytest.raises(ValueError, match="spectator"):
        SeatView.from_view(view_for(match, None))


@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_not_to_move_is_refused(level: str) -> None:
    match = Match.new(4, random.Random(1))
    assert match.turn is not None
    view = SeatView.from_view(view_for(match, (match.turn + 1) % 4))
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose_move(level, view, random.Random(1))  # type: ignore[arg-type]


def test_an_unknown_level_is_refused() -> None:
    match = Match.new(2, random.Random(1))
    view = SeatView.from_view(view_for(match, match.turn))
    with pytest.raises(ValueError, match="unknown level"):
        choose_move("expert", view, random.Random(1))  # type: ignore[arg-type]


def test_a_seat_view_survives_pickling_for_a_process_pool() -> None:
    match = Match.new(4, random.Random(6))
    for _ in range(6):
        seat = match.turn
        assert seat is not None
        match.play(seat, match.legal_moves(seat)[0])
    view = SeatView.from_view(view_for(match, match.turn))
    copy = pickle.loads(pickle.dumps(view))
    assert copy == view
    assert choose_move("hard", copy, random.Random(3), playouts=5) == choose_move(
        "hard", view, random.Random(3), playouts=5
    )
