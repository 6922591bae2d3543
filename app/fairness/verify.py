"""Checking a finished round against its revealed seed: the commitment, the deal, the
starter, and every move replayed through the engine, so that every draw is seen to
come from the committed stock in order (R17, R18) and the revealed hands (R22) to be
what is left of the committed deal.

>>> from app.fairness.play import start_match
>>> seed, ids = bytes(range(32)), DealIds("ABC123", 1, 1)
>>> m = start_match(seed, 3, ids)
>>> while not m.round_over:
...     seat = m.turn
...     _ = m.play(seat, m.legal_moves(seat)[-1])
>>> verify_round(seed, commitment(seed, ids), ids, 3, m.history[0])
Verdict(ok=True, reason='deal verified')
>>> verify_round(seed, commitment(seed, DealIds("ABC123", 1, 2)), ids, 3, m.history[0]).reason
'the commitment does not match the revealed seed'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import IllegalMove, Move, Round, format_tile

from .deal import DealIds, commitment, deal_from_seed, starter_for


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``ok`` and, in words, why (``"deal verified"`` when ok)."""

    ok: bool
    reason: str


Observed = tuple[int, str, int | None, str | None, bool | None]


def observed_moves(entry: Mapping[str, Any]) -> list[Observed]:
    """``(seat, move, points, drawn, must_play)`` of each move of a round, from either a
    ``Match.history`` record (``log`` lists) or a ``history_for`` round (``moves``
    events, where a drawn tile may be hidden as ``None``)."""
    if "log" in entry:
        return [(int(s), str(m), int(p), d, bool(f)) for s, m, p, d, f in entry["log"]]
    return [
        (int(e["seat"]), str(e["move"]), e.get("points"), e.get("drawn"), e.get("must_play"))
        for e in entry["moves"]
    ]


def verify_round(
    seed: bytes,
    published: str,
    ids: DealIds,
    players: int,
    entry: Mapping[str, Any],
    previous: Mapping[str, Any] | None = None,
) -> Verdict:
    """Check a finished round (``entry``: its history record, with its ``starter``, its
    moves and its ``settlement``) against the revealed ``seed`` and the ``published``
    commitment. ``previous`` is the previous round's settlement (``None`` in round 1)."""
    if commitment(seed, ids) != published.lower():
        return Verdict(False, "the commitment does not match the revealed seed")
    deal = deal_from_seed(seed, players, ids)
    starter = starter_for(deal.lot, previous)
    if int(entry["starter"]) != starter:
        why = "the finisher (R23)" if starter != deal.lot else "the committed lot (R7, R23)"
        return Verdict(False, f"seat {entry['starter']} started, but {why} is seat {starter}")
    return replay_against_deal(deal.hands, deal.stock, starter, entry)


def replay_against_deal(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str],
    starter: int,
    entry: Mapping[str, Any],
) -> Verdict:
    """Replay ``entry``'s moves on the given deal and compare every observable."""
    rnd = Round.from_deal(hands, stock, starter)
    drawn_so_far = 0
    for index, (seat, text, points, drawn, must_play) in enumerate(observed_moves(entry)):
        where = f"move {index + 1}"
        if seat != rnd.turn:
            return Verdict(False, f"{where}: seat {seat} moved, but it was seat {rnd.turn}'s turn")
        try:
            earned = rnd.play(Move.parse(text))
        except (IllegalMove, ValueError) as exc:
            return Verdict(False, f"{where} ({text}) is impossible with the committed deal: {exc}")
        _, move, _, tile, fits = rnd.log[-1]
        if move.kind == "draw":
            expected = stock[drawn_so_far]
            drawn_so_far += 1
            if drawn is not None and drawn != expected:
                return Verdict(
                    False,
                    f"{where}: seat {seat} drew {drawn}, but the committed stock gives "
                    f"{expected} as draw {drawn_so_far} (R18)",
                )
            assert format_tile(tile) == expected
            if must_play is not None and must_play != fits:
                return Verdict(False, f"{where}: 'must play' disagrees with the drawn tile (R18)")
        elif points is not None and points != earned:
            return Verdict(False, f"{where}: {points} points recorded, the rules give {earned}")
    settlement = entry.get("settlement")
    if not rnd.is_over or settlement is None:
        return Verdict(False, "the round is not over: its seed must not be revealed yet")
    if settlement.get("result") != rnd.result or settlement.get("finisher") != rnd.finisher:
        return Verdict(False, f"the round ended {rnd.result}, not {settlement.get('result')}")
    left = [[format_tile(t) for t in rnd.hand(s)] for s in range(rnd.players)]
    for seat, hand in enumerate(settlement.get("hands", [])):
        if sorted(hand) != sorted(left[seat]):
            return Verdict(
                False,
                f"seat {seat} showed {' '.join(hand) or '-'} at the end, but the committed "
                f"deal and the moves leave {' '.join(left[seat]) or '-'} (R22)",
            )
    return Verdict(True, "deal verified")


__all__ = ["Observed", "Verdict", "observed_moves", "replay_against_deal", "verify_round"]
