"""Invitations (docs/invitations.md): a player seated at a table invites friends to it;
each invitation is stored, then delivered at once to every ``/ws/profile`` socket of its
invitee, on any process (:class:`~app.realtime.profile_hub.ProfileHub`).

The entry point for other features (e.g. a club inviting its members) is
:meth:`Invitations.invite`: by profile ids, with the same rules — only friends of the
inviter (``403 not_friends``), and never one who blocks the inviter (``403 blocked``).

Errors are :class:`~app.tables.errors.TableError` s: ``404 no_player``, ``409 self``,
``403 not_friends``, ``403 blocked``, ``403 not_seated``, ``409 table_over``,
``409 bad_seat``, ``404 no_invitation``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from app.db.friends_contract import Refused
from app.db.invitations_store import Invitation, InvitationsStore
from app.db.profile_rows import Profile
from app.realtime.profile_hub import ProfileHub
from app.tables.errors import TableError
from app.tables.friends import Friends

log = logging.getLogger(__name__)

_ERRORS: dict[str, tuple[str, int]] = {
    "not_friends": ("you can invite only your friends", 403),
    "blocked": ("this player does not take your invitations", 403),
}


@dataclass(frozen=True, slots=True)
class InvitationLimits:
    """The bounds of invitations (settings ``FIVEUP_INVITATIONS_*``)."""

    per_request_max: int = 20
    pending_max: int = 50
    list_max: int = 50


@dataclass(frozen=True, slots=True)
class Table:
    """The table an invitation is to."""

    id: int
    players: int
    status: str


class Invitations:
    """The invitations service over an :class:`InvitationsStore` and the profile hub."""

    def __init__(
        self,
        store: InvitationsStore,
        hub: ProfileHub,
        friends: Friends,
        limits: InvitationLimits | None = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.friends = friends
        self.limits = limits or InvitationLimits()

    async def club_table_made(
        self, me: Profile, club_id: int, table_id: int, code: str, members: list[int]
    ) -> None:
        """A member made a table for the club (app/tables/clubs.py's hook): every other
        member is invited to it (:meth:`invite_members`); a refusal is logged, never
        fails the table."""
        table = Table(id=table_id, players=0, status="waiting")
        try:
            await self.invite_members(me, table, club_id, members)
        except TableError as err:
            log.warning("club %s table %s: members not invited (%s)", club_id, code, err.code)

    async def invite_members(
        self,
        me: Profile,
        table: Table,
        club_id: int,
        members: Sequence[int],
        seat: int | None = None,
    ) -> int:
        """Invite these members of the club (``me`` a member too: membership is enough,
        no friendship needed) to ``table``, each on their own — one who blocks ``me`` is
        skipped (logged). How many were invited."""
        sent = 0
        for member in members:
            try:
                sent += len(await self.invite(me, table, [member], seat, club_id=club_id))
            except TableError as err:
                if err.code != "blocked":
                    raise
                log.info("club %s: member %s not invited (%s)", club_id, member, err.code)
        return sent

    async def invite(
        self,
        from_profile: Profile,
        table: Table,
        profile_ids: Sequence[int],
        seat: int | None = None,
        club_id: int | None = None,
    ) -> list[int]:
        """Invite these profiles (friends of ``from_profile``; with ``club_id``, members
        of that club) to ``table``; delivered at once to their profile sockets. The new
        invitations' ids, in order."""
        if table.status in ("finished", "closed"):
            raise TableError("table_over", "this table's match is over", 409)
        if seat is not None and not 0 <= seat < table.players:
            raise TableError("bad_seat", "no such seat at this table", 409)
        if from_profile.id in profile_ids:
            raise TableError("self", "you cannot invite yourself", 409)
        if not profile_ids:
            return []
        try:
            ids = await self.store.create(
                from_profile.id,
                profile_ids,
                table.id,
                seat,
                datetime.now(UTC),
                self.limits.pending_max,
                club_id,
            )
        except Refused as exc:
            message, status = _ERRORS.get(exc.code, ("refused", 409))
            raise TableError(exc.code, message, status) from exc
        for to_id, inv_id in zip(dict.fromkeys(profile_ids), ids, strict=True):
            await self.hub.invited(to_id, inv_id)
        return ids

    async def invite_handles(
        self, from_profile: Profile, table: Table, handles: Sequence[str], seat: int | None
    ) -> list[int]:
        """:meth:`invite` by handles (``404 no_player`` for an unknown one)."""
        people = [await self.friends.by_handle(h) for h in handles]
        return await self.invite(from_profile, table, [p.id for p in people], seat)

    async def pending(self, profile: Profile) -> list[Invitation]:
        return await self.store.pending(profile.id, self.limits.list_max)

    async def dismiss(self, profile: Profile, invitation_id: int) -> None:
        if not await self.store.dismiss(profile.id, invitation_id):
            raise TableError("no_invitation", "there is no such invitation", 404)
