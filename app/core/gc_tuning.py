"""The garbage collector's settings for a serving process.

A move allocates a few thousand short-lived containers (views, patches, frames), almost
all freed by reference counting; with the default thresholds (700, 10, 10) the cyclic
collector still runs every few moves and, as the hot tables' state grows, a full
collection of everything every few hundred moves — ≈ 0.1 ms of CPU per move at 200
tables (docs/benchmarks.md, issue 7). :func:`tune_gc` moves what the process built at
startup (modules, the app) out of the collector's sight for good (``gc.freeze``), once
per process, so no collection walks it again.

The young generation's threshold is 5,000 net allocations instead of Python's 700. At
200 tables flat out the default thresholds spent ≈ 3.1 s of a 24 s run in the collector
(13 %: 2,000 young collections, 180 middle ones and 16 full ones of ≈ 65 ms each); at
5,000, 0.75–1.0 s (≈ 120 young collections of ≈ 5 ms, a dozen middle ones, no full one
in the window), 0.61–0.63 ms of CPU per move against 0.65–0.70. At 500 tables paced like
people the tail shortened too: p99 9–16 ms and max 35–51 ms against 23–25 ms and
106–148 ms (the full collections, every few seconds at 700, are what the max was made
of). A threshold of 20,000, tried before, made each young collection long enough to
show in that tail (docs/benchmarks.md, issue 7).
"""

from __future__ import annotations

import gc

#: allocations (net of frees) between two young-generation collections (Python: 700)
GEN0_THRESHOLD = 5000

_tuned = False


def tune_gc() -> None:
    """Apply the serving settings (once per process; later calls do nothing)."""
    global _tuned
    if _tuned:
        return
    _tuned = True
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    gc.freeze()
