"""The provably fair deal (commit and reveal): a fresh secret seed per round, a public
commitment to it before the first move, and a documented deterministic procedure that
turns the seed into the hands, the stock order and the starter's lot (R5–R7, R23).
See docs/fairness.md; ``static/js/fair/verify.js`` is the same procedure in the browser.

>>> ids = DealIds("ABC123", 1, 1)
>>> seed = new_seed()
>>> deal_from_seed(seed, 4, ids) == deal_from_seed(seed, 4, ids), len(seed)
(True, 32)
"""

from .deal import (
    COMMIT_CONTEXT,
    DEAL_CONTEXT,
    SEED_BYTES,
    Deal,
    DealIds,
    commitment,
    commitment_message,
    deal_context,
    deal_from_seed,
    new_seed,
    shuffled_tiles,
    starter_for,
)
from .play import next_round, start_match
from .stream import ByteStream, fisher_yates, hmac_block
from .verify import Verdict, observed_moves, replay_against_deal, verify_round

__all__ = [
    "COMMIT_CONTEXT",
    "DEAL_CONTEXT",
    "SEED_BYTES",
    "ByteStream",
    "Deal",
    "DealIds",
    "Verdict",
    "commitment",
    "commitment_message",
    "deal_context",
    "deal_from_seed",
    "fisher_yates",
    "hmac_block",
    "new_seed",
    "next_round",
    "observed_moves",
    "replay_against_deal",
    "shuffled_tiles",
    "start_match",
    "starter_for",
    "verify_round",
]
