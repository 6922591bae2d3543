"""The request bodies: what a client may send to the HTTP routes (unknown fields
are refused, ``extra="forbid"``), and the field rules they share.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt

from app.core.security import NAME_MAX, TABLE_NAME_MAX

#: computer players' levels (app/bots LEVELS; the service answers 400 unknown_level to
#: any other, so the schema lists them without pydantic refusing others with a 422)
BOT_LEVELS = ("easy", "medium", "hard")


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


NAME_RULES = (
    "1 to {n} characters. Stored cleaned up: invisible, zero-width and control characters "
    "dropped, spaces plain, at most 2 combining marks on a letter, surrounding spaces "
    "stripped; a name left with no visible letter or digit becomes the default "
    "('Player 2' for seat 1; a table takes its host's name)"
)


def _integral(value: object) -> object:
    """JSON numbers compare by value: ``2.0`` is the integer 2 (as in JSON Schema);
    ``2.5``, strings and booleans are not integers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: an integer as JSON Schema defines one (2 and 2.0 alike), never a string or a boolean
JsonInt = Annotated[StrictInt, BeforeValidator(_integral)]


class CreateTable(_Request):
    name: str = Field(
        min_length=1,
        max_length=TABLE_NAME_MAX,
        description=NAME_RULES.format(n=TABLE_NAME_MAX),
    )
    players: Annotated[Literal[2, 3, 4], BeforeValidator(_integral)] = Field(
        description="R2: two, three or four players"
    )
    public: StrictBool = True
    host_name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description=NAME_RULES.format(n=NAME_MAX),
    )
    clock: Literal["none", "relaxed", "fast"] = Field(
        default="none",
        description="the turn clock (docs/protocol.md, Clock and autopilot): none (at"
        " leisure), relaxed or fast (seconds per move, plus a bank per round at fast)",
    )


class JoinTable(_Request):
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description=NAME_RULES.format(n=NAME_MAX),
    )
    seat: JsonInt = Field(ge=0, le=3, description="a free seat, 0..players-1 (else 400 bad_seat)")


class SeatRequest(_Request):
    seat: JsonInt = Field(ge=0, le=3, description="a seat, 0..players-1 (else 400 bad_seat)")


class AddBot(_Request):
    seat: JsonInt = Field(ge=0, le=3, description="an empty seat, or a computer player's seat")
    level: str = Field(
        description="easy | medium | hard (docs/bots.md); anything else is 400 unknown_level",
        json_schema_extra={"enum": list(BOT_LEVELS)},
    )


class Practice(_Request):
    players: Annotated[Literal[2, 3, 4], BeforeValidator(_integral)] = Field(
        description="R2: two, three or four players (you and computer players)"
    )
    level: str = Field(
        description="the computer players' level: easy | medium | hard (else 400 unknown_level)",
        json_schema_extra={"enum": list(BOT_LEVELS)},
    )
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description="your display name, 1-24 characters after stripping",
    )
    clock: Literal["none", "relaxed", "fast"] = Field(
        default="none", description="your turn clock, as for a table (docs/protocol.md)"
    )


class ClaimSeat(_Request):
    link: str = Field(
        min_length=1,
        max_length=256,
        description="the credential of a device link (what follows `#seat=` in the link)",
    )


class ReplaceSeat(_Request):
    by: Literal["bot", "invite"] = Field(
        description="`bot`: a computer player of `level` takes the seat; `invite`: the seat"
        " is freed for a new person (the table goes back to `waiting`)"
    )
    level: str | None = Field(
        default=None,
        description="with `bot`: easy | medium | hard; null: FIVEUP_AUTOPILOT_LEVEL",
        json_schema_extra={"enum": [*BOT_LEVELS, None]},
    )
