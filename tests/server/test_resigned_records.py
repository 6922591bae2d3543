"""A resigned match over the real server (docs/record.md, docs/fairness.md): the round in
play becomes public at the resignation — its seed in a ``revealed`` event after the
``resigned`` one — and never before; the record served over HTTP says the winner, the
termination and holds that round; it imports and exports again the same."""

from __future__ import annotations

import random
import uuid
from pathlib import Path

import httpx

from app.records import check, parse_text, to_data

from .helpers import greedy_choice
from .oracle import running_seeds, seed_forms
from .support import ServerProcess, WsClient, read_events, seat_table
from .test_fair_records import fiveup


async def _play(seats: list[WsClient], spectator: WsClient, moves: int, rng: random.Random) -> None:
    """``moves`` greedy moves by whoever is to move (rounds dealt at once, R23)."""
    for _ in range(moves):
        target = max(c.last_seq for c in [*seats, spectator])
        for c in [*seats, spectator]:
            await c.wait_for(lambda c, t=target: c.last_seq >= t)
        view = spectator.view
        assert view is not None and view["phase"] == "playing", view
        mover = seats[view["turn"]]
        assert mover.view is not None
        reply = await mover.request(
            {
                "type": "move",
                "move": greedy_choice(mover.view["legal"], rng),
                "move_id": uuid.uuid4().hex,
                "seq": mover.last_seq,
            },
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply


async def test_a_resigned_match_record_says_the_winner_and_holds_the_round_in_play(
    live: ServerProcess, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    code, tokens = await seat_table(http, 3)
    url = f"{live.ws}/ws/tables/{code}"
    seats = [await WsClient(f"{url}?token={t}", f"seat{i}").connect() for i, t in enumerate(tokens)]
    spectator = await WsClient(url, "spectator").connect()
    rng = random.Random(32)
    await _play(seats, spectator, 14, rng)
    events = read_events(live.database_url, code)
    deal_seq, reveal_seq, _, seed = running_seeds(events, code)[-1]
    assert reveal_seq == 10**9  # the round is in play: its seed is unrevealed
    in_play = events[deal_seq]["payload"]["round"]
    forms = seed_forms(seed, code, 1, in_play)

    # before the resignation: nothing of the round's seed anywhere, and no such round
    before = [
        (await http.get(f"/api/tables/{code}/record.txt")).text,
        (await http.get(f"/api/tables/{code}/record.json")).text,
        *[
            (
                await http.get(
                    f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {t}"}
                )
            ).text
            for t in tokens
        ],
    ]
    assert f"\nround {in_play}\n" not in before[0] and "Termination" not in before[0]
    sent = [str(f) for c in [*seats, spectator] for f in c.frames]
    assert not any(form in body for form in forms for body in before + sent)

    resigner = 2
    r = await http.post(
        f"/api/tables/{code}/resign", headers={"Authorization": f"Bearer {tokens[resigner]}"}
    )
    assert r.status_code == 200, r.text
    await spectator.wait_for(
        lambda c: any(
            f["type"] == "event" and f["event"]["type"] == "revealed" and f["event"]["seed"] == seed
            for f in c.frames
        )
    )
    kinds = [f["event"]["type"] for f in spectator.frames if f["type"] == "event"]
    assert kinds[-2:] == ["resigned", "revealed"]
    winner = next(
        f["event"]["winner"]
        for f in spectator.frames
        if f["type"] == "event" and f["event"]["type"] == "resigned"
    )

    history = await http.get(
        f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert history.json()["rounds"][-1]["seed"] == seed  # public now, as a settled round's

    text = (await http.get(f"/api/tables/{code}/record.txt")).text
    record = parse_text(text)
    assert f'[Result "{winner}"]' in text and f'[Termination "resigned {resigner}"]' in text
    last = record.rounds[-1]
    assert (last.number, last.seed, last.resigned) == (in_play, seed, resigner)
    assert text.endswith(f"\nresigned {resigner}\n")
    assert str(check(record)) == "valid"
    as_json = (await http.get(f"/api/tables/{code}/record.json")).json()
    assert as_json == to_data(record) and as_json["resigned"] == resigner

    path = tmp_path / "resigned.txt"
    path.write_text(text, encoding="utf-8")
    done = fiveup(live.database_url, "record", "import", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    imported = done.stdout.split("imported as table ")[1].split(":")[0]
    again = await http.get(f"/api/tables/{imported}/record.txt")
    assert again.status_code == 200 and again.text == text
    info = (await http.get(f"/api/tables/{imported}")).json()
    assert info["status"] == "finished" and info["resigned"] == resigner
    for c in [*seats, spectator]:
        await c.close()
