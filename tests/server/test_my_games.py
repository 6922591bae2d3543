"""My games on a real server, on PostgreSQL and on SQLite: the signed-in player's live
tables (those waiting for its move first, as the stored rounds say) and its finished
matches (result rows written straight into the database, as a match's end writes them),
newest first, paged by an opaque cursor with a bounded limit; each with its result,
sides' scores, partners, opponents and replay link; nothing private in the answer."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from .games_support import ResultRows, Seat, client, sign_up
from .hardening_support import HardenedServer
from .support import rig_deal

_n = itertools.count(1)


@pytest.fixture(scope="module", params=["postgres", "sqlite"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[HardenedServer, str]]:
    url = request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")
    s = HardenedServer(
        url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_MY_GAMES_PAGE_MAX="5",
        FIVEUP_MY_GAMES_PAGE_DEFAULT="3",
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


async def _table(ann: httpx.AsyncClient, base: str, name: str) -> tuple[str, str]:
    """A two-player table Ann hosts (seat 0) and a guest joined (seat 1)."""
    r = await ann.post(
        "/api/tables", json={"name": name, "players": 2, "public": False, "host_name": "Ann"}
    )
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    async with client(base) as bob:
        r = await bob.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1})
        assert r.status_code == 200, r.text
    return code, token


async def _start(ann: httpx.AsyncClient, url: str, code: str, token: str, starter: int) -> None:
    r = await ann.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    tiles = [f"{lo}|{hi}" for lo in range(7) for hi in range(lo, 7)]
    hands = [["6|6", "5|5"], ["0|0", "0|1"]]
    stock = [t for t in tiles if t not in hands[0] + hands[1]]
    await rig_deal(url, code, hands, stock, starter)


async def test_live_tables_list_those_waiting_for_your_move_first_then_the_newest(
    served: tuple[HardenedServer, str],
) -> None:
    server, url = served
    async with client(server.http) as ann:
        await sign_up(ann, server.http, _handle("ann"), "Ann Lee")
        first, t1 = await _table(ann, server.http, "First")  # in play, Bob to move
        second, t2 = await _table(ann, server.http, "Second")  # in play, Ann to move
        third, _ = await _table(ann, server.http, "Third")  # waiting
        await _start(ann, url, first, t1, starter=1)
        await _start(ann, url, second, t2, starter=0)
        r = await ann.get("/api/profile/games")
        assert r.status_code == 200, r.text
        live = r.json()["live"]
        assert [(t["code"], t["status"], t["your_move"]) for t in live] == [
            (second, "playing", True),
            (third, "waiting", False),
            (first, "playing", False),
        ]
        assert live[0] == {
            "code": second,
            "name": "Second",
            "status": "playing",
            "players": 2,
            "seat": 0,
            "your_move": True,
        }
        assert r.json()["finished"] == [] and r.json()["next_before"] is None
        assert r.json()["visibility"] == "everyone"
        for secret in (ann.cookies["fiveup_session"], t1, t2):
            assert secret not in r.text


async def test_finished_matches_come_newest_first_a_page_at_a_time_with_sides_partners_and_replay(
    served: tuple[HardenedServer, str], rows: ResultRows
) -> None:
    server, _ = served
    ann_h, cy_h = _handle("ann"), _handle("cy")
    async with client(server.http) as ann, client(server.http) as cy:
        await sign_up(ann, server.http, ann_h, "Ann Lee")
        await sign_up(cy, server.http, cy_h, "Cy Wu")
        ann_id, cy_id = await rows.profile_id(ann_h), await rows.profile_id(cy_h)
        code = "G" + secrets.token_hex(2).upper()
        for n in range(1, 6):  # five two-player matches against Cy; Ann wins the odd ones
            won = n % 2 == 1
            await rows.match(
                code,
                n,
                [
                    Seat("Ann", 0, won, 250 if won else 120, ann_id),
                    Seat("Cy", 1, not won, 120 if won else 250, cy_id),
                ],
            )
        await rows.match(  # a match without Ann is not hers
            "OTHER", 1, [Seat("Cy", 0, True, 250, cy_id), Seat("Guest", 1, False, 5)]
        )
        four = await rows.match(  # four players: Ann and Cy partners, a guest, a deleted one
            code,
            6,
            [
                Seat("Ann", 0, True, 255, ann_id),
                Seat("Guest", 1, False, 100),
                Seat("Cy", 0, True, 255, cy_id),
                Seat("deleted player", 1, False, 100),
            ],
            rated=True,
        )
        await rows.match(code, 7, [Seat("Ann", 0, False, 0, ann_id), Seat("Hard", 1, True, 250)])

        seen: list[dict[str, Any]] = []
        r = await ann.get("/api/profile/games")
        pages = []
        while True:
            assert r.status_code == 200, r.text
            body = r.json()
            pages.append(len(body["finished"]))
            seen += body["finished"]
            if body["next_before"] is None:
                break
            assert body["next_before"] != str(four)  # opaque: not a bare id
            r = await ann.get("/api/profile/games", params={"before": body["next_before"]})
            assert r.json()["live"] == []  # live tables are on the first page only
        assert pages == [3, 3, 1]  # FIVEUP_MY_GAMES_PAGE_DEFAULT=3
        assert [m["match"] for m in seen] == [7, 6, 5, 4, 3, 2, 1]
        assert [m["result"] for m in seen] == ["lost", "won", "won", "lost", "won", "lost", "won"]
        assert seen[0]["opponents"] == [{"name": "Hard", "handle": None}]
        assert seen[2]["scores"] == [250, 120] and seen[3]["scores"] == [120, 250]
        assert seen[2]["opponents"] == [{"name": "Cy", "handle": cy_h}]
        fours = seen[1]
        assert fours["finished_at"].startswith("2026-01-01T")
        del fours["finished_at"]
        assert fours == {
            "code": code,
            "match": 6,
            "players": 4,
            "rated": True,
            "result": "won",
            "seat": 0,
            "side": 0,
            "scores": [255, 100],
            "partners": [{"name": "Cy", "handle": cy_h}],
            "opponents": [
                {"name": "Guest", "handle": None},
                {"name": "deleted player", "handle": None},
            ],
            "replay": f"/t/{code}/replay?match=6",
        }
        # Cy's own list shows the same four-player match from Cy's seat
        r = await cy.get("/api/profile/games", params={"limit": 5})
        mine = next(m for m in r.json()["finished"] if m["match"] == 6 and m["code"] == code)
        assert mine["seat"] == 2 and mine["partners"] == [{"name": "Ann", "handle": ann_h}]
        assert r.json()["finished"][1]["code"] == "OTHER"
        assert ann.cookies["fiveup_session"] not in (await cy.get("/api/profile/games")).text


async def test_paging_inputs_are_bounded_and_refused_in_the_one_error_shape(
    served: tuple[HardenedServer, str],
) -> None:
    server, _ = served
    async with client(server.http) as ann:
        r = await ann.get("/api/profile/games")
        assert r.status_code == 401 and r.json()["detail"]["code"] == "unauthorized"
        await sign_up(ann, server.http, _handle("ann"), "Ann")
        for params, status, code in (
            ({"limit": 6}, 400, "bad_limit"),  # above FIVEUP_MY_GAMES_PAGE_MAX=5
            ({"limit": 0}, 422, "invalid_request"),
            ({"limit": "x"}, 422, "invalid_request"),
            ({"before": "garbage!"}, 400, "bad_cursor"),
            ({"before": "YmVmb3JlOi0x"}, 400, "bad_cursor"),  # "before:-1"
            ({"before": "x" * 65}, 422, "invalid_request"),
        ):
            r = await ann.get("/api/profile/games", params=params)
            assert r.status_code == status, (params, r.text)
            assert set(r.json()) == {"detail"} and r.json()["detail"]["code"] == code
        r = await ann.get("/api/profile/games", params={"limit": 5})
        assert r.status_code == 200 and r.json()["finished"] == []
