"""The provably fair deal: a secret seed, its public commitment, and the one deterministic
procedure that turns the seed into hands, the stock order and the starter's lot
(R5–R7, R23; docs/fairness.md).

>>> ids = DealIds("ABC123", 1, 1)
>>> seed = bytes(range(32))
>>> deal = deal_from_seed(seed, 3, ids)
>>> [len(h) for h in deal.hands], len(deal.stock), 0 <= deal.lot < 3
([5, 5, 5], 13, True)
>>> deal == deal_from_seed(seed, 3, ids)
True
>>> len(commitment(seed, ids)), commitment(seed, ids) == commitment(seed, DealIds("ABC123", 1, 2))
(64, False)
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from app.engine import ALL_TILES, format_tile

from .stream import ByteStream, fisher_yates

SEED_BYTES: Final = 32  # 256 bits
HAND_SIZE: Final = 5  # R6: five tiles each, with 2, 3 or 4 players
DEAL_CONTEXT: Final = "fiveup-deal/v1"
COMMIT_CONTEXT: Final = "fiveup-commit/v1"
_CODE_RE: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class DealIds:
    """What a deal is bound to: the table's code, the match number at that table (a
    rematch is a new match) and the round number in the match (1-based)."""

    code: str
    match: int
    round: int

    def __post_init__(self) -> None:
        if not _CODE_RE.fullmatch(self.code):
            raise ValueError(f"table code {self.code!r}: expected 1-32 of A-Z a-z 0-9 _ -")
        if self.match < 0 or self.round < 1:
            raise ValueError("match number must be >= 0 and round number >= 1")

    def text(self) -> str:
        """``CODE|MATCH|ROUND`` with the numbers in decimal, e.g. ``ABC123|1|1``."""
        return f"{self.code}|{self.match}|{self.round}"


@dataclass(frozen=True)
class Deal:
    """A round's deal: each seat's five tiles (in set order: a hand is a set), the stock
    in draw order (R6, R18) and the seat the neutral lot chose (R7, used by R23)."""

    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    lot: int

    @property
    def players(self) -> int:
        return len(self.hands)

    def starter(self, previous: Mapping[str, Any] | None) -> int:
        """The round's starter: the lot in a match's first round (``previous is None``)
        and after a blocked round (R7, R23); the finisher after a domino (R23).
        ``previous`` is the previous round's settlement (``result``, ``finisher``)."""
        return starter_for(self.lot, previous)


def starter_for(lot: int, previous: Mapping[str, Any] | None) -> int:
    """R7/R23 given the lot and the previous round's settlement (or ``None``).

    >>> starter_for(2, None), starter_for(2, {"result": "blocked", "finisher": None})
    (2, 2)
    >>> starter_for(2, {"result": "domino", "finisher": 0})
    0
    """
    if previous is not None and previous.get("result") == "domino":
        return int(previous["finisher"])
    return lot


def new_seed() -> bytes:
    """A fresh 256-bit secret from the operating system's CSPRNG (R5)."""
    return secrets.token_bytes(SEED_BYTES)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")


def commitment_message(seed: bytes, ids: DealIds) -> str:
    """The text whose SHA-256 is the commitment: ``fiveup-commit/v1|CODE|MATCH|ROUND|SEEDHEX``
    (the seed in lowercase hex).

    >>> commitment_message(bytes(32), DealIds("ABC123", 1, 2))[:32]
    'fiveup-commit/v1|ABC123|1|2|0000'
    """
    _check_seed(seed)
    return f"{COMMIT_CONTEXT}|{ids.text()}|{seed.hex()}"


def commitment(seed: bytes, ids: DealIds) -> str:
    """The public commitment to a round's seed: hex SHA-256 of :func:`commitment_message`."""
    return hashlib.sha256(commitment_message(seed, ids).encode("ascii")).hexdigest()


def deal_context(ids: DealIds) -> str:
    """The HMAC message prefix of a round's stream: ``fiveup-deal/v1|CODE|MATCH|ROUND``."""
    return f"{DEAL_CONTEXT}|{ids.text()}"


def shuffled_tiles(seed: bytes, ids: DealIds) -> tuple[list[int], ByteStream]:
    """The 28 tiles (engine indices) after the Fisher–Yates shuffle of the set order
    ``0|0, 0|1, …, 6|6`` (R1, R5), and the stream, positioned for the lot."""
    _check_seed(seed)
    stream = ByteStream(seed, deal_context(ids))
    return fisher_yates(list(ALL_TILES), stream), stream


def deal_from_seed(seed: bytes, players: int, ids: DealIds) -> Deal:
    """The deal the seed fixes: seat ``s`` gets shuffled tiles ``5s … 5s+4`` (R6), the rest
    is the stock in that order (first drawn first), then the lot ``below(players)`` (R7)."""
    if players not in (2, 3, 4):
        raise ValueError("R2: 2, 3 or 4 players")
    order, stream = shuffled_tiles(seed, ids)
    hands = tuple(
        tuple(format_tile(t) for t in sorted(order[s * HAND_SIZE : (s + 1) * HAND_SIZE]))
        for s in range(players)
    )
    stock = tuple(format_tile(t) for t in order[players * HAND_SIZE :])
    lot = stream.below(players)  # R7: uniform over the seats, no ties to repeat
    return Deal(hands, stock, lot)


__all__ = [
    "COMMIT_CONTEXT",
    "DEAL_CONTEXT",
    "SEED_BYTES",
    "Deal",
    "DealIds",
    "commitment",
    "commitment_message",
    "deal_context",
    "deal_from_seed",
    "new_seed",
    "shuffled_tiles",
    "starter_for",
]
