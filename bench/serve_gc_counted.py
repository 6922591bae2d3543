"""Run ``fiveup serve`` (one process) and, at shutdown, print to stderr how much CPU the
garbage collector took, by generation — optionally with other collector thresholds.

    SERVER_CMD="python bench/serve_gc_counted.py" SKIP_PGBENCH=1 bench/run_load.sh 200 15
    GC_THRESHOLDS=700,10,10 SERVER_CMD="python bench/serve_gc_counted.py" ...

The line lands in the server's log (``SERVER_LOG``, /tmp/fiveup-bench-server.log)::

    GC (5000, 10, 10): gen0 116x 594 ms, gen1 10x 157 ms, gen2 0x 0 ms; total 750 ms
    of 24.3 s process CPU

``GC_LOG=1`` also logs every collection as it ends (wall-clock time, generation, the
objects it walked, its CPU time, what it collected), and, for a young collection of
more than 20,000 objects, what they are (the 15 commonest types) — to line the
collections up with the slow moves of ``bench/load_tables.py --timeline``.

``GC_THRESHOLDS`` replaces the serving thresholds of ``app/core/gc_tuning.py`` (the
young one through its ``GEN0_THRESHOLD``, which the app applies at startup). Collections
are timed by the thread's CPU clock, so a busy machine does not inflate them.
"""

from __future__ import annotations

import atexit
import collections
import gc
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app/

import app.core.gc_tuning as gc_tuning

_cpu = [0.0, 0.0, 0.0]
_walked = [0]
_lines: list[str] = []
_log = os.environ.get("GC_LOG") == "1"
_count = [0, 0, 0]
_started = [0.0]


def _timed(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        if _log:
            young = gc.get_objects(0)
            _walked[0] = len(young) + sum(
                len(gc.get_objects(g)) for g in range(1, info["generation"] + 1)
            )
            if info["generation"] == 0 and len(young) > 20_000:
                kinds = collections.Counter(type(o).__qualname__ for o in young)
                _lines.append("  young: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common(15)))
            del young
        _started[0] = time.thread_time()
    else:
        generation = info["generation"]
        spent = time.thread_time() - _started[0]
        _cpu[generation] += spent
        _count[generation] += 1
        if _log:
            _lines.append(
                f"{time.time():.3f} gen{generation}: {_walked[0]} objects,"
                f" {spent * 1000:.1f} ms CPU, collected {info['collected']}"
            )


def _report() -> None:
    if _lines:
        sys.stderr.write("\n".join(_lines) + "\n")
    parts = ", ".join(f"gen{g} {_count[g]}x {_cpu[g] * 1000:.0f} ms" for g in range(3))
    sys.stderr.write(
        f"GC {gc.get_threshold()}: {parts}; total {sum(_cpu) * 1000:.0f} ms"
        f" of {time.process_time():.1f} s process CPU\n"
    )


def main() -> int:
    if "GC_THRESHOLDS" in os.environ:
        young, middle, old = (int(x) for x in os.environ["GC_THRESHOLDS"].split(","))
        gc.set_threshold(young, middle, old)  # the app keeps the middle and old ones
        gc_tuning.GEN0_THRESHOLD = young
    gc.callbacks.append(_timed)
    atexit.register(_report)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    from app.cli import main as fiveup

    sys.argv = ["fiveup", "serve", *sys.argv[1:]]
    return fiveup()


if __name__ == "__main__":
    sys.exit(main())
