"""Soak benchmark findings: what the database says of a run (``check_database``), the
latency summaries and the markdown table ``bench/soak.py`` prints.

>>> latency_summary([0.010, 0.020, 0.030])
{'samples': 3, 'p50_ms': 20.0, 'p99_ms': 30.0, 'max_ms': 30.0}
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

from app.engine import Match, view_for
from bench.load_tables import percentile
from bench.soak_clients import Ledger, SoakTable


def latency_summary(spans: list[float]) -> dict[str, Any]:
    s = sorted(spans)
    return {
        "samples": len(s),
        "p50_ms": round(percentile(s, 50) * 1000, 1) if s else None,
        "p99_ms": round(percentile(s, 99) * 1000, 1) if s else None,
        "max_ms": round(s[-1] * 1000, 1) if s else None,
    }


def check_database(db_url: str, tables: list[SoakTable], ledger: Ledger) -> dict[str, Any]:
    """What the database says of the run: acked moves lost, seq gaps, unstored seqs
    seen, final views against the engine, events stored."""
    codes = {t.code: t for t in tables}
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT t.code, e.seq, e.move_id, e.payload->>'type' FROM table_events e"
            " JOIN game_tables t ON t.id = e.table_id ORDER BY t.code, e.seq"
        ).fetchall()
        states = {  # the finished rounds are kept in their own column
            code: (seq, None if state is None else {**state, "history": history or []})
            for code, seq, state, history in conn.execute(
                "SELECT code, seq, state, history FROM game_tables"
            )
        }
    seqs: dict[str, list[int]] = {}
    by_move_id: dict[tuple[str, str], int] = {}
    moves = auto = 0
    for code, seq, move_id, kind in rows:
        seqs.setdefault(code, []).append(seq)
        if move_id is not None:
            by_move_id[(code, move_id)] = seq
        if kind == "move":
            moves += 1
            auto += move_id is None
    lost = [
        f"{code}:{mid} acked at {seq}, stored at {by_move_id.get((code, mid))}"
        for mid, (code, seq) in ledger.acked.items()
        if by_move_id.get((code, mid)) != seq
    ]
    gappy = [c for c, s in seqs.items() if s != list(range(1, len(s) + 1))]
    beyond = [
        f"{c}: client saw {t.max_seq_seen}, stored {len(seqs.get(c, []))}"
        for c, t in codes.items()
        if t.max_seq_seen > len(seqs.get(c, []))
    ]
    checked, differ = check_views(tables, states)
    return {
        "acked_moves": len(ledger.acked),
        "acked_moves_lost": len(lost),
        "lost_examples": lost[:10],
        "tables_with_stored_seq_gaps": len(gappy),
        "gappy_examples": gappy[:10],
        "tables_where_a_client_saw_an_unstored_seq": len(beyond),
        "beyond_examples": beyond[:10],
        "final_views_checked": checked,
        "final_views_differing_from_the_engine": len(differ),
        "differing_examples": differ[:10],
        "events_stored": len(rows),
        "move_events_stored": moves,
        "automatic_passes_stored": auto,
    }


def check_views(
    tables: list[SoakTable], states: dict[str, tuple[int, Any]]
) -> tuple[int, list[str]]:
    """Each seat's view as it rebuilt it from its snapshots and patches, against the
    engine's projection of the stored state (seats at the stored seq only)."""
    checked, differ = 0, []
    for t in tables:
        seq, state = states.get(t.code, (None, None))
        if state is None:
            continue
        match = Match.from_dict(state)
        for seat in t.seats:
            if seat.view is None or seat.last_seq != seq:
                continue
            checked += 1
            want = view_for(match, seat.seat, describe=False)
            got = {**seat.view, "description": None, "description_uk": None}
            if json.loads(json.dumps(want)) != got:
                keys = [k for k in want if want[k] != got.get(k)]
                differ.append(f"{t.code} seat {seat.seat} at seq {seq}: {keys}")
    return checked, differ


def markdown(r: dict[str, Any]) -> str:
    db, out, ins = r["database"], r["latency_outside_windows"], r["latency_inside_windows"]
    logs = r["server_logs"].values()
    rows = [
        ("acknowledged moves lost (must be 0)", db["acked_moves_lost"]),
        ("acknowledged moves", db["acked_moves"]),
        ("stored seq gaps (tables; must be 0)", db["tables_with_stored_seq_gaps"]),
        (
            "final views differing from the engine's projection (of checked)",
            f"{db['final_views_differing_from_the_engine']} (of {db['final_views_checked']})",
        ),
        (
            "client saw an unstored seq (tables; must be 0)",
            db["tables_where_a_client_saw_an_unstored_seq"],
        ),
        (
            "seq gaps seen by clients / repaired by resync / by reconnect / unrepaired",
            f"{r['seq_gaps_seen_by_clients']} / {r['seq_gaps_repaired_by_resync']} / "
            f"{r['seq_gaps_repaired_by_reconnect']} / {r['seq_gaps_unrepaired']}",
        ),
        (
            "HTTP 5xx: prober outside windows / prober in windows / server log 500s",
            f"{r['probe_5xx_outside_windows']} / "
            f"{len(r['probe_5xx']) - r['probe_5xx_outside_windows']} / "
            f"{sum(x['http_500_lines'] for x in logs)}",
        ),
        (
            "server log tracebacks / ERROR lines",
            f"{sum(x['tracebacks'] for x in logs)} / {sum(x['error_lines'] for x in logs)}",
        ),
        (
            "move→ack p50 / p99 / max outside fault windows (ms)",
            f"{out['p50_ms']} / {out['p99_ms']} / {out['max_ms']} ({out['samples']} moves)",
        ),
        (
            "move→ack p50 / p99 / max inside fault windows (ms)",
            f"{ins['p50_ms']} / {ins['p99_ms']} / {ins['max_ms']} ({ins['samples']} moves)",
        ),
        (
            "move events committed (of them automatic passes)",
            f"{db['move_events_stored']} ({db['automatic_passes_stored']})",
        ),
        ("committed moves/s (acked, whole run)", r["moves_per_s"]),
        (
            "moves resent / duplicate acks / refused",
            f"{r['moves_resent']} / {r['duplicate_acks']} / {r['moves_refused']}",
        ),
        (
            "seat reconnects (of them planned returns home)",
            f"{r['seat_reconnects']} ({r['seat_go_home']})",
        ),
        ("tables stalled > 60 s at the stop", r["tables_stalled_60s_at_stop"]),
    ]
    for p in r["server_processes"]:
        rows.append(
            (
                f"server {p['slot']} pid {p['pid']} RSS first / max / last (MiB)",
                f"{p['rss_first_mib']} / {p['rss_max_mib']} / {p['rss_last_mib']}"
                f" over {p['lived_s']} s ({p['ended']}; CPU {p['cpu_s']} s)",
            )
        )
    lines = ["| measure | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rows]
    lines += [
        "",
        "| fault window | from (s) | to (s) | note | p50 / p99 move→ack (ms) |",
        "|---|---|---|---|---|",
    ]
    for w in r["fault_windows"]:
        lat = r["latency_by_window_kind"].get(w["kind"], {})
        lines.append(
            f"| {w['kind']} | {w['start_s']} | {w['end_s']} | {w['note']} |"
            f" {lat.get('p50_ms')} / {lat.get('p99_ms')} |"
        )
    return "\n".join(lines)
