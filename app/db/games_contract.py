"""The games store contract (:class:`GamesStore`): what my games and the player page
(app/tables/games.py) need of the database. Its one implementation is
app/db/games_store.py. Every read is of finished matches' rows that only their match's
end writes (another module's job), and of ``profiles``/``friendships``/``ratings``."""

from __future__ import annotations

from typing import Protocol

from app.db.games_rows import CountStats, FinishedMatch, Pairing, PublicProfile, Rating


class GamesStore(Protocol):
    """The reads (and the one write, a visibility) of my games and the player page."""

    async def finished_matches(
        self, profile_id: int, before: int | None, limit: int
    ) -> list[FinishedMatch]:
        """The profile's finished matches, newest first (by result id: results are
        written as matches end), those with an id below ``before`` if given; at most
        ``limit``, each with every seat."""
        ...

    async def public_profile(self, handle_key: str) -> PublicProfile | None:
        """The profile whose handle's look-alike key is ``handle_key``."""
        ...

    async def are_friends(self, profile_id: int, friend_id: int) -> bool:
        """Whether ``friend_id`` is among ``profile_id``'s friends (its row exists)."""
        ...

    async def ratings(self, profile_id: int) -> list[Rating]:
        """The profile's ratings, one per pool it has played in, by pool."""
        ...

    async def count_stats(self, profile_id: int) -> list[CountStats]:
        """The profile's figures per player count (counts it played at only), from the
        running totals each match's end adds to (migration 0017)."""
        ...

    async def pairings(self, profile_id: int, *, partners: bool, limit: int) -> list[Pairing]:
        """The other profiles met in the profile's finished matches: on another side
        (``partners`` False) or on its side (True: four players), the most played first;
        at most ``limit``. Seats without a profile (guests, computer players, deleted
        profiles) count nowhere."""
        ...

    async def page_figures(
        self, profile_id: int, people: int
    ) -> tuple[list[Rating], list[CountStats], list[Pairing], list[Pairing]]:
        """:meth:`ratings`, :meth:`count_stats` and both :meth:`pairings` (at most
        ``people`` each) in one transaction: a player page's figures."""
        ...

    async def set_visibility(self, profile_id: int, visibility: str) -> None: ...

    async def visibility(self, profile_id: int) -> str: ...

    async def close(self) -> None: ...
