"""The one check friends add to taking a seat (docs/friends.md "Blocks"): a signed-in
player whom the host's profile blocks cannot join the host's table (``403 blocked``).

Only a join by a signed-in browser pays for it (one indexed query; the route read the
session already); a guest's join and every move skip it."""

from __future__ import annotations

from fastapi import Request

from app.db.profile_rows import Profile
from app.tables.errors import TableError
from app.tables.friends import Friends


async def refuse_if_host_blocks(request: Request, code: str, profile: Profile | None) -> None:
    """``403 blocked`` when the signed-in joiner ``profile`` is blocked by the table's
    host."""
    friends: Friends | None = getattr(request.app.state, "friends", None)
    if profile is None or friends is None:
        return
    table_id = await request.app.state.service.table_id(code)
    if await friends.host_blocks(table_id, profile):
        raise TableError("blocked", "the host has blocked you at this table", 403)
