"""The profile store contract (:class:`ProfileStore`), what profiles
(app/tables/profiles.py) need of the database; its one implementation is
app/db/profile_store.py."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from app.db.profile_rows import BoundSeat, Ceremony, NewPasskey, Passkey, Profile

#: the seat name a deleted profile's seats keep (their games stay as played)
DELETED_NAME = "deleted player"


class HandleTaken(Exception):
    """A profile's handle (or one that looks like it) exists already."""


class ProfileStore(Protocol):
    """What profiles need from the database."""

    async def create_profile(
        self, handle: str, handle_key: str, display_name: str, user_handle: str, key: NewPasskey
    ) -> Profile:
        """Store a profile with its first passkey (:class:`HandleTaken` if the key is)."""
        ...

    async def handle_free(self, handle_key: str) -> bool: ...

    async def profile(self, profile_id: int) -> Profile | None: ...

    async def delete_profile(self, profile_id: int) -> bool:
        """Erase the profile, its passkeys, sessions, links and seat bindings; the seats
        it still held are renamed :data:`DELETED_NAME`."""
        ...

    async def passkey(self, credential_id: str) -> Passkey | None: ...

    async def passkeys_of(self, profile_id: int) -> list[Passkey]: ...

    async def used_passkey(self, passkey_id: int, sign_count: int) -> None:
        """Record a sign-in with the passkey: its new counter and the time."""
        ...

    async def add_ceremony(
        self, ceremony_hash: str, ceremony: Ceremony, expires_at: datetime, now: datetime
    ) -> None:
        """Store a ceremony (the expired ones go)."""
        ...

    async def take_ceremony(self, ceremony_hash: str, now: datetime) -> Ceremony | None:
        """The ceremony, deleted (None: unknown, used or expired)."""
        ...

    async def add_session(
        self, profile_id: int, token_hash: str, expires_at: datetime, now: datetime, *, keep: int
    ) -> None:
        """Store a session; the profile keeps its ``keep`` newest unexpired ones at ``now``
        (older and expired ones are deleted in the same transaction)."""
        ...

    async def session_profile(self, token_hash: str, now: datetime) -> Profile | None:
        """The profile signed in by this session (None: unknown or expired)."""
        ...

    async def end_session(self, token_hash: str) -> bool: ...

    async def end_sessions(self, profile_id: int) -> int:
        """End every session of the profile; how many there were."""
        ...

    async def sessions_of(self, profile_id: int, now: datetime) -> int:
        """The profile's sessions not expired."""
        ...

    async def add_link(
        self, profile_id: int, token_hash: str, expires_at: datetime, now: datetime
    ) -> None:
        """Store a one-time sign-in link (the expired ones go)."""
        ...

    async def take_link(self, token_hash: str, now: datetime) -> int | None:
        """The profile id of a link not used and not expired, deleted (else None)."""
        ...

    async def bind_seat(self, profile_id: int, table_id: int, seat: int, token_hash: str) -> None:
        """Bind the seat to the profile with its token's hash (replacing any binding
        of that seat)."""
        ...

    async def follow_seat(self, table_id: int, token_hash: str, seat: int) -> None:
        """The binding of the seat token ``token_hash`` at the table moves to ``seat``
        (a seat change before the start); none: nothing changes."""
        ...

    async def bound_seats(self, profile_id: int, limit: int) -> list[BoundSeat]:
        """The profile's seats at tables waiting or in play whose seat still has the
        bound token, the newest table first."""
        ...

    async def close(self) -> None: ...
