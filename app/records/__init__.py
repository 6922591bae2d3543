"""Match records in the spirit of chess's PGN: a text form and a JSON form of one match
(header, deals, moves with points and scores, settlements), made from the engine's
history and checked by replaying it through the engine (docs/record.md).

>>> import random
>>> from app.fairness import DealIds, new_seed, start_match
>>> seed = new_seed()
>>> m = start_match(seed, 2, DealIds("ABC123", 1, 1))
>>> while not m.round_over:
...     _ = m.play(m.turn, random.Random(1).choice(m.legal_moves(m.turn)))
>>> rec = record_from_match(m, RecordMeta("2026-11-30", "ABC123", 1, ("Ann", "Bob"), {1: seed}))
>>> text = write_text(rec)
>>> str(check(parse_text(text))), write_text(parse_text(text)) == text
('valid', True)
"""

from .build import RecordMeta, record_from_match, record_from_rounds
from .check import CheckResult, check
from .jsonform import from_data, from_json, to_data, to_json
from .model import FORMAT, Leftover, MoveLine, Record, RoundRecord
from .text import RecordSyntaxError, parse_text, write_text

__all__ = [
    "FORMAT",
    "CheckResult",
    "Leftover",
    "MoveLine",
    "Record",
    "RecordMeta",
    "RecordSyntaxError",
    "RoundRecord",
    "check",
    "from_data",
    "from_json",
    "parse_text",
    "record_from_match",
    "record_from_rounds",
    "to_data",
    "to_json",
    "write_text",
]
