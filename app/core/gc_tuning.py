"""The garbage collector's settings for a serving process.

A move allocates a few thousand short-lived containers (views, patches, frames), almost
all freed by reference counting; with the default thresholds (700, 10, 10) the cyclic
collector still runs every few moves and, as the hot tables' state grows, a full
collection of everything every few hundred moves — ≈ 0.1 ms of CPU per move at 200
tables (docs/benchmarks.md, issue 7). :func:`tune_gc` moves what the process built at
startup (modules, the app) out of the collector's sight for good (``gc.freeze``), once
per process, so no collection walks it again.

The young generation's threshold stays at Python's default: a threshold 30 times higher
(20,000) saved nothing measurable at 200 tables flat out on the final code (0.84 against
0.86 ms per move) and made the rarer collections long enough to show in the paced
benchmark's tail (max 135–143 ms against 52–58 ms, p99 26–48 ms against 20–29 ms at 500
tables; docs/benchmarks.md).
"""

from __future__ import annotations

import gc

#: allocations (net of frees) between two young-generation collections (Python's default)
GEN0_THRESHOLD = 700

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
