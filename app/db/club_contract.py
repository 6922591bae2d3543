"""The club store contract (:class:`ClubStore`), what clubs (app/tables/clubs.py) need of
the database; its one implementation is app/db/club_store.py. A join, a create and a
removal run in one transaction that first locks the profile's row and then the club's
(PostgreSQL ``FOR UPDATE``; SQLite's one write lock), so ten joins of one profile at once
make one membership and the bounds hold; the unique pair key backs it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from app.db.friends_contract import Refused


@dataclass(frozen=True, slots=True)
class Caps:
    """The bounds a change checks (settings ``FIVEUP_CLUB*``)."""

    clubs_per_profile: int
    members_max: int


@dataclass(frozen=True, slots=True)
class ClubSummary:
    """A club in its member's list."""

    id: int
    name: str
    owner_handle: str
    members: int
    mine: bool  # the viewer owns it


@dataclass(frozen=True, slots=True)
class Member:
    """A member as the club page shows it (the id stays on the server)."""

    id: int
    handle: str
    display_name: str
    mu: float | None  # pool ``all``; None: not rated yet
    sigma: float | None
    played: int
    won: int


@dataclass(frozen=True, slots=True)
class LiveTable:
    code: str
    name: str
    status: str
    players: int
    seated: int


@dataclass(frozen=True, slots=True)
class Finished:
    code: str
    match_number: int
    finished_at: datetime
    winners: list[str]


@dataclass(slots=True)
class ClubPage:
    """A club as its members see it."""

    id: int
    name: str
    owner_id: int
    owner_handle: str
    owner_user_handle: str  # the invite token's key: never answered
    invite_nonce: str  # likewise
    members: list[Member] = field(default_factory=list)
    live: list[LiveTable] = field(default_factory=list)
    finished: list[Finished] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Joined:
    club_id: int
    name: str


class ClubStore(Protocol):
    """What clubs need from the database."""

    async def create(
        self, owner: int, name: str, nonce: str, token_hash: str, caps: Caps, now: datetime
    ) -> int:
        """A new club with ``owner`` its one member; its id. :class:`Refused`:
        ``too_many_clubs``."""
        ...

    async def mine(self, profile_id: int, limit: int) -> list[ClubSummary]: ...

    async def page(self, club_id: int, viewer: int, rows: int) -> ClubPage | None:
        """The club, if ``viewer`` is a member (else None), with at most ``rows`` live
        tables and finished matches, newest first."""
        ...

    async def is_member(self, club_id: int, profile_id: int) -> bool: ...

    async def rotate(self, club_id: int, owner: int, nonce: str, token_hash: str) -> None:
        """A new invite link. :class:`Refused`: ``no_club``, ``not_owner``."""
        ...

    async def join(self, token_hash: str, profile_id: int, caps: Caps, now: datetime) -> Joined:
        """Join the club whose invite token has this hash: one membership however many
        joins at once; a member already: the same answer. :class:`Refused`: ``no_club``,
        ``too_many_clubs``, ``club_full``."""
        ...

    async def leave(self, club_id: int, profile_id: int) -> None:
        """:class:`Refused`: ``no_club`` (not a member), ``owner_leaves``."""
        ...

    async def remove(self, club_id: int, owner: int, handle_key: str) -> None:
        """The owner removes a member. :class:`Refused`: ``no_club``, ``not_owner``,
        ``no_member``, ``owner_leaves``."""
        ...

    async def delete(self, club_id: int, owner: int) -> None:
        """:class:`Refused`: ``no_club``, ``not_owner``."""
        ...

    async def add_table(self, club_id: int, table_id: int, now: datetime) -> None: ...

    async def member_ids(self, club_id: int) -> list[int]: ...

    async def close(self) -> None: ...


__all__ = ["Caps", "ClubPage", "ClubStore", "ClubSummary", "Joined", "Member", "Refused"]
