"""Finished matches and ratings, on PostgreSQL and on SQLite: every finished match's
result is written in the transaction of the move that ends it; a rated table's match
moves its players' ratings exactly as openskill computes them (two and three players as
individuals, four as the two partnerships, R2), once — a repeated write, a second
process playing the same last move, a rematch's second result; guests cannot sit at a
rated table; a seat that lost its profile makes the match unrated (docs/ratings.md)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.core.settings import Settings
from app.db.pg_store import PgStore
from app.db.profile_store import make_profile_store
from app.db.result_rows import MatchResult
from app.db.rows import Change, EventRecord
from app.engine import Match
from app.engine.views import legal_entries
from app.main import make_store
from app.ratings import CALIBRATED
from app.tables.errors import TableError
from app.tables.results import match_result
from app.tables.service import TableService

from .helpers import current_match, greedy_choice, play_random_move
from .rating_support import (
    MODEL,
    bind,
    figures_counted,
    figures_kept,
    new_profiles,
    pairs_counted,
    pairs_kept,
    query,
    rating,
    results_of,
    seats_of,
)


async def _rated_table(
    svc: TableService, db_url: str, players: int, *, start: bool = True
) -> tuple[str, int, list[str], list[int]]:
    """A rated table with a profile bound to every seat: (code, id, tokens, profiles)."""
    profiles = await new_profiles(db_url, players)
    created = await svc.create("Rated", players, True, "Host", rated=True)
    tokens = [created.token]
    for seat in range(1, players):
        tokens.append((await svc.join(created.code, f"P{seat}", seat, signed_in=True)).token)
    table_id = await svc.table_id(created.code)
    for seat, (profile, token) in enumerate(zip(profiles, tokens, strict=True)):
        await bind(db_url, profile, table_id, seat, token)
    if start:
        await svc.start(created.code, tokens[0])
    return created.code, table_id, tokens, profiles


async def _play_to_the_end(svc: TableService, code: str, tid: int, tokens: list[str]) -> Match:
    rng = random.Random(7)
    for _ in range(5000):
        m, _ = await current_match(svc, code)
        if m.over:
            return m
        await play_random_move(svc, code, tid, tokens, rng)
    raise AssertionError("the match did not end")


def _expected(ratings: list[list[Any]], ranks: list[int]) -> list[list[Any]]:
    return MODEL.rate(ratings, ranks=ranks)  # type: ignore[no-any-return]


def _ranks(m: Match) -> list[int]:
    """R24's winner first, the others by score (higher first, ties share)."""
    assert m.winner is not None
    key = [(s != m.winner, -m.scores[s]) for s in range(m.side_count)]
    return [1 + sum(1 for o in key if o < k) for k in key]


@pytest.mark.parametrize("players", [2, 3])
async def test_a_rated_match_played_to_the_end_moves_each_rating_as_openskill_does(
    service: TableService, db_url: str, players: int
) -> None:
    code, tid, tokens, profiles = await _rated_table(service, db_url, players)
    m = await _play_to_the_end(service, code, tid, tokens)

    [(match_id, number, n, rated, rounds, winner, resigned)] = results_of(db_url, code)
    assert (number, n, bool(rated), rounds, winner, resigned) == (
        1,
        players,
        True,
        len(m.history),
        m.winner,
        None,
    )
    new = [[MODEL.rating()] for _ in range(players)]
    expected = _expected(new, _ranks(m))
    seats = seats_of(db_url, match_id)
    for seat, row in enumerate(seats):
        want = expected[seat][0]
        assert row["profile_id"] == profiles[seat] and row["bot_level"] is None
        assert bool(row["won"]) == (seat == m.winner) and row["score"] == m.scores[seat]
        assert row["mu_before"] == pytest.approx(25.0) and row["sigma_before"] == pytest.approx(
            25 / 3
        )
        assert row["mu_after"] == pytest.approx(want.mu)
        assert row["sigma_after"] == pytest.approx(want.sigma)
        for pool in ("all", str(players)):
            mu, sigma, matches = rating(db_url, pool, profile=profiles[seat])
            assert (mu, sigma, matches) == (pytest.approx(want.mu), pytest.approx(want.sigma), 1)
        assert rating(db_url, "4", profile=profiles[seat]) is None
    # each seat's figures are the match's own (R15 points ÷ 5, R21 dominoes, R22 hands)
    for seat, row in enumerate(seats):
        per_round = [sum(int(e[2]) // 5 for e in r["log"] if e[0] == seat) for r in m.history]
        assert row["points_made"] == sum(per_round) and row["best_round"] == max(per_round)
        assert row["deductions"] == sum(r["settlement"]["deductions"][seat] for r in m.history)
        assert row["rounds_dominoed"] == sum(
            1
            for r in m.history
            if r["settlement"]["result"] == "domino" and r["settlement"]["finisher"] == seat
        )


async def test_four_players_are_rated_as_two_partnerships(
    service: TableService, db_url: str
) -> None:
    code, tid, tokens, profiles = await _rated_table(service, db_url, 4)
    m = await _play_to_the_end(service, code, tid, tokens)
    assert m.winner is not None
    teams = [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]]
    expected = _expected(teams, [1, 2] if m.winner == 0 else [2, 1])
    [(match_id, *_)] = results_of(db_url, code)
    for row in seats_of(db_url, match_id):
        seat = row["seat"]
        want = expected[seat % 2][seat // 2]  # R2: seats 0+2 and 1+3
        assert row["side"] == seat % 2 and bool(row["won"]) == (seat % 2 == m.winner)
        assert row["mu_after"] == pytest.approx(want.mu)
        mu, sigma, matches = rating(db_url, "4", profile=profiles[seat])
        assert (mu, sigma, matches) == (pytest.approx(want.mu), pytest.approx(want.sigma), 1)


async def test_a_computer_player_is_rated_by_its_level_and_a_resignation_ranks_last(
    service: TableService, db_url: str
) -> None:
    before = rating(db_url, "all", bot="hard")
    (profile,) = await new_profiles(db_url, 1)
    created = await service.create("Rated", 2, True, "Host", rated=True)
    tid = await service.table_id(created.code)
    await bind(db_url, profile, tid, 0, created.token)
    await service.put_bot(created.code, created.token, 1, "hard")
    await service.start(created.code, created.token)
    await service.resign(created.code, created.token)

    [(match_id, *_, winner, resigned)] = results_of(db_url, created.code)
    assert (winner, resigned) == (1, 0)
    start = CALIBRATED["hard"]  # a level's first rated match starts from its calibration
    old_bot = (
        MODEL.rating(mu=start.mu, sigma=start.sigma)
        if before is None
        else MODEL.rating(mu=before[0], sigma=before[1])
    )
    [[person], [bot]] = _expected([[MODEL.rating()], [old_bot]], [2, 1])
    seats = seats_of(db_url, match_id)
    assert seats[1]["bot_level"] == "hard" and seats[1]["profile_id"] is None
    assert seats[0]["mu_after"] == pytest.approx(person.mu) and person.mu < 25
    mu, sigma, matches = rating(db_url, "all", bot="hard")
    assert (mu, sigma) == (pytest.approx(bot.mu), pytest.approx(bot.sigma))
    assert matches == (0 if before is None else before[2]) + 1


async def test_three_players_rank_a_resigned_seat_last(service: TableService, db_url: str) -> None:
    code, _, tokens, profiles = await _rated_table(service, db_url, 3)
    await service.resign(code, tokens[1])
    m, _ = await current_match(service, code)
    assert m.winner is not None and m.winner != 1
    ranks = [1 if s == m.winner else 3 if s == 1 else 2 for s in range(3)]
    expected = _expected([[MODEL.rating()] for _ in range(3)], ranks)
    for seat in range(3):
        mu, _, _ = rating(db_url, "3", profile=profiles[seat])
        assert mu == pytest.approx(expected[seat][0].mu)


async def test_a_rematch_rates_its_second_match_from_the_first_ones_ratings(
    service: TableService, db_url: str
) -> None:
    code, _, tokens, profiles = await _rated_table(service, db_url, 2)
    await service.resign(code, tokens[0])
    first = [rating(db_url, "all", profile=p) for p in profiles]
    await service.rematch(code, tokens[0])
    await service.rematch(code, tokens[1])
    await service.resign(code, tokens[1])
    assert [r[1] for r in results_of(db_url, code)] == [1, 2]
    a = MODEL.rating(mu=first[0][0], sigma=first[0][1])
    b = MODEL.rating(mu=first[1][0], sigma=first[1][1])
    [[a2], [b2]] = _expected([[a], [b]], [1, 2])
    assert rating(db_url, "all", profile=profiles[0])[:2] == (
        pytest.approx(a2.mu),
        pytest.approx(a2.sigma),
    )
    assert rating(db_url, "all", profile=profiles[1]) == (
        pytest.approx(b2.mu),
        pytest.approx(b2.sigma),
        2,
    )


async def test_a_guest_cannot_take_or_claim_a_seat_at_a_rated_table(
    service: TableService, db_url: str
) -> None:
    created = await service.create("Rated", 2, True, "Host", rated=True)
    assert created.table.rated is True
    with pytest.raises(TableError) as err:
        await service.join(created.code, "Guest", 1)
    assert (err.value.code, err.value.status) == ("profile_required", 403)
    joined = await service.join(created.code, "Bea", 1, signed_in=True)
    link = await service.device_link(created.code, joined.token, 1)
    with pytest.raises(TableError) as err:
        await service.claim(created.code, link.link)
    assert err.value.code == "profile_required"
    # an unrated table is for everyone, as before
    plain = await service.create("Plain", 2, True, "Host")
    assert plain.table.rated is False
    assert (await service.join(plain.code, "Guest", 1)).seat == 1


async def test_an_unrated_match_is_recorded_with_its_figures_and_no_rating(
    service: TableService, db_url: str
) -> None:
    created = await service.create("Plain", 2, True, "Ann")
    joined = await service.join(created.code, "Bea", 1)
    await service.start(created.code, created.token)
    await service.resign(created.code, joined.token)
    [(match_id, _, _, rated, *_)] = results_of(db_url, created.code)
    seats = seats_of(db_url, match_id)
    assert not rated and [s["name"] for s in seats] == ["Ann", "Bea"]
    assert [bool(s["won"]) for s in seats] == [True, False]
    assert all(s["profile_id"] is None and s["mu_after"] is None for s in seats)


async def test_a_rated_seat_that_lost_its_profile_leaves_the_match_unrated(
    service: TableService, db_url: str
) -> None:
    code, tid, tokens, profiles = await _rated_table(service, db_url, 2)
    query(db_url, "DELETE FROM profile_seats WHERE table_id = ? AND seat = 1", tid)
    await service.resign(code, tokens[0])
    [(match_id, _, _, rated, *_)] = results_of(db_url, code)
    assert rated  # chosen at creation
    seats = seats_of(db_url, match_id)
    assert seats[0]["profile_id"] == profiles[0] and seats[1]["profile_id"] is None
    assert all(s["mu_after"] is None for s in seats)
    kept = rating(db_url, "all", profile=profiles[0])  # none moved (a row may wait at 0)
    assert kept is None or (kept[2] == 0 and kept[0] == pytest.approx(25.0))


async def test_a_result_written_again_changes_nothing(service: TableService, db_url: str) -> None:
    """The result's unique key: a later change carrying the same result (as a retried or
    replayed write would) writes no second row and moves no rating again."""
    code, tid, tokens, profiles = await _rated_table(service, db_url, 2)
    await service.resign(code, tokens[1])
    once = [rating(db_url, "all", profile=p) for p in profiles]
    loaded = await service.store.load(tid)
    assert loaded is not None
    table, players = loaded
    m = table.match()
    assert m is not None
    result: MatchResult = match_result(table, players, m)
    table.seq += 1
    again = Change(
        table,
        table.version,
        [EventRecord(seq=table.seq, kind="chat", payload={"type": "chat", "text": "gg"})],
        result=result,
    )
    kept = figures_kept(db_url, profiles), pairs_kept(db_url, profiles)
    assert await service.store.write(again)
    assert len(results_of(db_url, code)) == 1
    assert [rating(db_url, "all", profile=p) for p in profiles] == once
    assert (figures_kept(db_url, profiles), pairs_kept(db_url, profiles)) == kept


async def test_two_processes_playing_the_same_last_move_rate_the_match_once(
    pg_url: str,
) -> None:
    """Two table services on one PostgreSQL database (as two processes), both sending
    the move that ends the match from the same state: one commits, the other is
    refused, and the ratings move once."""
    one = TableService(make_store(Settings(database_url=pg_url)), next_round_seconds=0)
    two = TableService(make_store(Settings(database_url=pg_url)), next_round_seconds=0)
    try:
        code, tid, tokens, profiles = await _rated_table(one, pg_url, 2)
        rng = random.Random(3)
        for _ in range(5000):
            m, table = await current_match(one, code)
            seat = m.turn
            assert seat is not None and not m.over
            legal = legal_entries(m, seat)
            ending = [e["move"] for e in legal if _ends(m, seat, e["move"])]
            if ending:
                break
            await one.act(tid, tokens[seat], greedy_choice(legal, rng), seq=table.seq)
        else:
            raise AssertionError("no last move found")
        await two.info(code)  # the second process has read the table too
        answers = await asyncio.gather(
            one.act(tid, tokens[seat], ending[0], seq=table.seq, move_id="last-a"),
            two.act(tid, tokens[seat], ending[0], seq=table.seq, move_id="last-b"),
            return_exceptions=True,
        )
        refused = [a for a in answers if isinstance(a, TableError)]
        assert len(refused) == 1 and len(answers) == 2, answers
        assert len(results_of(pg_url, code)) == 1
        for p in profiles:
            assert rating(pg_url, "all", profile=p)[2] == 1
    finally:
        await one.close()
        await two.close()
    assert isinstance(one.store, PgStore)


def _ends(m: Match, seat: int, move: str) -> bool:
    copy = m.copy()
    copy.play(seat, move)
    return copy.over


async def test_deleting_a_profile_withdraws_its_ratings_and_anonymises_its_matches(
    service: TableService, db_url: str
) -> None:
    code, _, tokens, profiles = await _rated_table(service, db_url, 2)
    await service.resign(code, tokens[0])
    store = make_profile_store(db_url)
    try:
        assert await store.delete_profile(profiles[1])
    finally:
        await store.close()
    [(match_id, *_)] = results_of(db_url, code)
    gone, kept = seats_of(db_url, match_id)[1], seats_of(db_url, match_id)[0]
    assert (gone["profile_id"], gone["name"]) == (None, "deleted player")
    assert bool(gone["won"]) and gone["mu_after"] is not None  # the game stays as played
    assert kept["profile_id"] == profiles[0] and kept["name"] == "Host"
    assert rating(db_url, "all", profile=profiles[1]) is None
    assert rating(db_url, "all", profile=profiles[0]) is not None


async def test_the_players_running_totals_are_their_finished_matches_counted_afresh(
    service: TableService, db_url: str
) -> None:
    """The figures and pairings each match's end adds to (player_figures, player_pairs)
    equal the same counted afresh over every finished match's seats: a four-player
    match played to the end (partners and opponents, R2), then two of its players at a
    two-player table, resigned; a deleted profile's totals go, and so does its place in
    the others' pairings."""
    code, tid, tokens, profiles = await _rated_table(service, db_url, 4)
    await _play_to_the_end(service, code, tid, tokens)
    created = await service.create("Pair", 2, True, "Host", rated=True)
    other = await service.join(created.code, "P1", 1, signed_in=True)
    pair_id = await service.table_id(created.code)
    await bind(db_url, profiles[0], pair_id, 0, created.token)
    await bind(db_url, profiles[1], pair_id, 1, other.token)
    await service.start(created.code, created.token)
    await service.resign(created.code, other.token)
    kept = figures_kept(db_url, profiles)
    assert kept == [tuple(r) for r in figures_counted(db_url, profiles)]
    assert {(p, n) for p, n, *_ in kept} == {(p, 4) for p in profiles} | {
        (profiles[0], 2),
        (profiles[1], 2),
    }
    pairs = pairs_kept(db_url, profiles)
    assert pairs == pairs_counted(db_url, profiles)
    a, b, c, d = profiles  # seats 0 and 2 against 1 and 3 (R2)
    assert {(p, partners, o, n) for p, partners, o, n, _ in pairs if p == a} == {
        (a, False, b, 2),  # an opponent twice: the partnership match and the pair's
        (a, True, c, 1),
        (a, False, d, 1),
    }
    store = make_profile_store(db_url)
    try:
        assert await store.delete_profile(b)
    finally:
        await store.close()
    assert figures_kept(db_url, [b]) == [] and pairs_kept(db_url, [b]) == []
    assert all(o != b for _, _, o, _, _ in pairs_kept(db_url, profiles))
    assert figures_kept(db_url, [a, c, d]) == [tuple(r) for r in figures_counted(db_url, [a, c, d])]
    assert pairs_kept(db_url, [a, c, d]) == pairs_counted(db_url, [a, c, d])
