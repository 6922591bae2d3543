"""The ratings each computer player level starts from on a server where it has not
played a rated match yet: the end of a calibration run in which the levels played one
another (``bench/bot_calibration.py``; the command and its figures are in
docs/benchmarks.md, "Computer players' ratings"). Every pool starts from them."""

from __future__ import annotations

from typing import Final

from app.ratings.model import Rating

#: python -m bench.bot_calibration --deals 40 --seed 1 --playouts 40
CALIBRATED: Final[dict[str, Rating]] = {
    "easy": Rating(-1.85, 4.62),
    "medium": Rating(33.63, 2.63),
    "hard": Rating(39.83, 2.67),
}
