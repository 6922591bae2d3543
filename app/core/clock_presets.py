"""The turn clock's presets (docs/protocol.md, "Clock and autopilot"): each preset's
numbers from the settings. Shared by the write path (:mod:`app.tables.turn_clock`, which
sets deadlines) and delivery (:mod:`app.realtime.table_info`, which shows them).

>>> Presets(relaxed_move=90).of("relaxed")
Clock(preset='relaxed', move_seconds=90.0, bank_seconds=None)
>>> Presets().of("sudden")
Traceback (most recent call last):
...
app.core.clock_presets.UnknownClock: sudden
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: the presets a table may be created with
PRESETS = ("none", "relaxed", "fast")


@dataclass(frozen=True, slots=True)
class Clock:
    """One preset's numbers (``None`` for a table without a clock / without a bank)."""

    preset: str
    move_seconds: float | None
    bank_seconds: float | None
    #: seconds a person's seat may have no socket before the autopilot plays its turn
    #: (a table without a clock) and before the host may move it to another device
    grace_seconds: float = field(default=60.0, repr=False)

    def info(self) -> dict[str, object]:
        """``TableInfo.clock``."""
        return {
            "preset": self.preset,
            "move_seconds": self.move_seconds,
            "bank_seconds": self.bank_seconds,
            "grace_seconds": self.grace_seconds,
        }


@dataclass(frozen=True, slots=True)
class Presets:
    """The presets' numbers from the settings (docs/configuration.md)."""

    relaxed_move: float = 90.0
    fast_move: float = 20.0
    fast_bank: float = 60.0
    #: FIVEUP_DISCONNECT_GRACE_SECONDS (shown in every clock's info)
    grace: float = 60.0

    def of(self, preset: object) -> Clock:
        """The clock of ``preset``, else :class:`UnknownClock`."""
        if preset == "relaxed":
            return Clock("relaxed", float(self.relaxed_move), None, float(self.grace))
        if preset == "fast":
            return Clock("fast", float(self.fast_move), float(self.fast_bank), float(self.grace))
        if preset == "none":
            return Clock("none", None, None, float(self.grace))
        raise UnknownClock(str(preset))


class UnknownClock(ValueError):
    """A preset that is not one of :data:`PRESETS`."""
