"""The result of a match that just ended, from the engine's match and the table's
players (what the match-end change writes: app/db/result_rows.py)."""

from __future__ import annotations

from app.db.result_rows import MatchResult, SeatResult
from app.db.rows import PlayerState, TableState
from app.engine import Match


def match_result(table: TableState, players: list[PlayerState], match: Match) -> MatchResult:
    """Each seat's figures over the match (its finished rounds, and the moves of a round
    a resignation cut short): rounds it dominoed (R21),
    the displayed points its moves made (raw points ÷ 5, R15) in all and in its best
    round, and what its hands cost at settlements (R22)."""
    assert match.over and match.winner is not None
    seats = match.players
    made = [0] * seats
    best = [0] * seats
    dominoed = [0] * seats
    deducted = [0] * seats
    for finished in match.history:
        in_round = [0] * seats
        for entry in finished["log"]:
            in_round[int(entry[0])] += int(entry[2]) // 5
        settlement = finished["settlement"]
        for seat in range(seats):
            made[seat] += in_round[seat]
            best[seat] = max(best[seat], in_round[seat])
            deducted[seat] += int(settlement["deductions"][seat])
        if settlement["result"] == "domino" and settlement["finisher"] is not None:
            dominoed[int(settlement["finisher"])] += 1
    if not match.round_over:  # resigned in the middle of a round: its moves count too
        in_round = [0] * seats
        for seat, _move, points, _drawn, _must in match.round.log:
            in_round[seat] += points // 5
        for seat in range(seats):
            made[seat] += in_round[seat]
            best[seat] = max(best[seat], in_round[seat])
    by_seat = {p.seat: p for p in players}
    return MatchResult(
        match_number=table.match_number,
        players=seats,
        rated=table.rated,
        target=match.target,
        rounds=len(match.history),
        winner_side=match.winner,
        resigned_seat=table.resigned,
        seats=tuple(
            SeatResult(
                seat=seat,
                side=match.side_of(seat),
                name=by_seat[seat].name if seat in by_seat else "",
                token_hash=by_seat[seat].token_hash if seat in by_seat else "",
                bot=by_seat[seat].bot if seat in by_seat else None,
                won=match.side_of(seat) == match.winner,
                score=match.scores[match.side_of(seat)],
                rounds_dominoed=dominoed[seat],
                points_made=made[seat],
                deductions=deducted[seat],
                best_round=best[seat],
            )
            for seat in range(seats)
        ),
    )
