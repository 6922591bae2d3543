"""The garbage collector's settings for a serving process.

A move allocates a few thousand short-lived containers (views, patches, frames), almost
all freed by reference counting; with the default thresholds (700, 10, 10) the cyclic
collector still runs every few moves and, as the hot tables' state grows, a full
collection of everything every few hundred moves — ≈ 0.1 ms of CPU per move at 200
tables (docs/benchmarks.md, issue 7). :func:`tune_gc` moves what the process built at
startup (modules, the app) out of the collector's sight for good (``gc.freeze``), once
per process, so no collection walks it again.

The young generation's threshold is 50,000 net allocations instead of Python's 700.
What a young collection costs is set by the young objects still alive when it runs, and
here those are mostly every table's current views, patches and socket reads, which live
until the table's next move (about 2 s at a person's pace). Python counts a young
collection's allocations *net of every free*, old objects' included, so between two
collections the young generation grows to that whole working set whatever the
threshold: at 500 tables paced like people, 30,000 objects, a 30–50 ms pause every few
seconds at 5,000, which delayed about 1 % of the moves — the p99. At 50,000 a pause is
longer (55–75 ms) but rarer (one in a 20 s window against four or five): p99 19.8–24.3
ms against 39–50 ms (four runs each, 20–180 s windows), and 8 % less CPU per move at 200
tables flat out, where the
collector took 7 % of the server's CPU at 5,000 and takes 1 % (docs/benchmarks.md,
"The collector"). 20,000 measured worse than either: its middle-generation collections
(170–210 ms) came often enough to land in a window.
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
