"""Creating, joining, moving seats, leaving, kicking and starting (service level, both
backends)."""

from __future__ import annotations

from typing import Any

import pytest

from app.schemas import TableInfo
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import SetPresence, current_match, seated


async def _create(svc: TableService, *args: Any) -> tuple[dict[str, Any], str, int]:
    joined = await svc.create(*args)
    return joined.table.model_dump(), joined.token, joined.seat


async def _join(svc: TableService, *args: Any) -> tuple[dict[str, Any], str, int]:
    joined = await svc.join(*args)
    return joined.table.model_dump(), joined.token, joined.seat


def _d(info: TableInfo) -> dict[str, Any]:
    return info.model_dump()


async def test_creator_is_host_at_seat_zero(service: TableService) -> None:
    info, token, seat = await _create(service, "Friday", 4, True, "Ann")
    assert seat == 0 and info["host"] == 0 and token
    assert info["seats"][0]["name"] == "Ann"
    assert [s["side"] for s in info["seats"]] == [0, 1, 0, 1]  # R2 partnerships
    assert info["sides"] == [[0, 2], [1, 3]]
    assert info["status"] == "waiting" and len(info["code"]) == 6


async def test_join_takes_a_free_seat_and_refuses_a_taken_one(service: TableService) -> None:
    info, _, _ = await _create(service, "T", 3, True, "Ann")
    joined, token, seat = await _join(service, info["code"].lower(), "Bob", 2)
    assert seat == 2 and token and joined["seats"][2]["name"] == "Bob"
    with pytest.raises(TableError) as err:
        await _join(service, info["code"], "Cy", 2)
    assert err.value.code == "seat_taken"
    with pytest.raises(TableError) as err:
        await _join(service, info["code"], "Cy", 3)
    assert err.value.code == "bad_seat"


async def test_player_moves_seat_before_start(service: TableService) -> None:
    info, host, _ = await _create(service, "T", 4, True, "Ann")
    _, bob, _ = await _join(service, info["code"], "Bob", 1)
    after = _d(await service.change_seat(info["code"], bob, 3))
    assert after["seats"][3]["name"] == "Bob" and after["seats"][1]["name"] is None
    moved = _d(await service.change_seat(info["code"], host, 2))  # the host stays host
    assert moved["host"] == 2
    with pytest.raises(TableError) as err:
        await service.change_seat(info["code"], bob, 2)
    assert err.value.code == "seat_taken"


async def test_leaving_frees_the_seat_and_invalidates_the_token(service: TableService) -> None:
    info, _, _ = await _create(service, "T", 2, True, "Ann")
    _, bob, _ = await _join(service, info["code"], "Bob", 1)
    after = _d(await service.leave(info["code"], bob))
    assert after["seats"][1]["name"] is None
    with pytest.raises(TableError) as err:
        await service.leave(info["code"], bob)
    assert err.value.code == "unauthorized"


async def test_host_leaving_passes_host_to_lowest_seat(service: TableService) -> None:
    info, host, _ = await _create(service, "T", 3, True, "Ann")
    await _join(service, info["code"], "Bob", 2)
    after = _d(await service.leave(info["code"], host))
    assert after["host"] == 2


async def test_only_host_kicks_and_only_before_start(service: TableService) -> None:
    info, host, _ = await _create(service, "T", 2, True, "Ann")
    _, bob, _ = await _join(service, info["code"], "Bob", 1)
    with pytest.raises(TableError) as err:
        await service.kick(info["code"], bob, 0)
    assert err.value.code == "not_host"
    after = _d(await service.kick(info["code"], host, 1))
    assert after["seats"][1]["name"] is None
    with pytest.raises(TableError):
        await service.start(info["code"], bob)  # kicked token is dead


async def test_start_needs_the_host_and_every_seat_filled(service: TableService) -> None:
    info, host, _ = await _create(service, "T", 3, True, "Ann")
    _, bob, _ = await _join(service, info["code"], "Bob", 1)
    with pytest.raises(TableError) as err:
        await service.start(info["code"], host)
    assert err.value.code == "seats_not_filled"
    await _join(service, info["code"], "Cy", 2)
    with pytest.raises(TableError) as err:
        await service.start(info["code"], bob)
    assert err.value.code == "not_host"
    started = _d(await service.start(info["code"], host))
    assert started["status"] == "playing" and started["round"] == 1
    with pytest.raises(TableError) as err:
        await _join(service, info["code"], "Dee", 1)
    assert err.value.code in ("already_started", "seat_taken")


async def test_seats_are_fixed_once_the_match_starts(service: TableService) -> None:
    code, _, tokens = await seated(service, 2)
    for call in (
        service.change_seat(code, tokens[1], 0),
        service.kick(code, tokens[0], 1),
    ):
        with pytest.raises(TableError) as err:
            await call
        assert err.value.code in ("already_started", "seat_taken")
    # leaving a match in play hands the seat to a computer player (the seat
    # itself stays: tests/server/test_departures.py)
    info = await service.leave(code, tokens[1])
    assert info.status == "playing" and info.seats[1].bot == "medium"


@pytest.mark.parametrize("bad", ["x" * 25, 42, None])
async def test_display_names_are_validated(service: TableService, bad: str) -> None:
    with pytest.raises(TableError) as err:
        await _create(service, "T", 2, True, bad)
    assert err.value.code == "invalid_name"


@pytest.mark.parametrize("blank", ["", "   ", "\x00\x07", "\u202e", "...", "\u3164"])
async def test_a_name_showing_nothing_is_the_seats_default(
    service: TableService, blank: str
) -> None:
    info, _, _ = await _create(service, blank, 2, True, blank)
    assert info["seats"][0]["name"] == "Player 1" and info["name"] == "Player 1"


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("a\x00b", "ab"),
        ("tab\there", "tab here"),
        ("new\nline", "new line"),
        ("bell\x07", "bell"),
        ("rtl\u202eoverride", "rtloverride"),
    ],
)
async def test_control_characters_are_dropped_from_names(
    service: TableService, sent: str, stored: str
) -> None:
    info, _, _ = await _create(service, "T", 2, True, sent)
    assert info["seats"][0]["name"] == stored


async def test_names_are_stored_and_returned_as_plain_text(service: TableService) -> None:
    info, _, _ = await _create(service, "<i>t</i>", 2, True, "  <b>Ann</b> & co  ")
    assert info["seats"][0]["name"] == "<b>Ann</b> & co"
    assert _d(await service.info(info["code"]))["name"] == "<i>t</i>"


async def test_unknown_code_is_not_found(service: TableService) -> None:
    with pytest.raises(TableError) as err:
        await service.info("ZZZZZZ")
    assert err.value.code == "not_found" and err.value.status == 404


async def test_lobby_lists_public_tables_only(service: TableService) -> None:
    pub, _, _ = await _create(service, "Public", 2, True, "Ann")
    priv, _, _ = await _create(service, "Private", 2, False, "Ann")
    here = {await service.table_id(pub["code"]), await service.table_id(priv["code"])}
    service.reads.delivery = SetPresence(people=lambda: here)  # both hosts' pages are open
    codes = {t.code: t.model_dump() for t in await service.lobby()}
    assert pub["code"] in codes and priv["code"] not in codes
    assert codes[pub["code"]]["seats_taken"] == 1
    assert codes[pub["code"]]["status"] == "waiting"


async def test_deals_and_lots_use_the_os_csprng(service: TableService) -> None:
    from app.fairness import new_seed

    assert service.new_seed is new_seed  # R5, R7: secrets.token_bytes (docs/fairness.md)
    code, _, _ = await seated(service, 4)
    m, _ = await current_match(service, code)
    assert m.players == 4 and m.turn in range(4)


async def test_concurrent_joins_from_two_servers_are_both_decided_on_fresh_state(
    service: TableService, db_url: str
) -> None:
    import asyncio

    from .test_rounds import new_service

    other = new_service(db_url, 0)
    try:
        info, _, _ = await _create(service, "T", 4, True, "Ann")
        code = info["code"]
        seats = await asyncio.gather(_join(service, code, "Bob", 1), _join(other, code, "Cy", 2))
        assert sorted(s for _, _, s in seats) == [1, 2]  # different seats: both seated
        results = await asyncio.gather(
            _join(service, code, "Dee", 3), _join(other, code, "Eve", 3), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], TableError)
        assert errors[0].code == "seat_taken"
        final = _d(await service.info(code))
        assert [s["name"] is not None for s in final["seats"]] == [True] * 4
    finally:
        await other.close()


async def test_joining_a_closed_table_is_refused(service: TableService) -> None:
    info, host, _ = await _create(service, "T", 2, True, "Ann")
    closed = _d(await service.leave(info["code"], host))
    assert closed["status"] == "closed" and closed["host"] is None
    with pytest.raises(TableError) as err:
        await _join(service, info["code"], "Bob", 1)
    assert err.value.code == "table_closed"


@pytest.mark.parametrize("look_alike", ["ann", "Аnn", "A n n", "𝐀𝐧𝐧"])
async def test_a_name_that_looks_like_a_seated_players_is_refused(
    service: TableService, look_alike: str
) -> None:
    info, _, _ = await _create(service, "T", 3, True, "Ann")
    with pytest.raises(TableError) as err:
        await _join(service, info["code"], look_alike, 1)
    assert err.value.code == "name_taken" and err.value.status == 409
    _, _, seat = await _join(service, info["code"], "Anna", 1)  # different enough
    assert seat == 1
