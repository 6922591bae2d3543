"""HTTP routes of friends (docs/protocol.md "Friends", docs/friends.md): the profile's
friend link with its QR code, friend requests (by link or handle), accept, decline,
remove, block and unblock, and the list of it all.

Every route needs a signed-in profile (``401 unauthorized``), counts against the HTTP
quota of its address, and friend requests against ``FIVEUP_RATE_LIMIT_FRIEND_REQUESTS``
(``429`` with ``Retry-After``); every state-changing route is Origin-checked
(app/api/profile_auth.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Request

from app.api.profile_auth import ProfileDep, RpDep, origin_guard
from app.api.quota_deps import friend_requests_quota, quota_router
from app.api.routes_profiles import _qr_svg
from app.db.friends_contract import Person as PersonRow
from app.friend_schemas import (
    Done,
    FriendLink,
    FriendsList,
    FriendState,
    HandleIn,
    LinkRequestIn,
    Person,
    RequestIn,
)
from app.schemas import ErrorResponse
from app.tables.friends import Friends

ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 413, 422, 503)
}

router = quota_router("/api", "friends", ERRORS)
router.dependencies.append(Depends(origin_guard))

Handle = Path(min_length=1, max_length=64, description="a profile's handle")


def get_friends(request: Request) -> Friends:
    friends: Friends = request.app.state.friends
    return friends


FriendsDep = Annotated[Friends, Depends(get_friends)]


def _person(p: PersonRow) -> Person:
    return Person(handle=p.handle, display_name=p.display_name)


def _link(token: str, rp_origin: str) -> FriendLink:
    link = f"/f/{token}"
    return FriendLink(link=link, qr_svg=_qr_svg(rp_origin + link))


@router.get("/profile/friend-link", response_model=FriendLink)
async def friend_link(profile: ProfileDep, friends: FriendsDep, rp: RpDep) -> FriendLink:
    """Your friend link (made on first use) and its QR code: whoever opens it, signed
    in, sends you a friend request."""
    return _link(await friends.link(profile), rp.origin)


@router.post("/profile/friend-link", response_model=FriendLink)
async def rotate_friend_link(profile: ProfileDep, friends: FriendsDep, rp: RpDep) -> FriendLink:
    """A new friend link: the old one stops working."""
    return _link(await friends.rotate_link(profile), rp.origin)


@router.get("/friends", response_model=FriendsList)
async def friends_list(profile: ProfileDep, friends: FriendsDep) -> FriendsList:
    """Your friends, requests both ways and blocks (handles and display names)."""
    o = await friends.overview(profile)
    return FriendsList(
        friends=[_person(p) for p in o.friends],
        incoming=[_person(p) for p in o.incoming],
        outgoing=[_person(p) for p in o.outgoing],
        blocked=[_person(p) for p in o.blocked],
    )


@router.post(
    "/friends/requests",
    response_model=FriendState,
    dependencies=[Depends(friend_requests_quota)],
)
async def send_request(body: RequestIn, profile: ProfileDep, friends: FriendsDep) -> FriendState:
    """Ask a player to be friends, by friend link or handle; if they asked you already,
    you are friends at once. ``403 blocked``, ``404 no_player``, ``409 self``, ``409
    too_many_pending``, ``409 too_many_friends``."""
    if isinstance(body, LinkRequestIn):
        token = body.link.rstrip("/").rsplit("/", 1)[-1]
        state, other = await friends.request(profile, link=token)
    else:
        state, other = await friends.request(profile, handle=body.handle)
    return FriendState(state=state, friend=_person(other))


@router.post("/friends/requests/{handle}/accept", response_model=FriendState)
async def accept(profile: ProfileDep, friends: FriendsDep, handle: str = Handle) -> FriendState:
    """Accept their request: you are friends (once, however many times it is sent).
    ``404 no_request``, ``409 too_many_friends``."""
    state, other = await friends.accept(profile, handle)
    return FriendState(state=state, friend=_person(other))


@router.post("/friends/requests/{handle}/decline", response_model=Done)
async def decline(profile: ProfileDep, friends: FriendsDep, handle: str = Handle) -> Done:
    """Decline their request (they are not told). ``404 no_request``."""
    await friends.decline(profile, handle)
    return Done()


@router.delete("/friends/friendships/{handle}", response_model=Done)
async def remove(profile: ProfileDep, friends: FriendsDep, handle: str = Handle) -> Done:
    """End the friendship, for both of you. ``404 not_friends``."""
    await friends.remove(profile, handle)
    return Done()


@router.post("/friends/blocks", response_model=Person)
async def block(body: HandleIn, profile: ProfileDep, friends: FriendsDep) -> Person:
    """Block a player: your friendship and requests end, they cannot ask again, nor take
    a seat at a table you host. ``409 too_many_blocks``."""
    return _person(await friends.block(profile, body.handle))


@router.delete("/friends/blocks/{handle}", response_model=Done)
async def unblock(profile: ProfileDep, friends: FriendsDep, handle: str = Handle) -> Done:
    """Unblock a player. ``404 not_blocked``."""
    await friends.unblock(profile, handle)
    return Done()
