"""The player page on a real server, on PostgreSQL and on SQLite, from result rows
written straight into the database: ratings (provisional above the sigma bound), figures
per player count and in total, head-to-head against opponent profiles and with partners
(guests, computer players and deleted profiles count nowhere); visibility ``everyone``,
``friends`` and ``me``, a hidden page answering exactly as an unknown handle; the
visibility change is Origin-checked; the page is capped per address; nothing private."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from .games_support import ResultRows, Seat, client, sign_up
from .hardening_support import HardenedServer
from .moderation_support import new_address

_n = itertools.count(1)


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[HardenedServer, str]]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(
        url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_PLAYER_PAGES="8/minute",
        FIVEUP_RATING_PROVISIONAL_SIGMA="3",
    ).start()
    yield s, url
    s.stop()


@pytest.fixture
async def rows(served: tuple[HardenedServer, str]) -> AsyncIterator[ResultRows]:
    r = ResultRows(served[1])
    yield r
    await r.close()


def _handle(prefix: str) -> str:
    return f"{prefix}{next(_n)}{secrets.token_hex(3)}"


async def test_the_page_shows_ratings_figures_per_count_head_to_head_and_partners(
    served: tuple[HardenedServer, str], rows: ResultRows
) -> None:
    server, _ = served
    ann_h, cy_h, di_h = _handle("ann"), _handle("cy"), _handle("di")
    async with client(server.http) as ann, client(server.http) as cy, client(server.http) as di:
        await sign_up(ann, server.http, ann_h, "Ann Lee")
        await sign_up(cy, server.http, cy_h, "Cy Wu")
        await sign_up(di, server.http, di_h, "Di Ko")
        ann_id, cy_id = await rows.profile_id(ann_h), await rows.profile_id(cy_h)
        di_id = await rows.profile_id(di_h)
        await rows.rating(ann_id, "all", 27.5, 2.1, 12)
        await rows.rating(ann_id, "4", 24.0, 4.5, 2)
        code = "P" + secrets.token_hex(2).upper()
        # two-player: Ann beats Cy, loses to Cy, beats a computer player
        await rows.match(
            code,
            1,
            [Seat("Ann", 0, True, 250, ann_id, 2, 260, 10, 60), Seat("Cy", 1, False, 90, cy_id)],
            rounds=4,
        )
        await rows.match(
            code,
            2,
            [Seat("Ann", 0, False, 100, ann_id, 1, 110, 10, 35), Seat("Cy", 1, True, 255, cy_id)],
            rounds=6,
        )
        await rows.match(
            code,
            3,
            [Seat("Ann", 0, True, 250, ann_id, 3, 250, 0, 45), Seat("Hard", 1, False, 20)],
            rounds=5,
        )
        # four-player: Ann with Di against Cy and a deleted profile
        await rows.match(
            code,
            4,
            [
                Seat("Ann", 0, True, 260, ann_id, 1, 140, 5, 80),
                Seat("Cy", 1, False, 100, cy_id),
                Seat("Di", 0, True, 260, di_id),
                Seat("deleted player", 1, False, 100),
            ],
            rounds=5,
            rated=True,
        )
        r = await cy.get(f"/api/players/{ann_h}")
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["handle"] == ann_h and page["display_name"] == "Ann Lee"
        assert page["ratings"] == [
            {
                "pool": "4",
                "rating": 1920,
                "mu": 24.0,
                "sigma": 4.5,
                "matches": 2,
                "provisional": True,
            },
            {
                "pool": "all",
                "rating": 2348,
                "mu": 27.5,
                "sigma": 2.1,
                "matches": 12,
                "provisional": False,
            },
        ]
        two, four, total = page["stats"]
        assert two == {
            "players": 2,
            "played": 3,
            "won": 2,
            "rounds": 15,
            "rounds_dominoed": 6,
            "points_made": 620,
            "points_per_round": 41.33,
            "deductions": 20,
            "best_round": 60,
        }
        assert four == {
            "players": 4,
            "played": 1,
            "won": 1,
            "rounds": 5,
            "rounds_dominoed": 1,
            "points_made": 140,
            "points_per_round": 28.0,
            "deductions": 5,
            "best_round": 80,
        }
        assert total["players"] is None and total["played"] == 4 and total["won"] == 3
        assert total["points_made"] == 760 and total["rounds"] == 20
        assert total["points_per_round"] == 38.0 and total["best_round"] == 80
        assert page["opponents"] == [  # the computer player and the deleted one: nowhere
            {"handle": cy_h, "display_name": "Cy Wu", "played": 3, "won": 2}
        ]
        assert page["partners"] == [
            {"handle": di_h, "display_name": "Di Ko", "played": 1, "won": 1}
        ]
        # Cy's side of the head-to-head; and the page answers by handle, any case
        r = await ann.get(f"/api/players/{cy_h.upper()}")
        assert r.status_code == 200 and r.json()["handle"] == cy_h
        assert r.json()["opponents"] == [
            {"handle": ann_h, "display_name": "Ann Lee", "played": 3, "won": 1},
            {"handle": di_h, "display_name": "Di Ko", "played": 1, "won": 0},
        ]
        assert r.json()["ratings"] == [] and r.json()["partners"] == []
        for secret in (ann.cookies["fiveup_session"], cy.cookies["fiveup_session"]):
            assert secret not in page.__repr__() and secret not in r.text
        assert set(page) == {
            "handle",
            "display_name",
            "ratings",
            "stats",
            "opponents",
            "partners",
        }


async def test_a_page_without_matches_is_empty_and_an_unknown_or_look_alike_handle_is_404(
    served: tuple[HardenedServer, str],
) -> None:
    server, _ = served
    handle = "bob" + secrets.token_hex(3).replace("0", "a").replace("1", "b")
    async with client(server.http) as bob:
        await sign_up(bob, server.http, handle, "Bob")
        r = await bob.get(f"/api/players/{handle}")
        assert r.status_code == 200
        assert r.json()["stats"] == [] and r.json()["opponents"] == []
        for other in ("b0b" + handle[3:], "nobody" + secrets.token_hex(4), "x" * 65):
            r = await bob.get(f"/api/players/{other}")
            assert r.status_code in (404, 422), other
            assert set(r.json()) == {"detail"}
        r = await bob.get(f"/api/players/b0b{handle[3:]}")
        assert r.json()["detail"]["code"] == "player_not_found"


async def test_visibility_everyone_friends_me_hides_the_page_exactly_as_an_unknown_handle(
    served: tuple[HardenedServer, str], rows: ResultRows
) -> None:
    server, _ = served
    ann_h, fay_h, sam_h = _handle("ann"), _handle("fay"), _handle("sam")
    async with (
        client(server.http) as ann,
        client(server.http) as fay,
        client(server.http) as sam,
        client(server.http) as guest,
    ):
        await sign_up(ann, server.http, ann_h, "Ann Lee")
        await sign_up(fay, server.http, fay_h, "Fay")
        await sign_up(sam, server.http, sam_h, "Sam")
        ann_id, fay_id = await rows.profile_id(ann_h), await rows.profile_id(fay_h)
        await rows.friends(ann_id, fay_id)
        await rows.match(
            "V" + secrets.token_hex(2).upper(),
            1,
            [Seat("Ann", 0, True, 250, ann_id, 2, 250, 0, 70), Seat("Fay", 1, False, 0, fay_id)],
        )
        unknown = await guest.get(f"/api/players/nobody{secrets.token_hex(4)}")
        assert unknown.status_code == 404

        async def seen_by(who: httpx.AsyncClient) -> int:
            r = await who.get(f"/api/players/{ann_h}", headers={"X-Forwarded-For": new_address()})
            if r.status_code == 404:
                assert r.json() == {"detail": {**unknown.json()["detail"]}}  # no hint
                assert "70" not in r.text and ann_h not in r.text
            return r.status_code

        viewers = (ann, fay, sam, guest)
        assert [await seen_by(v) for v in viewers] == [200, 200, 200, 200]
        for visibility, expected in (
            ("friends", [200, 200, 404, 404]),
            ("me", [200, 404, 404, 404]),
        ):
            r = await ann.put("/api/profile/visibility", json={"visibility": visibility})
            assert r.status_code == 200 and r.json() == {"visibility": visibility}
            assert (await ann.get("/api/profile/games")).json()["visibility"] == visibility
            assert [await seen_by(v) for v in viewers] == expected, visibility
        # the change is Origin-checked, signed-in only, and validated
        r = await ann.put(
            "/api/profile/visibility",
            json={"visibility": "everyone"},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_origin"
        r = await guest.put("/api/profile/visibility", json={"visibility": "everyone"})
        assert r.status_code == 401
        for bad in ({"visibility": "nobody"}, {"visibility": "me", "x": 1}, {}):
            r = await ann.put("/api/profile/visibility", json=bad)
            assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_request"
        assert [await seen_by(v) for v in viewers] == [200, 404, 404, 404]  # still "me"
        await ann.put("/api/profile/visibility", json={"visibility": "everyone"})
        assert [await seen_by(v) for v in viewers] == [200, 200, 200, 200]


async def test_player_pages_are_capped_per_address_with_retry_after(
    served: tuple[HardenedServer, str],
) -> None:
    server, _ = served
    async with client(server.http) as reader:
        codes = [(await reader.get(f"/api/players/nobody{i}")).status_code for i in range(9)]
        assert codes == [404] * 8 + [429]
        r = await reader.get("/api/players/nobody")
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert r.json()["detail"]["code"] == "rate_limited"


async def test_a_deleted_profile_counts_nowhere_and_has_no_page(
    served: tuple[HardenedServer, str], rows: ResultRows
) -> None:
    server, _ = served
    ann_h, gus_h = _handle("ann"), _handle("gus")
    async with client(server.http) as ann, client(server.http) as gus:
        await sign_up(ann, server.http, ann_h, "Ann")
        await sign_up(gus, server.http, gus_h, "Gus")
        ann_id, gus_id = await rows.profile_id(ann_h), await rows.profile_id(gus_h)
        await rows.match(
            "D" + secrets.token_hex(2).upper(),
            1,
            [Seat("Ann", 0, True, 250, ann_id), Seat("Gus", 1, False, 10, gus_id)],
        )
        r = await ann.get(f"/api/players/{ann_h}")
        assert [p["handle"] for p in r.json()["opponents"]] == [gus_h]
        assert (await gus.delete("/api/profile")).status_code == 200
        r = await ann.get(f"/api/players/{ann_h}")
        assert r.json()["opponents"] == [] and r.json()["stats"][0]["played"] == 1
        assert (await ann.get(f"/api/players/{gus_h}")).status_code == 404
        games = (await ann.get("/api/profile/games")).json()["finished"]
        assert games[0]["opponents"][0]["handle"] is None  # the seat's profile is gone


async def test_a_page_read_again_after_a_new_match_shows_it(
    served: tuple[HardenedServer, str], rows: ResultRows
) -> None:
    """A page's figures are the running totals each match's end adds to
    (app/db/figures_sql.py): a match finished since shows at the next read."""
    server, _ = served
    ann_h, bo_h = _handle("ann"), _handle("bo")
    async with client(server.http) as ann, client(server.http) as bo:
        await sign_up(ann, server.http, ann_h, "Ann")
        await sign_up(bo, server.http, bo_h, "Bo")
        ann_id, bo_id = await rows.profile_id(ann_h), await rows.profile_id(bo_h)
        seats = [Seat("Ann", 0, True, 61, ann_id), Seat("Bo", 1, False, 20, bo_id)]
        await rows.match("N" + secrets.token_hex(2).upper(), 1, seats)
        first = (await ann.get(f"/api/players/{ann_h}")).json()
        assert first["stats"][-1]["played"] == 1 and first["opponents"][0]["won"] == 1
        assert (await ann.get(f"/api/players/{ann_h}")).json() == first  # nothing new
        lost = [Seat("Ann", 0, False, 30, ann_id), Seat("Bo", 1, True, 62, bo_id)]
        await rows.match("N" + secrets.token_hex(2).upper(), 1, lost)
        again = (await ann.get(f"/api/players/{ann_h}")).json()
        assert again["stats"][-1]["played"] == 2 and again["opponents"][0]["played"] == 2
        assert again["opponents"][0]["won"] == 1
