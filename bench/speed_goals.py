"""Issue 7's speed goals, measured side by side, round after round, with the machine's
steal time beside every figure.

One round is, in this order, on this machine only:

1. the yardstick: issue 7's minimal server (``python -m bench.stack_floor``) at
   ``--tables`` tables flat out, its server CPU per move;
2. ours flat out (``bench/run_load.sh TABLES SECONDS``, which runs ``pgbench -N`` at the
   same concurrency afterwards): server CPU per committed move, committed moves/s and
   their ratio to pgbench's TPS;
3. ours paced (``SKIP_PGBENCH=1 bench/run_load.sh 500 20 --think-ms 2000``): p50 and
   p99 from a move's send to its last recipient.

Each figure is printed with the share of the machine's CPU time that the hypervisor
gave to someone else while it was measured (``steal``, from /proc/stat): this machine is
a virtual one whose 2 cores are shared with other tenants, and a window with steal is a
window with fewer cores (docs/benchmarks.md). A summary at the end gives each goal's
median over the rounds, and the same over the quiet rounds: those whose windows had at
most ``--quiet-steal`` percent of steal (a flat-out figure counts when both its window
and the yardstick's were quiet).

    PY=.venv-native/bin/python .venv/bin/python -m bench.speed_goals --rounds 5

Environment: PY (the Python whose installed ``app`` is served, as for run_load.sh; the
compiled build above). The yardstick runs in the Python that runs this script, which
needs asyncpg (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Round:
    """One round's figures (None: that step failed)."""

    floor_ms: float | None = None
    floor_steal: float | None = None
    cpu_ms: float | None = None
    moves_per_s: float | None = None
    pgbench_tps: float | None = None
    flat_steal: float | None = None
    paced_p50: float | None = None
    paced_p99: float | None = None
    paced_steal: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """Committed moves/s ÷ pgbench's TPS."""
        if self.moves_per_s is None or not self.pgbench_tps:
            return None
        return self.moves_per_s / self.pgbench_tps

    @property
    def per_yardstick(self) -> float | None:
        """Our CPU per move ÷ the minimal server's."""
        if self.cpu_ms is None or not self.floor_ms:
            return None
        return self.cpu_ms / self.floor_ms


def _run(cmd: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}")
    return done.stdout + done.stderr


def _steal(line: str) -> float | None:
    found = re.search(r"steal (\d+) %", line)
    return float(found.group(1)) if found else None


def yardstick(tables: int, seconds: int, env: dict[str, str], r: Round) -> None:
    out = _run(
        [sys.executable, "-m", "bench.stack_floor", "--tables", str(tables), "--seconds", str(seconds),
         "--driver", "asyncpg"],
        env,
    )  # fmt: skip
    line = next(x for x in out.splitlines() if x.startswith("minimal server"))
    found = re.search(r"server CPU ([\d.]+) ms per move", line)
    r.floor_ms = float(found.group(1)) if found else None
    r.floor_steal = _steal(line)


def flat_out(tables: int, seconds: int, env: dict[str, str], r: Round) -> None:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        text = _run(
            ["bash", "bench/run_load.sh", str(tables), str(seconds), "--json", out.name], env
        )
        result = json.loads(Path(out.name).read_text())
    r.cpu_ms = result["server_cpu_ms_per_move"]
    r.moves_per_s = result["moves_per_s"]
    r.flat_steal = 100 * result["machine_cpu_shares"]["steal"]
    found = re.search(r"tps=([\d.]+)", text)
    r.pgbench_tps = float(found.group(1)) if found else None


def paced(env: dict[str, str], r: Round) -> None:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        _run(
            ["bash", "bench/run_load.sh", "500", "20", "--think-ms", "2000", "--json", out.name],
            {**env, "SKIP_PGBENCH": "1"},
        )
        result = json.loads(Path(out.name).read_text())
    r.paced_p50 = result["latency_ms"]["p50"]
    r.paced_p99 = result["latency_ms"]["p99"]
    r.paced_steal = 100 * result["machine_cpu_shares"]["steal"]


def _fmt(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _median(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    return _fmt(statistics.median(known)) if known else "—"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tables", type=int, default=200, help="flat-out tables (both servers)")
    p.add_argument("--seconds", type=int, default=15, help="flat-out window")
    p.add_argument("--quiet-steal", type=float, default=5.0, help="percent: a quiet window")
    p.add_argument("--skip-paced", action="store_true")
    args = p.parse_args()
    if not 1 <= args.rounds <= 20:
        raise SystemExit("--rounds: 1 to 20")
    py = os.environ.get("PY", sys.executable)
    env = {**os.environ, "PY": py}
    rounds: list[Round] = []
    print(
        "| round | yardstick ms/move (steal %) | ours ms/move | ours ÷ yardstick"
        " | moves/s ÷ pgbench TPS | flat-out steal % | paced p50 / p99 ms | paced steal % |",
        flush=True,
    )
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for n in range(1, args.rounds + 1):
        r = Round()
        steps: list[Callable[[], None]] = [
            partial(yardstick, args.tables, args.seconds, env, r),
            partial(flat_out, args.tables, args.seconds, env, r),
        ]
        if not args.skip_paced:
            steps.append(partial(paced, env, r))
        for step in steps:
            try:
                step()
            except (RuntimeError, StopIteration, subprocess.TimeoutExpired, KeyError) as exc:
                r.notes.append(repr(exc))
        rounds.append(r)
        ratio = "—"
        if r.ratio is not None:
            ratio = f"{r.moves_per_s:.0f} ÷ {r.pgbench_tps:.0f} = {r.ratio:.2f}"
        print(
            f"| {n} | {_fmt(r.floor_ms, 3)} ({_fmt(r.floor_steal, 0)}) | {_fmt(r.cpu_ms)}"
            f" | {_fmt(r.per_yardstick)}× | {ratio} | {_fmt(r.flat_steal, 0)}"
            f" | {_fmt(r.paced_p50, 1)} / {_fmt(r.paced_p99, 1)} | {_fmt(r.paced_steal, 0)} |"
            + (f" {'; '.join(r.notes)}" if r.notes else ""),
            flush=True,
        )

    def summary(label: str, chosen: list[Round], paced_rounds: list[Round]) -> None:
        print(
            f"{label}: CPU per move median {_median([r.cpu_ms for r in chosen])} ms"
            f" (goal <= 0.35; yardstick {_median([r.floor_ms for r in chosen])} ms, ours ÷"
            f" yardstick {_median([r.per_yardstick for r in chosen])}) over"
            f" {len(chosen)} rounds; moves/s ÷ pgbench median"
            f" {_median([r.ratio for r in chosen])} (goal >= 0.5); paced p99 median"
            f" {_median([r.paced_p99 for r in paced_rounds])} ms (goal < 25) over"
            f" {len(paced_rounds)} rounds"
        )

    summary("all rounds", rounds, [r for r in rounds if r.paced_p99 is not None])
    quiet = args.quiet_steal
    summary(  # a flat-out round is quiet when both its windows were (steal inflates both)
        f"windows with steal <= {quiet:g} %",
        [
            r
            for r in rounds
            if r.flat_steal is not None
            and r.flat_steal <= quiet
            and r.floor_steal is not None
            and r.floor_steal <= quiet
        ],
        [r for r in rounds if r.paced_steal is not None and r.paced_steal <= quiet],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
