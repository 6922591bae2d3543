"""The no-peek test: rearranging what a seat cannot see never changes its bot's choice.

For many mid-round positions (2, 3 and 4 players) the tiles the seat to move cannot see
— the other hands and the stock (R5) — are moved around in the original deal, and the
recorded moves are replayed on the rearranged deal by the real engine. A rearrangement
counts only if it is consistent with the public record: every move is still legal
(draws only when nothing fits, R17; a kept draw still did not fit and a drawn tile
still had to be placed, R18; passes only on an empty stock, R19) and the round is not
blocked any sooner (R20). Then the seat's view must be identical and every level's
choice with the same seed unchanged.
"""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, SeatView, choose_move
from app.engine import IllegalMove, Match, view_for

from .positions import State, states


def positions_of(state: State) -> list[tuple[int, int]]:
    """Where the deal put the tiles the seat to move cannot see: (hand or -1, index)."""
    rnd = state.match.round
    visible = {str(t["tile"]) for t in view_for(state.match, state.seat)["layout"]["tiles"]}
    visible |= set(view_for(state.match, state.seat)["hand"])
    found = [
        (seat, i)
        for seat, hand in enumerate(state.hands)
        for i, tile in enumerate(hand)
        if tile not in visible
    ]
    found += [(-1, i) for i, tile in enumerate(state.stock) if tile not in visible]
    assert (
        len(found)
        == sum(rnd.hand_sizes()) - len(view_for(state.match, state.seat)["hand"]) + rnd.stock_size
    )
    return found


def rearranged(state: State, rng: random.Random) -> Match | None:
    """The round replayed from a deal with some unseen tiles swapped, if consistent."""
    spots = positions_of(state)
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)

    def get(spot: tuple[int, int]) -> str:
        return stock[spot[1]] if spot[0] < 0 else hands[spot[0]][spot[1]]

    def put(spot: tuple[int, int], tile: str) -> None:
        if spot[0] < 0:
            stock[spot[1]] = tile
        else:
            hands[spot[0]][spot[1]] = tile

    if rng.random() < 0.3:
        tiles = [get(s) for s in spots]
        rng.shuffle(tiles)
        for spot, tile in zip(spots, tiles, strict=True):
            put(spot, tile)
    else:
        for _ in range(rng.randint(1, 3)):
            x, y = rng.sample(spots, 2)
            tx, ty = get(x), get(y)
            put(x, ty)
            put(y, tx)
    match = Match.from_deal(hands, stock, state.starter)
    original = Match.from_deal(state.hands, state.stock, state.starter)
    try:
        for move in state.moves:
            seat = match.turn
            assert seat is not None
            event = match.play(seat, move)
            expected = original.play(seat, move)
            if event["must_play"] != expected["must_play"]:
                return None  # a kept draw would have fitted, or the other way round (R18)
    except (IllegalMove, AssertionError):
        return None  # the record rules this deal out (R17–R20)
    if match.turn != state.seat:
        return None  # blocked sooner (R20)
    return match


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_level_changes_its_choice_when_unseen_tiles_are_rearranged(players: int) -> None:
    rng = random.Random(players)
    tested = changed_hands = 0
    for seed in range(12):
        for state in states(players, 100 + seed):
            if len(state.moves) < 3 or rng.random() < 0.5:
                continue
            view = view_for(state.match, state.seat)
            choices = {
                level: choose_move(level, SeatView.from_view(view), random.Random(seed), playouts=4)
                for level in LEVELS
            }
            for _ in range(8):
                other = rearranged(state, rng)
                if other is None:
                    continue
                theirs = [other.round.hands[s] for s in range(players) if s != state.seat]
                ours = [state.match.round.hands[s] for s in range(players) if s != state.seat]
                if theirs == ours and other.round.stock_tiles() == state.match.round.stock_tiles():
                    continue  # nothing hidden moved after all
                changed_hands += theirs != ours
                other_view = view_for(other, state.seat)
                assert other_view == view  # the rearrangement is invisible to the seat (R5)
                for level in LEVELS:
                    again = choose_move(
                        level, SeatView.from_view(other_view), random.Random(seed), playouts=4
                    )
                    assert again == choices[level], (level, state.moves)
                tested += 1
    assert tested >= 100 and changed_hands >= 30  # many positions, other hands really changed
