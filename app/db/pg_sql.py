"""The SQL of the PostgreSQL store: column lists, the one-statement write of a change
(built once per shape and cached), and the parameters of a change. Only
:mod:`app.db.pg_store` uses it.
"""

from __future__ import annotations

from typing import Any

from app.core.json_text import json_text
from app.db.rows import EventRecord, PlayerState, TableState

TABLE_COLS = (
    "id, code, name, players, public, status, host_seat, version, seq, match_number, state,"
    " rematch_votes, ready, round_over_at, created_at, history, commitment, deal_seed,"
    " spectator_chat, clock, turn_deadline, banks, resigned, rated"
)
#: the same columns without the finished rounds and without the running round's secret
#: seed (what delivery and the lobby need; only the write path's ``load`` reads the seed)
TABLE_COLS_NOW = TABLE_COLS.replace(", history", ", NULL::jsonb").replace(
    ", deal_seed", ", NULL::text"
)
PLAYERS_JSON = (
    "(SELECT coalesce(json_agg(json_build_array(p.id, p.seat, p.name, p.token_hash, p.bot,"
    " p.autopilot, p.autopilot_moves, p.link_hash)),"
    " '[]'::json) FROM players p WHERE p.table_id = t.id)"
)
LOAD = f"SELECT {TABLE_COLS}, {PLAYERS_JSON} FROM game_tables t WHERE t.id = %s"
LOAD_NOW = f"SELECT {TABLE_COLS_NOW}, {PLAYERS_JSON} FROM game_tables t WHERE t.id = %s"
#: live tables idle for a while (the sweep, app/tables/sweep.py), with their persons'
#: seats. ``public IN (true, false)`` holds for every row: it lets the lobby's index
#: ``(public, status)`` find the few live tables among the many closed and finished ones,
#: so no index of its own is needed
IDLE_TABLES = (
    "SELECT t.id, t.version, extract(epoch FROM now() - t.updated_at)::float8,"
    " (SELECT coalesce(array_agg(p.seat ORDER BY p.seat), '{}') FROM players p"
    " WHERE p.table_id = t.id AND p.bot IS NULL)"
    " FROM game_tables t WHERE t.public IN (true, false) AND t.status = ANY(%s)"
    " AND t.updated_at < now() - make_interval(secs => %s)"
    " ORDER BY t.updated_at LIMIT %s"
)
LIVE_CREATED_BY = (
    "SELECT count(*) FROM game_tables WHERE created_by = %s AND status IN ('waiting', 'playing')"
)
EVENT_COLS = "seq, kind, seat, player_id, move_id, match_number, payload"
TABLE_SET = (
    "seq = %(seq)s, status = %(status)s, host_seat = %(host_seat)s,"
    " match_number = %(match_number)s, state = %(state)s::jsonb,"
    " rematch_votes = %(rematch_votes)s::jsonb, ready = %(ready)s::jsonb,"
    " round_over_at = %(round_over_at)s, commitment = %(commitment)s,"
    " deal_seed = %(deal_seed)s, spectator_chat = %(spectator_chat)s, turn_deadline = %(turn_deadline)s,"
    " banks = %(banks)s::jsonb, resigned = %(resigned)s, updated_at = now()"
)


def _event_values(n: int) -> str:
    return ", ".join(
        f"(%(seq{i})s::int, %(kind{i})s::text, %(seat{i})s::int, %(pid{i})s::int,"
        f" %(mid{i})s::text, %(mn{i})s::int, %(pl{i})s::jsonb)"
        for i in range(n)
    )


def one_statement_write(n: int, notify: bool, history: bool) -> str:
    cols = ", ".join("v." + c for c in EVENT_COLS.split(", "))
    table_set = TABLE_SET + (", history = %(history)s::jsonb" if history else "")
    return (
        f"WITH u AS (UPDATE game_tables SET version = version + 1, {table_set}"
        " WHERE id = %(id)s AND version = %(version)s RETURNING id),"
        f" e AS (INSERT INTO table_events (table_id, {EVENT_COLS}, created_at)"
        f" SELECT u.id, {cols}, now() FROM u, (VALUES {_event_values(n)}) AS v({EVENT_COLS})"
        " RETURNING 1)"
        + (" SELECT pg_notify(%(channel)s, %(note)s) FROM u" if notify else " SELECT id FROM u")
    )


WRITE_SQL: dict[tuple[int, bool, bool], str] = {}


#: the table's JSON columns (sent as JSON text, cast to jsonb in the SQL)
JSON_COLUMNS = ("state", "rematch_votes", "ready", "banks")
_PLAYER_WRITTEN = ("seat", "name", "token_hash", "bot", "autopilot", "autopilot_moves", "link_hash")
UPDATE_PLAYER = (
    "UPDATE players SET "
    + ", ".join(f"{c} = %({c})s" for c in _PLAYER_WRITTEN)
    + " WHERE id = %(id)s"
)
INSERT_PLAYER = (
    f"INSERT INTO players (table_id, {', '.join(_PLAYER_WRITTEN)}, created_at)"
    f" VALUES (%(table_id)s, {', '.join(f'%({c})s' for c in _PLAYER_WRITTEN)}, now())"
    " RETURNING id"
)


def table_params(t: TableState) -> dict[str, Any]:
    """The parameters of :data:`TABLE_SET` (and the insert): the table's columns, its
    JSON ones as JSON text."""
    params = t.columns()
    for c in JSON_COLUMNS:
        if params[c] is not None:
            params[c] = json_text(params[c])
    params["id"] = t.id
    return params


def event_params(events: list[EventRecord]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for i, e in enumerate(events):
        params[f"seq{i}"] = e.seq
        params[f"kind{i}"] = e.kind
        params[f"seat{i}"] = e.seat
        params[f"pid{i}"] = e.resolved_player_id()
        params[f"mid{i}"] = e.move_id
        params[f"mn{i}"] = e.match_number
        params[f"pl{i}"] = json_text(e.payload)
    return params


def players_of(rows: Any) -> list[PlayerState]:
    """The players of ``PLAYERS_JSON`` (:data:`~app.db.rows.PLAYER_COLUMNS`)."""
    return [PlayerState.from_row(p) for p in rows]
