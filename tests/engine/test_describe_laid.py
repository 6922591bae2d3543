"""The layout described from a view's layout data says exactly what the layout itself
says, in both languages, at every state of whole matches (``describe`` answers from the
delivered data; snapshots from the round)."""

from __future__ import annotations

import random

from app.engine import Match, describe_layout, view_for
from app.engine.describe import LANGUAGES, describe_laid


def test_the_delivered_layout_data_is_described_as_the_layout_is() -> None:
    states = 0
    for seed in range(12):
        rng = random.Random(seed)
        match = Match.new(2 + seed % 3, rng)
        while True:
            laid = view_for(match, None, describe=False)["layout"]
            for language in LANGUAGES:
                assert describe_laid(laid, language) == describe_layout(
                    match.round.layout, language
                ), (seed, states)
            states += 1
            if match.over:
                break
            if match.round_over:
                match.next_round(rng)
                continue
            seat = match.turn
            assert seat is not None
            match.play(seat, rng.choice(match.legal_moves(seat)))
    assert states > 500
