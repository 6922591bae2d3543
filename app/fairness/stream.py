"""The deterministic random stream of a fair deal: HMAC-SHA-256 blocks, unbiased integers
by rejection sampling, and a Fisher–Yates shuffle (docs/fairness.md, steps 2–4).

Everything here is a pure function of the seed and the context string, so anyone who
knows both can recompute it (R5: the shuffle is fixed before the round starts).

>>> s = ByteStream(bytes(32), "fiveup-deal/v1|ABC123|1|1")
>>> block = hmac_block(bytes(32), "fiveup-deal/v1|ABC123|1|1", 0)
>>> [s.next_byte() for _ in range(3)] == list(block[:3])
True
>>> shuffled = fisher_yates(list(range(28)), ByteStream(bytes(32), "x"))
>>> sorted(shuffled) == list(range(28)), shuffled != list(range(28))
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TypeVar

T = TypeVar("T")


def hmac_block(seed: bytes, context: str, counter: int) -> bytes:
    """Block ``counter`` of the stream: HMAC-SHA-256(key=seed, msg=context + "|" + counter).

    The counter is written in decimal ASCII, so a block can be recomputed with
    ``printf '%s|%d' CONTEXT N | openssl dgst -sha256 -mac HMAC -macopt hexkey:SEED``.
    """
    message = f"{context}|{counter}".encode("ascii")
    return hmac.new(seed, message, hashlib.sha256).digest()


class ByteStream:
    """The bytes of blocks 0, 1, 2, … of :func:`hmac_block`, read one at a time."""

    __slots__ = ("_block", "_context", "_counter", "_pos", "_seed", "consumed")

    def __init__(self, seed: bytes, context: str) -> None:
        self._seed = seed
        self._context = context
        self._counter = 0
        self._block = b""
        self._pos = 0
        self.consumed = 0  # bytes read so far (for the docs' worked example)

    def next_byte(self) -> int:
        if self._pos == len(self._block):
            self._block = hmac_block(self._seed, self._context, self._counter)
            self._counter += 1
            self._pos = 0
        byte = self._block[self._pos]
        self._pos += 1
        self.consumed += 1
        return byte

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n <= 256``, without bias.

        One byte ``b`` is read; if ``b < 256 - 256 % n`` the result is ``b % n``,
        otherwise the byte is rejected and another is read.

        >>> s = ByteStream(bytes(32), "ctx")
        >>> all(0 <= s.below(7) < 7 for _ in range(200))
        True
        """
        if not 1 <= n <= 256:
            raise ValueError("below(n) needs 1 <= n <= 256")
        limit = 256 - 256 % n
        while True:
            byte = self.next_byte()
            if byte < limit:
                return byte % n


def fisher_yates(items: list[T], stream: ByteStream) -> list[T]:
    """Shuffle a copy of ``items``: for ``i`` from ``len - 1`` down to 1, swap item ``i``
    with item ``j = below(i + 1)`` (the classic, unbiased Fisher–Yates/Durstenfeld)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


__all__ = ["ByteStream", "fisher_yates", "hmac_block"]
