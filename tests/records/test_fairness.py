"""The fair deal (docs/fairness.md): reproducible from the seed, unbiased, bound to its
table/match/round by the commitment, and checked move by move against a finished round
(R5–R7, R17, R18, R22, R23)."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.engine import ALL_TILES, format_tile
from app.fairness import (
    ByteStream,
    DealIds,
    commitment,
    deal_from_seed,
    hmac_block,
    new_seed,
    shuffled_tiles,
    start_match,
    verify_round,
)

from .matches import play_match

IDS = DealIds("ABC123", 1, 1)
SEED = bytes(range(32))


def test_the_same_seed_and_ids_always_give_the_same_deal() -> None:
    for players in (2, 3, 4):
        first = deal_from_seed(SEED, players, IDS)
        assert first == deal_from_seed(SEED, players, IDS)
        assert [len(h) for h in first.hands] == [5] * players  # R6
        assert len(first.stock) == 28 - 5 * players
        every = sorted([t for h in first.hands for t in h] + list(first.stock))
        assert every == sorted(format_tile(t) for t in ALL_TILES)  # R1


def test_the_pinned_vector_never_changes() -> None:
    """The procedure is a published contract: this deal must stay exactly this."""
    deal = deal_from_seed(SEED, 2, IDS)
    assert (
        commitment(SEED, IDS)
        == hashlib.sha256(b"fiveup-commit/v1|ABC123|1|1|" + SEED.hex().encode()).hexdigest()
    )
    assert deal.hands == (
        ("0|0", "0|1", "1|1", "1|3", "6|6"),
        ("2|3", "3|4", "3|6", "4|4", "5|6"),
    )
    assert deal.stock[:6] == ("3|3", "0|3", "2|4", "0|2", "1|6", "1|5")
    assert deal.lot == 1
    assert commitment(SEED, IDS).startswith("ea5a66a77643c25d")


def test_other_ids_or_seeds_give_other_deals_and_commitments() -> None:
    others = [DealIds("ABC123", 1, 2), DealIds("ABC123", 2, 1), DealIds("ABC124", 1, 1)]
    base = deal_from_seed(SEED, 4, IDS)
    for ids in others:
        assert deal_from_seed(SEED, 4, ids) != base
        assert commitment(SEED, ids) != commitment(SEED, IDS)
    assert deal_from_seed(bytes(32), 4, IDS) != base


def test_blocks_are_hmac_sha256_of_the_context_and_a_decimal_counter() -> None:
    want = hmac.new(SEED, b"fiveup-deal/v1|ABC123|1|1|1", hashlib.sha256).digest()
    assert hmac_block(SEED, "fiveup-deal/v1|ABC123|1|1", 1) == want


def test_the_documented_openssl_command_gives_the_first_block() -> None:
    """docs/fairness.md tells players to check with openssl; the command must agree."""
    out = subprocess.run(
        ["openssl", "dgst", "-sha256", "-mac", "HMAC", "-macopt", f"hexkey:{SEED.hex()}"],
        input=b"fiveup-deal/v1|ABC123|1|1|0",
        capture_output=True,
        check=True,
    ).stdout.decode()
    assert out.strip().endswith(hmac_block(SEED, "fiveup-deal/v1|ABC123|1|1", 0).hex())


def test_rejection_sampling_maps_the_accepted_bytes_evenly() -> None:
    """Every residue gets the same number of the 256 byte values that are accepted."""
    for n in range(1, 29):
        limit = 256 - 256 % n
        counts = Counter(b % n for b in range(limit))
        assert set(counts.values()) == {limit // n}


def test_rejected_bytes_are_skipped() -> None:
    stream = ByteStream(SEED, "fiveup-deal/v1|ABC123|1|1")
    raw = hmac_block(SEED, "fiveup-deal/v1|ABC123|1|1", 0)
    expected = next(b % 27 for b in raw if b < 243)
    assert stream.below(27) == expected


def test_every_position_gets_every_tile_about_equally_often() -> None:
    """A coarse uniformity check of the shuffle over 2,800 seeds (deterministic)."""
    first = Counter(shuffled_tiles(bytes([i % 256, i // 256]) * 16, IDS)[0][0] for i in range(2800))
    assert set(first) == set(ALL_TILES)
    assert max(first.values()) < 170 and min(first.values()) > 40  # mean 100


def test_the_lot_chooses_every_seat() -> None:
    lots = Counter(deal_from_seed(bytes([i]) * 32, 4, IDS).lot for i in range(200))
    assert set(lots) == {0, 1, 2, 3}


def test_new_seeds_are_32_fresh_bytes() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and {len(s) for s in seeds} == {32}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_finished_round_of_a_fair_match_verifies(players: int) -> None:
    match, seeds = play_match(players, 7)
    previous = None
    for entry in match.history:
        ids = DealIds("ABC123", 7, entry["round"])
        seed = seeds[entry["round"]]
        verdict = verify_round(seed, commitment(seed, ids), ids, players, entry, previous)
        assert verdict.ok, verdict.reason
        previous = entry["settlement"]


def _first_round_with_a_draw(players: int) -> tuple[dict[str, object], bytes, DealIds]:
    for game in range(50):
        match, seeds = play_match(players, game)
        for entry in match.history:
            if entry["round"] == 1 and any(e[1] == "draw" for e in entry["log"]):
                return entry, seeds[1], DealIds("ABC123", game, 1)
    raise AssertionError("no round with a draw")


def test_a_commitment_for_another_round_is_refused() -> None:
    entry, seed, ids = _first_round_with_a_draw(2)
    wrong = commitment(seed, DealIds(ids.code, ids.match, 2))
    verdict = verify_round(seed, wrong, ids, 2, entry)
    assert not verdict.ok and "commitment" in verdict.reason


def test_a_draw_that_is_not_the_next_stock_tile_is_refused() -> None:
    """R18: the server dealt from another stock order than the committed one."""
    entry, seed, ids = _first_round_with_a_draw(3)
    log = [list(e) for e in entry["log"]]
    k = next(i for i, e in enumerate(log) if e[1] == "draw")
    log[k][3] = "6|6" if log[k][3] != "6|6" else "0|0"
    verdict = verify_round(seed, commitment(seed, ids), ids, 3, {**entry, "log": log})
    assert not verdict.ok and "R18" in verdict.reason


def test_a_different_deal_is_refused_even_with_draws_hidden() -> None:
    """A spectator's history hides drawn tiles; the revealed hands still give it away."""
    entry, seed, ids = _first_round_with_a_draw(2)
    hidden = {
        "starter": entry["starter"],
        "settlement": entry["settlement"],
        "moves": [
            {"seat": s, "move": m, "points": p, "drawn": None, "must_play": f}
            for s, m, p, _drawn, f in entry["log"]  # type: ignore[attr-defined]
        ],
    }
    assert verify_round(seed, commitment(seed, ids), ids, 2, hidden).ok
    other = bytes(31) + b"\x01"
    verdict = verify_round(other, commitment(other, ids), ids, 2, hidden)
    assert not verdict.ok


def test_a_starter_other_than_the_lot_is_refused() -> None:
    seed = SEED
    match = start_match(seed, 4, IDS)
    while not match.round_over:
        seat = match.turn
        assert seat is not None
        match.play(seat, match.legal_moves(seat)[0])
    entry = dict(match.history[0])
    entry["starter"] = (entry["starter"] + 1) % 4
    verdict = verify_round(seed, commitment(seed, IDS), IDS, 4, entry)
    assert not verdict.ok and "lot" in verdict.reason


def test_the_standalone_script_in_the_docs_deals_what_the_server_deals(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()
    script = doc.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "deal.py").write_text(script)
    for players, ids in ((2, IDS), (4, DealIds("K7QX2M", 3, 5))):
        out = subprocess.run(
            [
                sys.executable,
                str(tmp_path / "deal.py"),
                SEED.hex(),
                ids.code,
                str(ids.match),
                str(ids.round),
                str(players),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        deal = deal_from_seed(SEED, players, ids)
        assert out == [
            *[f"hand {s} {' '.join(h)}" for s, h in enumerate(deal.hands)],
            f"stock {' '.join(deal.stock)}",
            f"lot {deal.lot}",
            f"commitment {commitment(SEED, ids)}",
        ]
    assert "hand 0 0|0 0|1 1|1 1|3 6|6" in doc and commitment(SEED, IDS) in doc
