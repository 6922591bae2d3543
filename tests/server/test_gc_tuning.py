"""The serving process's collector settings (app/core/gc_tuning.py): a young threshold
of 50,000 and what start-up built frozen out of the collector's sight, applied once."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import gc, json
from app.core import gc_tuning
out = {"before": gc.get_threshold()}
gc_tuning.tune_gc()
out["tuned"], out["frozen"] = gc.get_threshold(), gc.get_freeze_count()
gc.set_threshold(700, 10, 10)
gc_tuning.tune_gc()  # a second call changes nothing
out["again"] = gc.get_threshold()
print(json.dumps(out))
"""


def test_tuning_sets_the_young_threshold_and_freezes_start_up_once() -> None:
    out = json.loads(
        subprocess.run(
            [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
        ).stdout
    )
    assert out["before"] == [700, 10, 10]  # Python's own
    assert out["tuned"] == [50_000, 10, 10]
    assert out["frozen"] > 1000  # what start-up built is out of the collector's sight
    assert out["again"] == [700, 10, 10]  # once per process
