"""The server's Prometheus metric objects, each named by Prometheus' conventions
(``fiveup_`` prefix, ``_total`` for counters, the unit last: ``_seconds``, ``_bytes``).
docs/monitoring.md says what each measures; :mod:`app.core.metrics` records into them.

Gauges say how several processes' values combine (prometheus-client's multiprocess
mode, ``fiveup serve --workers N``), over the processes alive: ``livesum`` (their sum)
or ``livemax`` (the highest) — never a mode in which a process that records nothing
(a bot worker, the supervisor) would pull the answer down with its zero.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_FAST = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

# -- HTTP ------------------------------------------------------------------------------
HTTP_REQUESTS = Counter(
    "fiveup_http_requests_total",
    "HTTP requests answered, by method, route template and status",
    ["method", "route", "status"],
)
HTTP_DURATION = Histogram(
    "fiveup_http_request_duration_seconds",
    "Time from an HTTP request reaching the application to its answer's end",
    ["method", "route"],
    buckets=_LATENCY,
)
CONNECTION_REFUSALS = Counter(
    "fiveup_connection_refusals_total",
    "Connections and requests refused by a connection cap or the HTTP budget",
    ["cap"],
)
QUOTA_REFUSALS = Counter(
    "fiveup_quota_refusals_total", "Uses refused by a quota (429, rate_limited)", ["quota"]
)

# -- WebSockets ------------------------------------------------------------------------
WS_OPEN = Gauge(
    "fiveup_websockets_open",
    "WebSockets open on a table, by role",
    ["role"],
    multiprocess_mode="livesum",
)
WS_OPENED = Counter("fiveup_websockets_opened_total", "WebSockets opened on a table", ["role"])
WS_FRAMES_SENT = Counter("fiveup_websocket_frames_sent_total", "Frames written to sockets")
WS_SENT_BYTES = Counter(
    "fiveup_websocket_sent_bytes_total", "Bytes of frame payloads written to sockets (UTF-8)"
)
WS_FRAMES_RECEIVED = Counter(
    "fiveup_websocket_frames_received_total", "Text frames received from sockets"
)
WS_QUEUED_BYTES = Gauge(
    "fiveup_websocket_queued_bytes",
    "Bytes of frames waiting in the sockets' queues (sampled)",
    multiprocess_mode="livesum",
)
WS_QUEUE_MAX_BYTES = Gauge(
    "fiveup_websocket_queue_max_bytes",
    "The longest socket queue in bytes (sampled)",
    multiprocess_mode="livemax",
)
WS_CUT_OFF = Counter(
    "fiveup_websocket_cut_off_total",
    "Sockets cut off as too slow: queue over FIVEUP_SOCKET_QUEUE_BYTES, or a frame not "
    "written within FIVEUP_SOCKET_SEND_TIMEOUT",
    ["reason"],
)
WS_CLOSES = Counter(
    "fiveup_websocket_closes_total", "Sockets closed by the server, by close code", ["code"]
)
RESYNCS = Counter("fiveup_resyncs_total", "Snapshots sent to resynchronise a socket", ["reason"])

# -- moves and computer players ----------------------------------------------------------
MOVES = Counter(
    "fiveup_moves_total",
    "Moves asked for, by who plays them and the answer (accepted, duplicate, or the "
    "refusal's error code)",
    ["source", "result"],
)
MOVE_COMMIT = Histogram(
    "fiveup_move_commit_seconds",
    "Time from a move reaching the table service to its commit (this process's sockets "
    "served included), accepted moves only",
    ["source"],
    buckets=_LATENCY,
)
BOT_DECISION = Histogram(
    "fiveup_bot_decision_seconds",
    "A computer player's (or the autopilot's) thinking time per move, by level",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0, 10.0),
)

# -- the database ----------------------------------------------------------------------
GROUP_COMMIT_CHANGES = Histogram(
    "fiveup_db_group_commit_changes",
    "Changes (tables) written by one group commit",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
GROUP_COMMIT_SECONDS = Histogram(
    "fiveup_db_group_commit_seconds", "Time of one group commit's statement", buckets=_LATENCY
)
DB_IN_USE = Gauge(
    "fiveup_db_connections_in_use",
    "Store connections handed out to a caller",
    multiprocess_mode="livesum",
)
DB_WAITING = Gauge(
    "fiveup_db_connection_waiters",
    "Store operations waiting for a connection",
    multiprocess_mode="livesum",
)
DB_MAX = Gauge(
    "fiveup_db_connections_max", "Store connections allowed", multiprocess_mode="livesum"
)
DB_FAILURES = Counter(
    "fiveup_db_connection_failures_total", "Store connections found broken and dropped"
)
DB_ERRORS = Counter(
    "fiveup_db_errors_total",
    "Store operations that failed with a database error (the caller got unavailable)",
)
DB_UNREACHABLE = Gauge(
    "fiveup_db_unreachable",
    "1 while a process's store cannot reach the database (since its last operation), else 0",
    multiprocess_mode="livemax",
)
NOTIFY_LAG = Histogram(
    "fiveup_notify_lag_seconds",
    "Time from another process's commit announcement being sent to its NOTIFY heard here",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)

# -- the collector ---------------------------------------------------------------------
GC_PAUSE = Histogram(
    "fiveup_gc_pause_seconds",
    "Pauses of the cyclic garbage collector, by generation",
    ["generation"],
    buckets=_FAST,
)
