"""One delivery's frames (app/realtime/delivery.py, app/realtime/table_info.py), without
sockets: every recipient's patched view, built from projections each made on the one
before (app/realtime/projection.py), is its true view, whole matches long, and a
table info built from the last one is the one built afresh."""

from __future__ import annotations

import random
from typing import Any

import orjson

from app.core.clock_presets import Presets
from app.db.rows import EventRecord, PlayerState, TableState, TableStatus
from app.engine import Match, view_for
from app.realtime.delivery import Sent, event_texts
from app.realtime.frames import DESCRIPTION_FIELDS
from app.realtime.patch import apply
from app.realtime.projection import Projector
from app.realtime.table_info import summary_of, table_info


def _without_descriptions(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in DESCRIPTION_FIELDS}


def test_patched_views_are_every_recipients_true_view_through_whole_matches() -> None:
    rng = random.Random(7)
    for players in (2, 3, 4):
        recipients: list[int | None] = [*range(players), None]
        match = Match.new(players, rng)
        held = {r: _without_descriptions(view_for(match, r)) for r in recipients}
        projector = Projector()  # each state's projection built on the one before
        sent = Sent()
        texts, sent = event_texts(
            [EventRecord(1, "round_start", match.round_start_event())],
            recipients,
            projector.project(1, 1, 1, match),
            sent,
            None,
        )
        seq = 1
        while not match.over:
            if match.round_over:
                payload = match.next_round(rng)
            else:
                payload = match.play(match.turn, rng.choice(match.legal_moves(match.turn)).text)
            seq += 1
            event = EventRecord(seq, str(payload["type"]), payload, seat=payload.get("seat"))
            views = projector.project(1, seq, 1, match)
            texts, sent = event_texts([event], recipients, views, sent, None)
            for r in recipients:
                (frame,) = [orjson.loads(t) for t in texts[r]]
                if "view" in frame:
                    held[r] = frame["view"]
                elif "view_patch" in frame:
                    held[r] = apply(held[r], frame["view_patch"])
                assert held[r] == _without_descriptions(view_for(match, r)), (players, seq, r)


def test_a_table_info_built_from_the_last_one_equals_one_built_afresh() -> None:
    table = TableState(
        id=1, code="ABCDEF", name="t", players=2, public=True, status=TableStatus.PLAYING,
        host_seat=0, version=1, seq=5, match_number=1, state=None, rematch_votes=[],
        ready=[], round_over_at=None,
    )  # fmt: skip
    ann = PlayerState(1, 0, "Ann", "x", None, False, 0, None)
    bob = PlayerState(2, 1, "Bob", "y", None, False, 0, None)
    match = summary_of(Match.new(2, random.Random(1)))
    clocks = Presets()

    def info(players: list[PlayerState], before: dict[str, Any] | None, **kw: Any) -> Any:
        return table_info(
            table, players, match, next_round_seconds=5, clocks=clocks, before=before, **kw
        )

    last = info([ann], None, connected=[0])
    steps = [
        ([ann], {"connected": [0]}),  # nothing changed but the seq
        ([ann, bob], {"connected": [0]}),  # someone sat down
        ([ann, bob], {"connected": [0, 1], "spectators": 2}),  # came in; spectators
        ([ann, bob], {"connected": [1], "presence": {0: ("disconnected", 12.5)}}),
    ]
    for players, kw in steps:
        table.seq += 1
        if len(players) == 2:
            table.clock = "fast"  # another clock preset
        now = info(players, last, **kw)
        assert now == info(players, None, **kw)
        assert (now["seats"] is last["seats"]) == (now["seats"] == last["seats"])
        last = now
