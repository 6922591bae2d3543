"""Run ``fiveup serve`` (one process) under cProfile timed by the process's CPU clock,
so that the profile says where the server's CPU goes even on a busy machine (a wall-clock
profiler also counts the time the process waited for a core). At shutdown the stats go
to ``--out`` and the top functions (by own CPU time) to stderr.

    SERVER_CMD="python bench/serve_profiled.py --out /tmp/server.prof" \\
        SKIP_PGBENCH=1 bench/run_load.sh 200 15

cProfile's own cost makes the server slower (≈ 2×): the figures of a profiled run are
shares, not the CPU per move (run the benchmark without it for that). ``--on-signal``
profiles only from SIGUSR1 to SIGUSR2 (send them around the load's measured window).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app/


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/fiveup-server.prof")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--on-signal", action="store_true", help="profile only from SIGUSR1 to SIGUSR2")
    args, rest = ap.parse_known_args()
    from app.cli import main as cli_main

    # uvicorn re-raises the SIGTERM it caught once it has shut down: end normally then
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    prof = cProfile.Profile(time.process_time)
    if args.on_signal:  # only between SIGUSR1 and SIGUSR2 (e.g. the measured window)
        signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
        signal.signal(signal.SIGUSR2, lambda *_: prof.disable())
    else:
        prof.enable()
    try:
        code = cli_main(["serve", *rest])
    finally:
        prof.disable()
        prof.dump_stats(args.out)
        stats = pstats.Stats(args.out, stream=sys.stderr)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)
    return code


if __name__ == "__main__":
    sys.exit(main())
