"""My games and the player page (docs/games.md).

- **My games** (a signed-in player's): the live tables where the profile holds a bound
  seat — those waiting for *its* move first — then its finished matches, newest first,
  a page at a time behind an opaque ``before`` cursor.
- **The player page** (anyone's, by handle): handle, display name, ratings (provisional
  while sigma is above ``FIVEUP_RATING_PROVISIONAL_SIGMA``), figures per player count,
  head-to-head against each opponent profile and with each partner. Its profile's
  ``visibility`` says who sees it: ``everyone``, ``friends`` (the profile's friends and
  itself) or ``me``; to anyone else the page does not exist (``404 player_not_found``,
  the same answer as an unknown handle, so a hidden page does not even leak that it
  exists).

Seats without a profile — guests, computer players, deleted profiles (their
``match_players.profile_id`` is NULL, their name ``deleted player``) — count nowhere.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from app.core.names import confusable_key
from app.db.games_contract import GamesStore
from app.db.games_rows import CountStats, FinishedMatch, MatchSeat, Pairing, Rating
from app.db.profile_rows import BoundSeat, Profile
from app.db.store import Unavailable
from app.tables.errors import TableError, unavailable

Visibility = Literal["everyone", "friends", "me"]
VISIBILITIES: tuple[Visibility, ...] = ("everyone", "friends", "me")

#: whether a live table waits for the seat's move: (table code, seat) → bool
YourMove = Callable[[str, int], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class GamesLimits:
    """The bounds of my games and the player page (settings ``FIVEUP_MY_GAMES_*`` …)."""

    #: finished matches one page holds at most (``limit`` above it: ``400 bad_limit``)
    page_max: int = 50
    #: a page's size when ``limit`` is not given
    page_default: int = 20
    #: a rating whose sigma is above this is provisional
    provisional_sigma: float = 5.0
    #: opponents (and partners) the player page lists at most, the most played first
    people_max: int = 20


@dataclass(frozen=True, slots=True)
class LiveTable:
    code: str
    name: str
    status: str
    players: int
    seat: int
    your_move: bool


@dataclass(frozen=True, slots=True)
class Person:
    """Someone at a finished match's table: a profile's handle, or None (a guest, a
    computer player, a deleted profile)."""

    name: str
    handle: str | None


@dataclass(frozen=True, slots=True)
class MyMatch:
    match: FinishedMatch
    seat: MatchSeat
    scores: list[int]
    partners: list[Person]
    opponents: list[Person]

    @property
    def replay(self) -> str:
        return f"/t/{self.match.table_code}/replay?match={self.match.match_number}"


@dataclass(frozen=True, slots=True)
class MyGames:
    live: list[LiveTable]
    finished: list[MyMatch]
    #: the cursor of the next page (None: this was the last)
    next_before: str | None
    visibility: str


@dataclass(frozen=True, slots=True)
class PlayerPage:
    handle: str
    display_name: str
    ratings: list[tuple[Rating, bool]]
    stats: list[CountStats]
    opponents: list[Pairing]
    partners: list[Pairing]


def cursor_of(match_id: int) -> str:
    """The opaque cursor of the page after the match ``match_id``.

    >>> cursor_of(42), cursor_at(cursor_of(42))
    ('YmVmb3JlOjQy', 42)
    """
    return base64.urlsafe_b64encode(f"before:{match_id}".encode()).decode().rstrip("=")


def cursor_at(cursor: str) -> int:
    """The match id a cursor stands for, or ``400 bad_cursor``.

    >>> cursor_at("nonsense")
    Traceback (most recent call last):
    ...
    app.tables.errors.TableError: not a cursor this server gave
    """
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        prefix, _, number = text.partition(":")
        if prefix == "before" and number.isdigit() and len(number) <= 18:
            return int(number)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise TableError("bad_cursor", "not a cursor this server gave", 400)


def my_match(match: FinishedMatch, profile_id: int) -> MyMatch | None:
    """The match as the profile's seat sees it (None: the profile held no seat)."""
    mine = next((s for s in match.seats if s.profile_id == profile_id), None)
    if mine is None:
        return None
    sides = max((s.side for s in match.seats), default=0) + 1
    scores = [0] * sides
    for s in match.seats:
        scores[s.side] = s.score  # a side's seats share its score (R2)
    others = [s for s in match.seats if s.seat != mine.seat]
    return MyMatch(
        match,
        mine,
        scores,
        [Person(s.name, s.handle) for s in others if s.side == mine.side],
        [Person(s.name, s.handle) for s in others if s.side != mine.side],
    )


def _not_found() -> TableError:
    return TableError("player_not_found", "no such player page", 404)


class Games:
    """My games and the player page over a :class:`GamesStore`."""

    def __init__(self, store: GamesStore, limits: GamesLimits) -> None:
        self.store = store
        self.limits = limits

    async def my_games(
        self,
        profile: Profile,
        bound: list[BoundSeat],
        your_move: YourMove,
        *,
        before: str | None,
        limit: int | None,
    ) -> MyGames:
        """The profile's live tables (``bound``: its bound seats, newest first; those
        whose table waits for its move first, the order kept otherwise) and a page of its
        finished matches. Only the first page (no ``before``) lists the live tables."""
        size = self.limits.page_default if limit is None else limit
        if not 1 <= size <= self.limits.page_max:
            raise TableError("bad_limit", f"limit is 1 to {self.limits.page_max}", 400)
        at = None if before is None else cursor_at(before)
        live: list[LiveTable] = []
        if at is None:
            for b in bound:
                try:
                    move = b.status == "playing" and await your_move(b.code, b.seat)
                except TableError:
                    continue  # gone since the list was read
                live.append(LiveTable(b.code, b.name, b.status, b.players, b.seat, move))
            live.sort(key=lambda t: not t.your_move)  # stable: newest first in each group
        try:
            rows = await self.store.finished_matches(profile.id, at, size + 1)
            visibility = await self.store.visibility(profile.id)
        except Unavailable:
            raise unavailable() from None
        page = [m for m in (my_match(r, profile.id) for r in rows[:size]) if m is not None]
        more = len(rows) > size
        return MyGames(live, page, cursor_of(rows[size - 1].id) if more else None, visibility)

    async def player_page(self, handle: str, viewer: Profile | None) -> PlayerPage:
        """The page of the profile ``handle`` as ``viewer`` (None: signed out) may see
        it; ``404 player_not_found`` when there is none or it is hidden from them."""
        if not isinstance(handle, str) or not handle or len(handle) > 64:
            raise _not_found()
        try:
            who = await self.store.public_profile(confusable_key(handle))
            if who is None or who.handle.casefold() != handle.casefold():
                raise _not_found()  # a look-alike of a handle is not its page
            if not await self._may_see(who.id, who.visibility, viewer):
                raise _not_found()
            ratings, stats, opponents, partners = await self.store.page_figures(
                who.id, self.limits.people_max
            )
        except Unavailable:
            raise unavailable() from None
        bound = self.limits.provisional_sigma
        return PlayerPage(
            who.handle,
            who.display_name,
            [(r, r.sigma > bound) for r in ratings],
            stats,
            opponents,
            partners,
        )

    async def _may_see(self, owner: int, visibility: str, viewer: Profile | None) -> bool:
        if viewer is not None and viewer.id == owner:
            return True
        if visibility == "everyone":
            return True
        if visibility == "friends" and viewer is not None:
            return await self.store.are_friends(owner, viewer.id)
        return False

    async def set_visibility(self, profile: Profile, visibility: Visibility) -> None:
        try:
            await self.store.set_visibility(profile.id, visibility)
        except Unavailable:
            raise unavailable() from None
