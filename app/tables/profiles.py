"""Profiles (docs/profiles.md): sign-up and sign-in with a passkey, sessions, one-time
sign-in links, sign-out (here or everywhere) and deletion.

Secrets — a session's cookie value, a sign-in link, a ceremony id — are 32 random bytes
(``secrets``) given to the browser once; the store keeps only their SHA-256. A handle goes
through the seat names' rules (app/core/names.py) and is unique by its look-alike key
(``confusable_key``): ``Bob`` taken refuses ``ВОВ`` and ``b0b``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from app.core.names import NothingVisible, confusable_key, visible_name
from app.core.security import hash_token
from app.db.profile_rows import BoundSeat, Ceremony, Profile
from app.db.profile_store import HandleTaken, ProfileStore
from app.tables import passkeys
from app.tables.errors import TableError
from app.tables.passkeys import RelyingParty

#: live tables "my tables" lists at most
MY_TABLES_MAX = 50

#: characters a handle may hold besides letters and digits (no spaces: it is a name to type)
HANDLE_EXTRA = "_-."


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of profiles' inputs and lifetimes (settings ``FIVEUP_PROFILE_*`` …)."""

    handle_min: int = 3
    handle_max: int = 24
    display_name_max: int = 32
    session_seconds: float = 30 * 86400.0
    #: sign-ins a profile keeps at once (a new one past it ends the oldest)
    sessions_max: int = 20
    link_seconds: float = 300.0
    ceremony_seconds: float = 300.0


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: its profile and the cookie's value (given once)."""

    profile: Profile
    session: str
    expires_at: datetime


def digest(secret: str) -> str:
    """The SHA-256 a secret is stored as.

    >>> len(digest("x")), digest("x") == digest("x") != digest("y")
    (64, True)
    """
    return hashlib.sha256(secret.encode()).hexdigest()


def check_handle(raw: object, limits: Limits) -> str:
    """A handle as stored, or ``409 bad_handle`` (the name rules refuse it: the schema
    cannot say them all, so a schema-valid string gets a conflict, not a 422).

    >>> check_handle(" ann_1 ", Limits())
    'ann_1'
    >>> check_handle("a b", Limits())
    Traceback (most recent call last):
    ...
    app.tables.errors.TableError: a handle holds letters, digits and _ - . only
    """
    if not isinstance(raw, str) or len(raw) > 4 * limits.handle_max:
        raise TableError("bad_handle", "a handle must be a short string", 409)
    try:
        handle = visible_name(raw)
    except NothingVisible as exc:
        raise TableError("bad_handle", str(exc), 409) from exc
    if not all(c.isalnum() or c in HANDLE_EXTRA for c in handle):
        raise TableError("bad_handle", "a handle holds letters, digits and _ - . only", 409)
    if not limits.handle_min <= len(handle) <= limits.handle_max:
        raise TableError(
            "bad_handle",
            f"a handle has {limits.handle_min} to {limits.handle_max} characters",
            409,
        )
    return handle


def check_display_name(raw: object, limits: Limits) -> str:
    """A display name as stored (the seat names' rules), or ``409 bad_display_name``."""
    if not isinstance(raw, str) or len(raw.strip()) > limits.display_name_max:
        raise TableError("bad_display_name", f"at most {limits.display_name_max} characters", 409)
    try:
        return visible_name(raw)
    except NothingVisible as exc:
        raise TableError("bad_display_name", str(exc), 409) from exc


class Profiles:
    """The profiles service over a :class:`ProfileStore`."""

    def __init__(self, store: ProfileStore, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()

    @staticmethod
    def _now() -> datetime:
        return datetime.now(UTC)

    def _ms(self) -> int:
        return int(self.limits.ceremony_seconds * 1000)

    async def _ceremony(self, ceremony: Ceremony) -> str:
        secret = secrets.token_urlsafe(32)
        now = self._now()
        expires = now + timedelta(seconds=self.limits.ceremony_seconds)
        await self.store.add_ceremony(digest(secret), ceremony, expires, now)
        return secret

    async def _take(self, ceremony_id: object, kind: str) -> Ceremony:
        if not isinstance(ceremony_id, str) or not 0 < len(ceremony_id) <= 128:
            raise TableError("ceremony_expired", "start again: no such ceremony", 404)
        found = await self.store.take_ceremony(digest(ceremony_id), self._now())
        if found is None or found.kind != kind:
            raise TableError("ceremony_expired", "start again: this ceremony is over", 404)
        return found

    async def _session(self, profile: Profile) -> SignedIn:
        secret = secrets.token_urlsafe(32)
        expires = self._now() + timedelta(seconds=self.limits.session_seconds)
        await self.store.add_session(
            profile.id, digest(secret), expires, self._now(), keep=self.limits.sessions_max
        )
        return SignedIn(profile, secret, expires)

    # -- sign-up ---------------------------------------------------------------------
    async def register_options(
        self, rp: RelyingParty, handle: object, display_name: object
    ) -> tuple[str, dict[str, Any]]:
        """A sign-up's ceremony id and options; ``409 handle_taken`` if the handle (or
        one that looks like it) is someone's."""
        handle = check_handle(handle, self.limits)
        name = check_display_name(display_name, self.limits)
        if not await self.store.handle_free(confusable_key(handle)):
            raise TableError("handle_taken", "this handle, or one like it, is taken", 409)
        user = secrets.token_bytes(32)
        challenge, options = passkeys.registration_options(rp, user, handle, name, self._ms())
        ceremony = Ceremony("register", bytes_to_base64url(challenge), handle, name)
        ceremony.user_handle = bytes_to_base64url(user)
        return await self._ceremony(ceremony), options

    async def register_verify(
        self, rp: RelyingParty, ceremony_id: object, credential: dict[str, Any]
    ) -> SignedIn:
        """Create the profile with the passkey the authenticator made, and sign in."""
        c = await self._take(ceremony_id, "register")
        assert c.handle is not None and c.display_name is not None and c.user_handle
        key = passkeys.verify_registration(rp, credential, base64url_to_bytes(c.challenge))
        try:
            profile = await self.store.create_profile(
                c.handle, confusable_key(c.handle), c.display_name, c.user_handle, key
            )
        except HandleTaken as exc:
            raise TableError("handle_taken", "this handle, or one like it, is taken", 409) from exc
        return await self._session(profile)

    # -- sign-in with a passkey ------------------------------------------------------
    async def sign_in_options(self, rp: RelyingParty) -> tuple[str, dict[str, Any]]:
        challenge, options = passkeys.authentication_options(rp, self._ms())
        return await self._ceremony(Ceremony("sign_in", bytes_to_base64url(challenge))), options

    async def sign_in_verify(
        self, rp: RelyingParty, ceremony_id: object, credential: dict[str, Any]
    ) -> SignedIn:
        """Sign in with a passkey this server knows (``401 passkey_refused`` else)."""
        c = await self._take(ceremony_id, "sign_in")
        raw_id = credential.get("rawId", credential.get("id"))
        key = await self.store.passkey(raw_id) if isinstance(raw_id, str) else None
        if key is None or len(raw_id or "") > 1400:
            raise TableError("passkey_refused", "this passkey belongs to no profile here", 401)
        profile = await self.store.profile(key.profile_id)
        if profile is None:
            raise TableError("passkey_refused", "this passkey belongs to no profile here", 401)
        count = passkeys.verify_authentication(rp, credential, base64url_to_bytes(c.challenge), key)
        await self.store.used_passkey(key.id, count)
        return await self._session(profile)

    # -- sessions --------------------------------------------------------------------
    async def signed_in(self, session: str | None) -> Profile | None:
        """The profile of a session cookie's value (None: none, ended or expired)."""
        if not session or len(session) > 128:
            return None
        return await self.store.session_profile(digest(session), self._now())

    async def sign_out(self, session: str) -> None:
        await self.store.end_session(digest(session))

    async def sign_out_everywhere(self, profile: Profile) -> int:
        return await self.store.end_sessions(profile.id)

    async def sessions(self, profile: Profile) -> int:
        return await self.store.sessions_of(profile.id, self._now())

    async def passkey_count(self, profile: Profile) -> int:
        return len(await self.store.passkeys_of(profile.id))

    # -- one-time sign-in links ------------------------------------------------------
    async def new_link(self, profile: Profile) -> tuple[str, datetime]:
        """A one-time sign-in link's secret and end."""
        secret = secrets.token_urlsafe(32)
        now = self._now()
        expires = now + timedelta(seconds=self.limits.link_seconds)
        await self.store.add_link(profile.id, digest(secret), expires, now)
        return secret, expires

    async def claim_link(self, secret: object) -> SignedIn:
        """Sign in with a one-time link (``404 link_used``: unknown, used or expired)."""
        profile_id = None
        if isinstance(secret, str) and 0 < len(secret) <= 128:
            profile_id = await self.store.take_link(digest(secret), self._now())
        profile = await self.store.profile(profile_id) if profile_id is not None else None
        if profile is None:
            raise TableError("link_used", "this sign-in link was used or has expired", 404)
        return await self._session(profile)

    # -- deletion --------------------------------------------------------------------
    async def delete(self, profile: Profile) -> None:
        """Erase the profile, its passkeys, sessions and links."""
        await self.store.delete_profile(profile.id)

    # -- seats bound to the profile --------------------------------------------------
    async def bind(self, profile: Profile, table_id: int, seat: int, token: str) -> None:
        """Bind a seat the signed-in player just took (its token is the one bound)."""
        await self.store.bind_seat(profile.id, table_id, seat, hash_token(token))

    async def follow(self, table_id: int, token: str, seat: int) -> None:
        """A seat token's binding (if any) follows its seat change (before the start)."""
        await self.store.follow_seat(table_id, hash_token(token), seat)

    async def tables(self, profile: Profile) -> list[BoundSeat]:
        """The live tables where the profile still holds its bound seat."""
        return await self.store.bound_seats(profile.id, MY_TABLES_MAX)

    async def bound_hash(self, profile: Profile, code: str, seat: int) -> str:
        """The bound token hash of the profile's ``seat`` at ``code`` (``404
        not_your_seat`` if the profile holds none there)."""
        for bound in await self.tables(profile):
            if bound.code.upper() == code.upper() and bound.seat == seat:
                return bound.token_hash
        raise TableError("not_your_seat", "this profile holds no seat here any more", 404)
