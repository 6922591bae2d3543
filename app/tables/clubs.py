"""Clubs (docs/clubs.md): a named group with an owner, members and an invite link; the
tables made for it, their finished matches, the members' standings over those matches
and the club's leaderboard.

An invite link is ``/c/{token}``. As a friend link's (app/tables/friends.py), the token
is derived, not stored: the HMAC-SHA256 of the club's random nonce keyed by its owner's
WebAuthn user id (which no player ever sees), so every member's page shows the same
link; the store keeps the nonce and the token's SHA-256 (its look-up key). Rotating
draws a new nonce: the old token then finds no club.

Errors are :class:`~app.tables.errors.TableError` s: ``404 no_club`` (no such club, or
you are not a member: the same answer), ``403 not_owner``, ``409 owner_leaves``, ``404
no_member``, ``409 too_many_clubs``, ``409 club_full``, ``409 bad_club_name`` (as a
profile's ``bad_display_name``: the schema cannot know the bound, so not a 422).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app import club_schemas as s
from app.core.names import NothingVisible, confusable_key, visible_name
from app.db.club_contract import Caps, ClubPage, ClubStore, Refused
from app.db.profile_rows import Profile
from app.ratings import Rating, displayed
from app.tables.errors import TableError
from app.tables.leaderboards import Leaderboards

#: an invite token's characters at most (a derived one has 43)
TOKEN_MAX = 64
#: live tables and finished matches a club page lists at most (newest first)
PAGE_ROWS = 50

_ERRORS: dict[str, tuple[str, int]] = {
    "no_club": ("no such club", 404),
    "no_player": ("no such player", 404),
    "not_owner": ("only the club's owner may do that", 403),
    "owner_leaves": ("the owner cannot leave the club: delete it instead", 409),
    "no_member": ("no such member of this club", 404),
    "too_many_clubs": ("you are in as many clubs as a profile may be", 409),
    "club_full": ("this club has as many members as a club may have", 409),
}

#: what a club's new table is told to (invitations, another part): the club's id, the
#: table's code, and the ids of the members other than its creator
#: called with the member who made the table, the club, the table's id and code, and the
#: other members' profile ids
TableHook = Callable[[Profile, int, int, str, list[int]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ClubLimits:
    """The bounds of clubs (settings ``FIVEUP_CLUB*``)."""

    clubs_per_profile: int = 20
    members_max: int = 100
    name_max: int = 40

    def caps(self) -> Caps:
        return Caps(self.clubs_per_profile, self.members_max)


def invite_token(owner_user_handle: str, nonce: str) -> str:
    """The invite token of a club's link with this nonce (random, one per club).

    >>> len(invite_token("dXNlcg", "n1")), invite_token("u", "a") != invite_token("u", "b")
    (43, True)
    """
    mac = hmac.new(owner_user_handle.encode(), f"club-invite/{nonce}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _refused(exc: Refused) -> TableError:
    message, status = _ERRORS.get(exc.code, ("refused", 409))
    return TableError(exc.code, message, status)


def _win_rate(st: s.Standing) -> float:
    return st.won / st.played if st.played else 0.0


@dataclass
class Clubs:
    """The clubs service over a :class:`ClubStore`."""

    store: ClubStore
    leaderboards: Leaderboards | None = None
    limits: ClubLimits = field(default_factory=ClubLimits)
    #: called after a table is made for a club (for invitations; docs/clubs.md)
    table_hooks: list[TableHook] = field(default_factory=list)

    @staticmethod
    def _now() -> datetime:
        return datetime.now(UTC)

    async def _call(self, change: Awaitable[object]) -> None:
        try:
            await change
        except Refused as exc:
            raise _refused(exc) from exc

    def clean_name(self, raw: str) -> str:
        """The club name as stored: the seat names' clean-up, then its length bound."""
        try:
            name = visible_name(raw)
        except NothingVisible:
            raise TableError(
                "bad_club_name", "a club name needs a visible letter or digit", 409
            ) from None
        if len(name) > self.limits.name_max:
            raise TableError(
                "bad_club_name", f"a club name has at most {self.limits.name_max} characters", 409
            )
        return name

    async def create(self, me: Profile, raw_name: str) -> s.ClubJoined:
        name = self.clean_name(raw_name)
        nonce = secrets.token_hex(16)
        token = invite_token(me.user_handle, nonce)
        try:
            club_id = await self.store.create(
                me.id, name, nonce, token_hash(token), self.limits.caps(), self._now()
            )
        except Refused as exc:
            raise _refused(exc) from exc
        return s.ClubJoined(id=club_id, name=name)

    async def mine(self, me: Profile) -> s.ClubList:
        rows = await self.store.mine(me.id, self.limits.clubs_per_profile)
        return s.ClubList(
            clubs=[
                s.ClubSummary(
                    id=c.id, name=c.name, owner=c.owner_handle, members=c.members, owned=c.mine
                )
                for c in rows
            ]
        )

    async def _page(self, me: Profile, club_id: int) -> ClubPage:
        page = await self.store.page(club_id, me.id, PAGE_ROWS)
        if page is None:
            raise _refused(Refused("no_club"))
        return page

    async def club(self, me: Profile, club_id: int) -> s.Club:
        """The club page, for its members only (``404 no_club`` for anyone else)."""
        page = await self._page(me, club_id)
        standings = [
            s.Standing(handle=m.handle, display_name=m.display_name, played=m.played, won=m.won)
            for m in page.members
        ]
        standings.sort(key=lambda st: (-st.won, -_win_rate(st), -st.played))
        board = (
            await self.leaderboards.board(
                "all", self.limits.members_max, among=[m.id for m in page.members]
            )
            if self.leaderboards is not None
            else None
        )
        return s.Club(
            id=page.id,
            name=page.name,
            owner=page.owner_handle,
            owned=page.owner_id == me.id,
            members=[
                s.ClubMember(
                    handle=m.handle,
                    display_name=m.display_name,
                    rating=None
                    if m.mu is None or m.sigma is None
                    else displayed(Rating(m.mu, m.sigma)),
                )
                for m in page.members
            ],
            standings=standings,
            leaderboard=[] if board is None else board.entries,
            tables=[
                s.ClubTable(
                    code=t.code,
                    name=t.name,
                    status=t.status,  # type: ignore[arg-type]
                    players=t.players,
                    seated=t.seated,
                )
                for t in page.live
            ],
            matches=[
                s.ClubMatch(
                    code=f.code, match=f.match_number, finished_at=f.finished_at, winners=f.winners
                )
                for f in page.finished
            ],
        )

    async def invite(self, me: Profile, club_id: int) -> str:
        """The club's invite token (members only)."""
        page = await self._page(me, club_id)
        return invite_token(page.owner_user_handle, page.invite_nonce)

    async def rotate_invite(self, me: Profile, club_id: int) -> str:
        """A new invite token (the owner only); the old one stops working."""
        nonce = secrets.token_hex(16)
        token = invite_token(me.user_handle, nonce)
        await self._call(self.store.rotate(club_id, me.id, nonce, token_hash(token)))
        return token

    async def join(self, me: Profile, link: str) -> s.ClubJoined:
        token = link.rstrip("/").rsplit("/", 1)[-1]
        if not 0 < len(token) <= TOKEN_MAX:
            raise _refused(Refused("no_club"))
        try:
            joined = await self.store.join(
                token_hash(token), me.id, self.limits.caps(), self._now()
            )
        except Refused as exc:
            raise _refused(exc) from exc
        return s.ClubJoined(id=joined.club_id, name=joined.name)

    async def leave(self, me: Profile, club_id: int) -> None:
        await self._call(self.store.leave(club_id, me.id))

    async def remove(self, me: Profile, club_id: int, handle: str) -> None:
        key = confusable_key(handle) if len(handle) <= 64 else ""
        if not key:
            raise _refused(Refused("no_member"))
        await self._call(self.store.remove(club_id, me.id, key))

    async def delete(self, me: Profile, club_id: int) -> None:
        await self._call(self.store.delete(club_id, me.id))

    async def require_member(self, me: Profile, club_id: int) -> str:
        """The club's name if ``me`` is a member (else ``404 no_club``)."""
        return (await self._page(me, club_id)).name

    async def others(self, me: Profile, club_id: int) -> list[int]:
        """The club's members but ``me`` (``404 no_club`` unless ``me`` is a member)."""
        if not await self.store.is_member(club_id, me.id):
            raise _refused(Refused("no_club"))
        return [i for i in await self.store.member_ids(club_id) if i != me.id]

    async def table_made(self, me: Profile, club_id: int, table_id: int, code: str) -> None:
        """Record a table made for the club and tell the hooks (members but ``me``)."""
        await self.store.add_table(club_id, table_id, self._now())
        if self.table_hooks:
            others = [i for i in await self.store.member_ids(club_id) if i != me.id]
            for hook in self.table_hooks:
                await hook(me, club_id, table_id, code, others)
