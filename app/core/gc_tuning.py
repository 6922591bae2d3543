"""The garbage collector's settings for a serving process.

:func:`tune_gc` freezes what the process built at startup (modules, the app) out of the
cyclic collector's sight (``gc.freeze``), once per process, and raises the young
generation's threshold from Python's 700 to 50,000 net allocations: a move allocates a
few thousand short-lived containers, almost all freed by reference counting, and the
young objects still alive at a collection are every table's current views, so rarer
collections cost less in total and delay fewer moves. The measurements behind these
numbers, and the thresholds tried and refused, are in docs/benchmarks.md ("The
collector").
"""

from __future__ import annotations

import gc

#: allocations (net of frees) between two young-generation collections (Python: 700)
GEN0_THRESHOLD = 50_000

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
