"""Every pass is automatic on this server (R19: a pass is legal only when it is the only
legal move, and the server plays it itself), so the log marks every pass "(automatic)" —
also one that arrives in a snapshot after a reload, where no event said ``auto``."""

from __future__ import annotations

import random

from app.engine import Match, view_for

from .flows import start_two_player_game
from .test_table_details import _inject


def test_a_pass_in_a_snapshot_is_marked_automatic(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _bob, code = start_two_player_game(new_page)
    rng = random.Random(1)
    for seed in range(200):
        m = Match.new(2, random.Random(seed))
        while not m.round_over:
            m.play(m.turn, rng.choice(m.legal_moves(m.turn)))
            if view_for(m, 0)["log"][-1]["kind"] == "pass" and not m.round_over:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no pass in 200 rounds")
    v = view_for(m, 0)
    assert "auto" not in v["log"][-1]  # the view's log does not say it
    _inject(ann, code, v, 30_000)  # what a reload gets: a snapshot, no events
    ann.wait_for_function("document.body.dataset.seq === '30000'")
    top = ann.inner_text("[data-testid=log] li:first-child")
    assert "passed" in top and "(automatic)" in top
