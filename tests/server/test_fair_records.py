"""The provably fair deal and match records, wired into the server (docs/fairness.md,
docs/record.md, docs/protocol.md): whole matches over real WebSockets against a real
uvicorn server on PostgreSQL, and the table service on PostgreSQL and SQLite.

- every recipient's first frame of each round carries that round's commitment (R5);
- a round's seed is revealed once the round is settled (R22), and it verifies the round;
- records come from the stored events, hold finished rounds only, and round-trip:
  export → check (valid) → ``fiveup record import`` → export gives the same text;
- a tampered stock order is reported by ``fiveup record check`` at its line (R18), and
  such a record is not imported;
- no seed, in any form, reaches a log line.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.fairness import DealIds, verify_round
from app.records import check, parse_text, to_data, write_text
from app.schemas import MatchRecord
from app.tables.service import TableService

from .helpers import play_random_move, seated
from .oracle import running_seeds
from .support import REPO, ServerProcess, WsClient, apply_patch, read_events, seat_table
from .test_hidden_information import play_match_over_websockets


def fiveup(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``fiveup`` command as a user runs it, on ``database_url``."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO,
        env=dict(os.environ, DATABASE_URL=database_url),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _round_of(table: dict[str, Any] | None) -> tuple[int, int] | None:
    if table is None or table.get("round") is None:
        return None
    return table["match"], table["round"]


def first_frames_of_rounds(client: WsClient) -> list[tuple[tuple[int, int], dict[str, Any]]]:
    """Each round this client saw, with the first frame that told it of that round."""
    table: dict[str, Any] | None = None
    seen: list[tuple[tuple[int, int], dict[str, Any]]] = []
    for frame in client.frames:
        if frame["type"] == "snapshot":
            table = frame["table"]
        elif frame["type"] == "event" and "table_patch" in frame:
            assert table is not None
            table = apply_patch(table, frame["table_patch"])
        else:
            continue
        now = _round_of(table)
        if now is not None and (not seen or seen[-1][0] != now):
            seen.append((now, frame))
    return seen


def stored_commitments(events: dict[int, dict[str, Any]]) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    match_no = 0
    for seq in sorted(events):
        p = events[seq]["payload"]
        if p.get("type") in ("started", "rematch_started"):
            match_no = p["match"]
        if p.get("type") in ("started", "round_started", "rematch_started"):
            out[match_no, p["round"]] = p["commitment"]
    return out


async def test_the_commitment_is_in_the_first_frame_every_recipient_gets_for_each_round(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, clients = await play_match_over_websockets(
        live, http, 2, random.Random(21), reconnect_every=9, rematch=True
    )
    commitments = stored_commitments(read_events(live.database_url, code))
    assert len(commitments) >= 3  # match 1 took rounds; the rematch dealt match 2
    for client, _ in clients:
        firsts = first_frames_of_rounds(client)
        assert firsts, client.label
        for (match_no, rnd), frame in firsts:
            published = commitments[match_no, rnd]
            if frame["type"] == "snapshot":
                assert frame["table"]["commitment"] == published, (client.label, rnd)
            else:  # the deal event itself: in the event and in the table patch
                assert frame["event"]["commitment"] == published, (client.label, rnd)
                assert frame["table_patch"]["set"]["commitment"] == published


async def test_the_seed_is_revealed_once_the_round_is_settled_and_verifies_it(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, clients = await play_match_over_websockets(live, http, 3, random.Random(5))
    events = read_events(live.database_url, code)
    secrets = running_seeds(events, code)
    spectator = next(c for c, r in clients if r is None)
    revealed = [
        f["event"]
        for f in spectator.frames
        if f["type"] == "event" and f["event"]["type"] == "revealed"
    ]
    assert [r["seed"] for r in revealed] == [s[3] for s in secrets]  # every round, in order
    history = (await http.get(f"/api/tables/{code}/history")).json()["rounds"]
    assert len(history) == len(revealed)
    previous = None
    for event, rnd in zip(revealed, history, strict=True):
        seed = bytes.fromhex(event["seed"])
        ids = DealIds(code, event["match"], event["round"])
        assert (
            hashlib.sha256(
                f"fiveup-commit/v1|{code}|{ids.match}|{ids.round}|{event['seed']}".encode()
            ).hexdigest()
            == event["commitment"]
        )
        assert (rnd["commitment"], rnd["seed"]) == (event["commitment"], event["seed"])
        verdict = verify_round(seed, event["commitment"], ids, 3, rnd, previous)
        assert verdict.ok, verdict.reason
        previous = rnd["settlement"]


async def test_a_running_round_is_in_no_record_and_no_history_seed(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 2)
    events = read_events(live.database_url, code)
    running = running_seeds(events, code)[-1][3]
    text = await http.get(f"/api/tables/{code}/record.txt")
    data = await http.get(f"/api/tables/{code}/record.json")
    history = await http.get(
        f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert text.status_code == data.status_code == history.status_code == 200
    assert "\nround " not in text.text and data.json()["rounds"] == []
    assert check(parse_text(text.text)).ok
    assert history.json()["rounds"][0]["seed"] is None
    assert history.json()["rounds"][0]["commitment"] == stored_commitments(events)[1, 1]
    for body in (text.text, data.text, history.text):
        assert running not in body
    missing = await http.get("/api/tables/ZZZZZZ/record.txt")
    assert missing.status_code == 404


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_records_of_matches_played_over_the_server_round_trip_through_import(
    live: ServerProcess, http: httpx.AsyncClient, players: int, tmp_path: Path
) -> None:
    code, _ = await play_match_over_websockets(live, http, players, random.Random(players + 40))
    exported = (await http.get(f"/api/tables/{code}/record.txt")).text
    result = check(parse_text(exported))
    assert result.ok, str(result)
    record = parse_text(exported)
    assert record.winner is not None and all(r.seed for r in record.rounds)
    as_json = (await http.get(f"/api/tables/{code}/record.json")).json()
    MatchRecord.model_validate(as_json)
    assert as_json == to_data(record)

    path = tmp_path / "match.txt"
    path.write_text(exported, encoding="utf-8")
    done = fiveup(live.database_url, "record", "import", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    imported = done.stdout.split("imported as table ")[1].split(":")[0]
    assert imported != code
    again = await http.get(f"/api/tables/{imported}/record.txt")
    assert again.status_code == 200 and again.text == exported
    info = (await http.get(f"/api/tables/{imported}")).json()
    assert info["status"] == "finished" and info["public"] is False


async def test_a_tampered_stock_order_is_reported_by_the_cli_at_its_line(
    live: ServerProcess, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    code, _ = await play_match_over_websockets(live, http, 2, random.Random(77))
    lines = (await http.get(f"/api/tables/{code}/record.txt")).text.split("\n")
    at = next(i for i, s in enumerate(lines) if s.startswith("stock "))
    stock = lines[at].split()[1:]
    stock[0], stock[-1] = stock[-1], stock[0]  # another order, the same tiles
    lines[at] = "stock " + " ".join(stock)
    path = tmp_path / "tampered.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    for action in ("check", "import"):
        done = fiveup(live.database_url, "record", action, str(path))
        assert done.returncode == 1, done.stdout
        assert done.stdout.startswith(f"line {at + 1}: "), done.stdout


async def test_import_and_export_agree_on_both_stores(service: TableService) -> None:
    """The service on PostgreSQL and on SQLite: a match played through it, exported,
    imported, exported again."""
    code, tid, tokens = await seated(service, 2)
    rng = random.Random(8)
    for _ in range(400):
        if (await service.info(code)).round == 3:
            break
        await play_random_move(service, code, tid, tokens, rng)
    record = await service.record(code)
    assert [r.number for r in record.rounds] == [1, 2]  # round 3 runs: not in it
    text = write_text(record)
    loaded = await service.store.load(tid)
    assert loaded is not None and loaded[0].deal_seed is not None
    running = loaded[0].deal_seed  # round 3's seed: in neither form of the record
    assert running not in text and running not in to_data(record).__repr__()
    assert loaded[0].commitment not in text  # nor its commitment: round 3 is not there
    assert check(parse_text(text)).ok
    imported = await service.import_record(parse_text(text))
    assert write_text(await service.record(imported)) == text
    assert (await service.info(imported)).commitment == record.rounds[-1].commitment


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_long_random_records_import_and_export_the_same_text(
    service: TableService, players: int
) -> None:
    """Whole matches by a random player (dozens of rounds, match number 0, quotes, a
    bar and Cyrillic in the names) through import and export, on both stores."""
    from records.matches import recorded_match

    _, record = recorded_match(players, 0)
    text = write_text(record)
    code = await service.import_record(parse_text(text))
    assert write_text(await service.record(code)) == text
    info = await service.info(code)
    assert info.status == "finished" and info.round == len(record.rounds)


async def test_an_invalid_record_is_not_imported(service: TableService) -> None:
    from records.matches import recorded_match

    from app.tables.errors import TableError

    _, record = recorded_match(2, 1)
    lines = write_text(record).split("\n")
    at = next(i for i, s in enumerate(lines) if s.startswith("stock "))
    stock = lines[at].split()[1:]
    lines[at] = "stock " + " ".join([stock[-1], *stock[1:-1], stock[0]])
    with pytest.raises(TableError) as err:
        await service.import_record(parse_text("\n".join(lines)))
    assert err.value.code == "invalid_record" and err.value.message.startswith(f"line {at + 1}:")


async def test_no_seed_reaches_a_log_line(pg_url: str) -> None:
    """A server logging at DEBUG plays a whole match over WebSockets: none of its rounds'
    seeds, in any form, is in its log (docs/fairness.md)."""
    server = ServerProcess(pg_url, FIVEUP_LOG_LEVEL="DEBUG").start()
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as client:
            code, _ = await play_match_over_websockets(server, client, 2, random.Random(3))
    finally:
        server.stop()
    log = server.log_text()
    assert code in log or "committed" in log  # the log really was written
    secrets = running_seeds(read_events(pg_url, code), code)
    assert secrets
    for _, _, forms, _ in secrets:
        assert not any(form in log for form in forms)
