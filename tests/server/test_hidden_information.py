"""Hidden stays hidden (R5, R22): complete matches over real WebSockets against a real
uvicorn server, every seat and a spectator connected; every frame every recipient
received is checked by the oracle against the true state at that seq."""

from __future__ import annotations

import asyncio
import random
import uuid

import httpx
import pytest

from .helpers import greedy_choice
from .oracle import (
    check_frames,
    check_no_running_seed,
    hidden_from,
    running_seeds,
    seed_forms,
    tiles_named,
)
from .support import ServerProcess, WsClient, read_events, replay_states, seat_table


async def play_match_over_websockets(
    live: ServerProcess,
    http: httpx.AsyncClient,
    players: int,
    rng: random.Random,
    reconnect_every: int = 0,
    rematch: bool = False,
    chat_every: int = 0,
) -> tuple[str, list[tuple[WsClient, int | None]]]:
    """Play one match to its end with greedy bots; returns the code and every client
    (including closed ones, whose frames still count) with its recipient."""
    code, tokens = await seat_table(http, players)
    url = f"{live.ws}/ws/tables/{code}"
    seats = [await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)]
    spectator = await WsClient(url, "spectator").connect()
    everyone: list[tuple[WsClient, int | None]] = [(c, i) for i, c in enumerate(seats)]
    everyone.append((spectator, None))
    moves = 0
    while True:
        live_clients = [*seats, spectator]
        target = max(c.last_seq for c in live_clients)
        for c in live_clients:
            await c.wait_for(lambda c, t=target: c.last_seq >= t)
        view = spectator.view
        assert view is not None
        if view["phase"] == "match_over":
            break
        assert view["phase"] == "playing"  # FIVEUP_NEXT_ROUND_SECONDS=0: dealt at once
        mover = seats[view["turn"]]
        assert mover.view is not None and mover.view["legal"], "seat to move has no legal move"
        assert all(c.view["legal"] == [] for c in seats if c is not mover)  # type: ignore[index]
        move = greedy_choice(mover.view["legal"], rng)
        reply = await mover.request(
            {"type": "move", "move": move, "move_id": uuid.uuid4().hex, "seq": mover.last_seq},
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply
        moves += 1
        if chat_every and moves % chat_every == 0:  # chat in the mix: seats and a spectator
            await mover.send({"type": "chat", "text": f"nice one, move {moves}"})
            await spectator.send({"type": "chat", "quick": "well_played"})
        if reconnect_every and moves % reconnect_every == 0:
            # a seat drops and comes back (another tab/device, same token): resync
            i = rng.randrange(players)
            old = seats[i]
            await old.close()
            fresh = await WsClient(f"{url}?token={tokens[i]}", f"seat{i}-r{moves}").connect()
            reply = await fresh.request(
                {"type": "resync", "last_seq": max(0, old.last_seq - 7)}, ("snapshot",)
            )
            assert [e["seq"] for e in reply["events"]] == list(
                range(max(0, old.last_seq - 7) + 1, reply["seq"] + 1)
            )
            seats[i] = fresh
            everyone.append((fresh, i))
    await check_history(http, code, tokens)
    if rematch:  # every seat agrees over the socket: match 2 starts at the same table
        for i, c in enumerate(seats):
            await c.send({"type": "rematch"})
            if i < players - 1:
                await spectator.wait_for(lambda s, n=i + 1: len(s.table["rematch_votes"]) == n)  # type: ignore[index]
        await spectator.wait_for(
            lambda s: s.frames[-1].get("event", {}).get("type") == "rematch_started"
        )
        assert spectator.view["phase"] == "playing" and spectator.table["match"] == 2  # type: ignore[index]
        assert set(spectator.view["scores"]) == {0}  # type: ignore[index]
        target = spectator.last_seq
        for c in seats:
            await c.wait_for(lambda c: c.last_seq >= target)
            assert len(c.view["hand"]) == 5  # type: ignore[index]
    for c in [*seats, spectator]:
        await c.close()
    return code, everyone


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_no_frame_ever_names_a_tile_its_recipient_may_not_know(
    live: ServerProcess, http: httpx.AsyncClient, players: int
) -> None:
    rng = random.Random(players)
    results = await asyncio.gather(
        *(
            play_match_over_websockets(
                live, http, players, rng, reconnect_every=25 * k, rematch=k == 1, chat_every=k * 4
            )
            for k in range(3)
        )
    )
    for code, clients in results:
        events = read_events(live.database_url, code)
        states = replay_states(events)
        assert list(states) == list(range(1, len(states) + 1))  # gapless log
        assert any(s and s["over"] for s in states.values())  # a match was played out
        total = seed_checks = 0
        secrets = running_seeds(events, code)  # the deal's seed is hidden information too
        assert secrets and all(revealed < 10**9 for _, revealed, _, _ in secrets[:-1])
        for client, recipient in clients:
            total += check_frames(client.frames, recipient, states, client.label)
            # (a client that reconnected after the match's last round was revealed saw
            # no running round: the check is counted over the table's clients)
            seed_checks += check_no_running_seed(client.frames, secrets, client.label)
        assert total > 0 and seed_checks > 0
        # the oracle is not vacuous: mid-round, others' hands and the stock are hidden
        mid = next(
            s for s in states.values() if s and s["round"]["result"] is None and s["round"]["stock"]
        )
        assert hidden_from(mid, None) >= set(mid["round"]["stock"])


async def check_history(http: httpx.AsyncClient, code: str, tokens: list[str]) -> None:
    """History after the match, per recipient: another seat's draw is never shown, and a
    tile left in a round's stock (never drawn, never revealed) never appears in it."""
    every = {f"{a}|{b}" for a in range(7) for b in range(a, 7)}
    for recipient in [*range(len(tokens)), None]:
        headers = {} if recipient is None else {"Authorization": f"Bearer {tokens[recipient]}"}
        history = (await http.get(f"/api/tables/{code}/history", headers=headers)).json()
        assert history["you"] == recipient and history["rounds"]
        for record in history["rounds"]:
            settlement = record["settlement"]
            assert settlement is not None  # the match is over: every round is settled
            placed = {mv["tile"] for mv in record["moves"] if mv["kind"] in ("open", "place")}
            revealed = {t for hand in settlement["hands"] for t in hand}
            never_seen = every - placed - revealed
            assert not tiles_named(record) & never_seen, (recipient, record["round"])
            for mv in record["moves"]:
                if mv["kind"] == "draw" and mv["seat"] != recipient:
                    assert mv["drawn"] is None


def test_oracle_catches_a_running_rounds_seed_in_any_form() -> None:
    """A frame naming a running round's seed (or a block of its stream) is caught; the
    same frame after the round's ``revealed`` event is not (guards the oracle itself)."""
    seed = bytes(range(32)).hex()
    forms = seed_forms(seed, "ABC123", 1, 1)
    secrets = [(1, 5, forms, seed)]
    for leak in forms:
        frames = [{"type": "event", "seq": 2, "event": {"type": "x", "note": f"a{leak}b"}}]
        with pytest.raises(AssertionError, match="leaks a running round's seed"):
            check_no_running_seed(frames, secrets, "spectator")
    after = [{"type": "event", "seq": 5, "event": {"type": "revealed", "seed": seed}}]
    assert check_no_running_seed(after, secrets, "spectator") == 0


def test_oracle_extracts_tiles_from_any_string() -> None:
    frame = {"a": ["x 1|4@4|4:lineB", {"3|2": "R18: you drew 0|5"}], "n": 12}
    assert tiles_named(frame) == {"1|4", "4|4", "2|3", "0|5"}


def test_oracle_catches_an_unprojected_frame() -> None:
    """Sending seat 0's view to seat 1 must be caught (guards the oracle itself)."""
    from app.engine import Match, view_for

    m = Match.new(2, random.Random(11))
    state = m.to_dict()
    leaky = [{"type": "snapshot", "seq": 1, "view": view_for(m, 0), "events": []}]
    check_frames(leaky, 0, {1: state}, "seat0")  # its own view is fine
    with pytest.raises(AssertionError, match="unknown to recipient 1"):
        check_frames(leaky, 1, {1: state}, "seat1")
