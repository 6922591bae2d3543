"""Friends (docs/friends.md): a profile's friend link, friend requests (by link or by
handle) that become a friendship when accepted or when they cross, removal, and blocks.

A friend link is ``/f/{token}``. The token is derived, not stored: the HMAC-SHA256 of the
link's random nonce keyed by the profile's WebAuthn user id (32 random bytes the server
keeps and no other player ever sees), so the owner's page can show it again; the store
keeps the nonce and the token's SHA-256 (its look-up key). Rotating draws a new nonce:
the old token then finds no profile. A link only lets someone send a request, as a
handle does, so it is an address, not a credential.

Errors are :class:`~app.tables.errors.TableError` s: ``404 no_player`` (no such handle
or link), ``409 self``, ``403 blocked``, ``409 too_many_pending``, ``409
too_many_friends``, ``409 too_many_blocks``, ``404 no_request``, ``404 not_friends``,
``404 not_blocked``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.names import confusable_key
from app.db.friends_contract import Caps, FriendsStore, Outcome, Overview, Person, Refused
from app.db.profile_rows import Profile
from app.tables.errors import TableError

#: a friend link token's characters at most (a derived one has 43)
TOKEN_MAX = 64

_ERRORS: dict[str, tuple[str, int]] = {
    "no_player": ("no such player", 404),
    "blocked": ("this player cannot be your friend", 403),
    "too_many_pending": ("too many friend requests waiting: wait for answers", 409),
    "too_many_friends": ("one of you has as many friends as a profile may have", 409),
    "too_many_blocks": ("you block as many players as a profile may", 409),
    "no_request": ("there is no such friend request", 404),
}


@dataclass(frozen=True, slots=True)
class FriendLimits:
    """The bounds of friends (settings ``FIVEUP_FRIENDS_*``)."""

    friends_max: int = 200
    pending_max: int = 100
    blocks_max: int = 500
    #: a handle's characters at most as an input (longer: no such player)
    handle_max: int = 64

    def caps(self) -> Caps:
        return Caps(self.friends_max, self.pending_max, self.blocks_max)


def link_token(profile: Profile, nonce: str) -> str:
    """The friend link token of ``profile``'s link with this nonce.

    >>> p = Profile(1, "ann", "Ann", "dXNlcg", datetime.now(UTC))
    >>> len(link_token(p, "n1")), link_token(p, "n1") == link_token(p, "n1") != link_token(p, "n2")
    (43, True)
    """
    mac = hmac.new(profile.user_handle.encode(), f"friend-link/{nonce}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _refused(exc: Refused) -> TableError:
    message, status = _ERRORS.get(exc.code, ("refused", 409))
    return TableError(exc.code, message, status)


class Friends:
    """The friends service over a :class:`FriendsStore`."""

    def __init__(self, store: FriendsStore, limits: FriendLimits | None = None) -> None:
        self.store = store
        self.limits = limits or FriendLimits()

    @staticmethod
    def _now() -> datetime:
        return datetime.now(UTC)

    # -- the friend link -------------------------------------------------------------
    async def link(self, profile: Profile) -> str:
        """The profile's friend link token (made on first use)."""
        nonce = secrets.token_hex(16)
        fresh = link_token(profile, nonce)
        kept = await self.store.link_nonce(profile.id, nonce, token_hash(fresh))
        return fresh if kept == nonce else link_token(profile, kept)

    async def rotate_link(self, profile: Profile) -> str:
        """A new friend link token; the old one stops working."""
        nonce = secrets.token_hex(16)
        token = link_token(profile, nonce)
        await self.store.rotate_link(profile.id, nonce, token_hash(token))
        return token

    # -- who ---------------------------------------------------------------------------
    async def by_handle(self, handle: object) -> Person:
        """The profile with this handle (or one that looks like it): ``404 no_player``."""
        found = None
        if isinstance(handle, str) and 0 < len(handle) <= self.limits.handle_max:
            key = confusable_key(handle)
            found = await self.store.person(key) if key else None
        if found is None:
            raise _refused(Refused("no_player"))
        return found

    async def by_link(self, token: object) -> Person:
        """The owner of a friend link: ``404 no_player`` (unknown or rotated)."""
        found = None
        if isinstance(token, str) and 0 < len(token) <= TOKEN_MAX:
            found = await self.store.link_owner(token_hash(token))
        if found is None:
            raise _refused(Refused("no_player"))
        return found

    @staticmethod
    def _other(me: Profile, other: Person) -> Person:
        if other.id == me.id:
            raise TableError("self", "you cannot be your own friend", 409)
        return other

    # -- requests and friendships ----------------------------------------------------
    async def request(
        self, me: Profile, *, link: str | None = None, handle: str | None = None
    ) -> tuple[Outcome, Person]:
        """Ask the owner of ``link`` (or the profile ``handle``) to be friends."""
        if (link is None) == (handle is None):
            raise TableError("invalid_request", "give a friend link or a handle, not both", 422)
        found = await (self.by_link(link) if link is not None else self.by_handle(handle))
        other = self._other(me, found)
        try:
            return await self.store.request(me.id, other.id, self.limits.caps(), self._now()), other
        except Refused as exc:
            raise _refused(exc) from exc

    async def accept(self, me: Profile, handle: str) -> tuple[Outcome, Person]:
        other = self._other(me, await self.by_handle(handle))
        try:
            return await self.store.accept(me.id, other.id, self.limits.caps(), self._now()), other
        except Refused as exc:
            raise _refused(exc) from exc

    async def decline(self, me: Profile, handle: str) -> None:
        other = self._other(me, await self.by_handle(handle))
        if not await self.store.decline(me.id, other.id):
            raise _refused(Refused("no_request"))

    async def remove(self, me: Profile, handle: str) -> None:
        other = self._other(me, await self.by_handle(handle))
        if not await self.store.remove(me.id, other.id):
            raise TableError("not_friends", "you are not friends", 404)

    # -- blocks ----------------------------------------------------------------------
    async def block(self, me: Profile, handle: str) -> Person:
        """Block a profile: any friendship and requests between you end."""
        other = self._other(me, await self.by_handle(handle))
        try:
            await self.store.block(me.id, other.id, self.limits.caps(), self._now())
        except Refused as exc:
            raise _refused(exc) from exc
        return other

    async def unblock(self, me: Profile, handle: str) -> None:
        other = self._other(me, await self.by_handle(handle))
        if not await self.store.unblock(me.id, other.id):
            raise TableError("not_blocked", "you do not block this player", 404)

    async def overview(self, me: Profile) -> Overview:
        return await self.store.overview(me.id, self.limits.caps())

    async def host_blocks(self, table_id: int, profile: Profile) -> bool:
        """Whether the host of the table (its profile) blocks ``profile``."""
        return await self.store.host_blocks(table_id, profile.id)
