"""Dealing a match's rounds from seeds: the few calls the server makes (R5–R7, R23).

>>> seed1, ids = bytes(32), DealIds("ABC123", 1, 1)
>>> m = start_match(seed1, 2, ids)
>>> m.round.starter == deal_from_seed(seed1, 2, ids).lot, m.round_number
(True, 1)
>>> while not m.round_over:
...     seat = m.turn
...     _ = m.play(seat, m.legal_moves(seat)[0])
>>> next_round(m, bytes([1] * 32), DealIds("ABC123", 1, 2))["round"]
2
"""

from __future__ import annotations

from typing import Any

from app.engine import Match

from .deal import DealIds, deal_from_seed


def start_match(seed: bytes, players: int, ids: DealIds) -> Match:
    """A new match whose first round is dealt from ``seed``; its starter is the lot (R7)."""
    if ids.round != 1:
        raise ValueError("a match starts with round 1")
    deal = deal_from_seed(seed, players, ids)
    return Match.from_deal(deal.hands, deal.stock, deal.lot)


def next_round(match: Match, seed: bytes, ids: DealIds) -> dict[str, Any]:
    """Deal the next round of a settled ``match`` from ``seed`` (R6); the starter is the
    finisher after a domino, the seed's lot after a block (R23). Returns the engine's
    round-start event."""
    if ids.round != match.round_number + 1:
        raise ValueError(f"the next round is round {match.round_number + 1}, not {ids.round}")
    deal = deal_from_seed(seed, match.players, ids)
    return match.next_round_from_deal(deal.hands, deal.stock, deal.starter(match.settlement))


__all__ = ["next_round", "start_match"]
