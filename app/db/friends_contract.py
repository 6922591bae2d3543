"""The friends store contract (:class:`FriendsStore`), what friends
(app/tables/friends.py) need of the database; its one implementation is
app/db/friends_store.py. Every change between two profiles runs in one transaction that
first locks both profiles' rows, so concurrent accepts, crossing requests and blocks of
one pair are applied one after the other; unique keys back it (one request per
direction, one friendship row per direction)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

#: what a request or an accept leaves between the two profiles
Outcome = Literal["requested", "friends"]


@dataclass(frozen=True, slots=True)
class Person:
    """Another profile as friends show it: its handle and display name (the id stays
    on the server)."""

    id: int
    handle: str
    display_name: str


@dataclass(frozen=True, slots=True)
class Caps:
    """The bounds a change checks (settings ``FIVEUP_FRIENDS_*``)."""

    friends_max: int
    pending_max: int
    blocks_max: int


@dataclass(slots=True)
class Overview:
    """A profile's friends, its requests both ways and the profiles it blocks."""

    friends: list[Person] = field(default_factory=list)
    incoming: list[Person] = field(default_factory=list)
    outgoing: list[Person] = field(default_factory=list)
    blocked: list[Person] = field(default_factory=list)


class Refused(Exception):
    """A change the rules refuse; ``code`` is the error code it answers with."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class FriendsStore(Protocol):
    """What friends need from the database."""

    async def person(self, handle_key: str) -> Person | None:
        """The profile whose handle has this look-alike key."""
        ...

    async def link_nonce(self, profile_id: int, nonce: str, token_hash: str) -> str:
        """The nonce of the profile's friend link; none yet: this one is stored (with
        its token's hash) and returned."""
        ...

    async def rotate_link(self, profile_id: int, nonce: str, token_hash: str) -> None:
        """Replace the profile's friend link: the old token finds no profile after."""
        ...

    async def link_owner(self, token_hash: str) -> Person | None: ...

    async def request(self, me: int, other: int, caps: Caps, now: datetime) -> Outcome:
        """``me`` asks ``other`` to be friends: a request, or at once a friendship if
        ``other`` asked ``me`` already (or they are friends). :class:`Refused`:
        ``blocked`` (either blocks the other), ``too_many_pending``,
        ``too_many_friends``."""
        ...

    async def accept(self, me: int, other: int, caps: Caps, now: datetime) -> Outcome:
        """``me`` accepts ``other``'s request: the request goes, a friendship (two rows)
        comes, exactly once however many accept at once. Already friends: ``friends``.
        :class:`Refused`: ``no_request``, ``too_many_friends``."""
        ...

    async def decline(self, me: int, other: int) -> bool:
        """Delete ``other``'s request to ``me`` (False: there was none)."""
        ...

    async def remove(self, me: int, other: int) -> bool:
        """End the friendship (both rows; False: there was none)."""
        ...

    async def block(self, me: int, other: int, caps: Caps, now: datetime) -> None:
        """``me`` blocks ``other``: any friendship and requests between them go.
        Blocked already: nothing changes. :class:`Refused`: ``too_many_blocks``."""
        ...

    async def unblock(self, me: int, other: int) -> bool: ...

    async def overview(self, me: int, caps: Caps) -> Overview:
        """The profile's friends, requests and blocks, each by handle, bounded by
        ``caps``."""
        ...

    async def host_blocks(self, table_id: int, profile_id: int) -> bool:
        """Whether the profile bound to the host's seat at the table (while the seat
        still has the bound token) blocks ``profile_id``."""
        ...

    async def close(self) -> None: ...
