"""Resign, replace and device links at the service level, on both backends
(docs/protocol.md, "Devices, leave, resign, replace"). Over real sockets and two
processes: tests/server/test_devices.py."""

from __future__ import annotations

import random

import pytest

from app.engine.views import legal_entries
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import current_match, greedy_choice, seated


async def _refused(code: str, status: int, action: object) -> None:
    with pytest.raises(TableError) as err:
        await action  # type: ignore[misc]
    assert (err.value.code, err.value.status) == (code, status)


async def test_resign_in_two_players_finishes_the_match_for_the_other(
    service: TableService,
) -> None:
    code, _, tokens = await seated(service, 2)
    info = await service.resign(code, tokens[1])
    assert info.status == "finished" and info.resigned == 1 and info.phase == "match_over"
    match, table = await current_match(service, code)
    assert match.over and match.winner == 0 and match.turn is None
    assert table.resigned == 1
    await _refused("match_not_in_play", 409, service.resign(code, tokens[0]))
    # a rematch starts match 2 and forgets the resignation
    await service.rematch(code, tokens[0])
    info = await service.rematch(code, tokens[1])
    assert info.status == "playing" and info.match == 2 and info.resigned is None


async def test_resign_in_three_players_goes_to_the_higher_of_the_others(
    service: TableService,
) -> None:
    code, _, tokens = await seated(service, 3)
    info = await service.resign(code, tokens[0])
    match, _ = await current_match(service, code)
    # no round settled yet: 0 = 0, the first seat clockwise after the resigner wins
    assert info.resigned == 0 and match.winner == 1


async def test_resign_in_a_partnership_game_is_refused(service: TableService) -> None:
    code, _, tokens = await seated(service, 4)
    await _refused("resign_partnership", 409, service.resign(code, tokens[2]))
    await _refused("match_not_in_play", 409, service.resign(*(await _waiting(service))))


async def _waiting(service: TableService) -> tuple[str, str]:
    code, _, tokens = await seated(service, 2, start=False)
    return code, tokens[0]


async def test_host_replaces_a_resigned_player_by_a_bot_between_matches(
    service: TableService,
) -> None:
    code, _, tokens = await seated(service, 2)
    await _refused("not_between_matches", 409, service.replace(code, tokens[0], 1, "bot", "easy"))
    await service.resign(code, tokens[1])
    await _refused("not_host", 403, service.replace(code, tokens[1], 0, "bot", "easy"))
    await _refused("bad_seat", 409, service.replace(code, tokens[0], 0, "bot", "easy"))
    await _refused("unknown_level", 400, service.replace(code, tokens[0], 1, "bot", "expert"))
    info = await service.replace(code, tokens[0], 1, "bot", None)  # FIVEUP_AUTOPILOT_LEVEL
    assert info.seats[1].bot == "medium" and info.seats[1].name == "Alan"
    assert info.rematch_votes == [1]  # the new computer player votes at once
    await _refused("unauthorized", 401, service.rematch(code, tokens[1]))  # replaced
    info = await service.rematch(code, tokens[0])
    assert info.status == "playing" and info.match == 2


async def test_host_frees_a_seat_by_invite_and_the_table_waits_for_a_join(
    service: TableService,
) -> None:
    code, _, tokens = await seated(service, 3)
    await service.resign(code, tokens[0])
    info = await service.replace(code, tokens[0], 2, "invite", None)
    assert info.status == "waiting" and info.seats[2].name is None and info.resigned is None
    # waiting again: the host seats a computer player the usual way, not by replace
    await _refused("not_between_matches", 409, service.replace(code, tokens[0], 1, "bot", None))
    joined = await service.join(code, "Newcomer", 2)
    assert joined.seat == 2
    info = await service.start(code, tokens[0])
    assert info.status == "playing" and info.match == 2


async def test_device_link_is_single_use_and_revokes_the_old_token(
    service: TableService,
) -> None:
    code, table_id, tokens = await seated(service, 2)
    link = await service.device_link(code, tokens[1], 1)
    assert link.seat == 1 and link.link.startswith(f"/t/{code}#seat=")
    credential = link.link.split("#seat=", 1)[1]
    joined = await service.claim(code, credential)
    assert joined.seat == 1 and joined.token not in tokens
    await _refused("unauthorized", 401, service.identify(code, tokens[1]))
    assert (await service.identify(code, joined.token)).seat == 1
    await _refused("link_used", 404, service.claim(code, credential))
    await _refused("link_used", 404, service.claim(code, "never-issued"))
    assert table_id


async def test_a_reissued_link_replaces_the_older_one_and_the_host_is_refused_unknown_presence(
    service: TableService,
) -> None:
    """Without a presence source (no hub) nobody is known to be gone: the host's link for
    another person's seat is ``seat_present``; the seat's own player may always ask."""
    code, _, tokens = await seated(service, 3)
    first = (await service.device_link(code, tokens[2], 2)).link.split("#seat=", 1)[1]
    await _refused("seat_present", 409, service.device_link(code, tokens[0], 2))
    second = (await service.device_link(code, tokens[2], 2)).link.split("#seat=", 1)[1]
    assert (await service.linked_seat(code, second)).model_dump() == {"seat": 2, "by": "seat"}
    await _refused("link_used", 404, service.linked_seat(code, first))
    await _refused("link_used", 404, service.claim(code, first))
    assert (await service.claim(code, second)).seat == 2
    await _refused("not_host", 403, service.device_link(code, tokens[1], 0))
    await _refused("bad_seat", 409, service.device_link(code, tokens[0], 3))


async def test_leave_during_a_match_hands_the_seat_to_a_bot(service: TableService) -> None:
    code, _, tokens = await seated(service, 4)
    info = await service.leave(code, tokens[0])  # the host leaves
    assert info.status == "playing" and info.seats[0].bot == "medium"
    assert info.seats[0].name == "Host" and info.host == 1
    await _refused("unauthorized", 401, service.identify(code, tokens[0]))
    await _refused("bad_seat", 409, service.device_link(code, tokens[1], 0))  # a bot now
    for token in tokens[1:3]:
        await service.leave(code, token)
    info = await service.leave(code, tokens[3])  # the last person: the table closes
    assert info.status == "closed" and info.host is None


async def test_a_move_made_before_a_device_link_was_issued_is_not_stale(
    service: TableService,
) -> None:
    code, table_id, tokens = await seated(service, 2)
    match, table = await current_match(service, code)
    seat = match.turn
    assert seat is not None
    move = greedy_choice(legal_entries(match, seat), random.Random(1))
    await service.device_link(code, tokens[1 - seat], 1 - seat)  # seq moves on by one
    result = await service.act(table_id, tokens[seat], move, "m-1", table.seq)
    assert result.seq == table.seq + 2 and not result.duplicate
