"""Serving the metrics of :mod:`app.core.metrics` to Prometheus, one process or several.

Where (docs/monitoring.md): with ``FIVEUP_METRICS_PORT`` on a port of their own (bound to
``FIVEUP_METRICS_HOST``, loopback by default), with ``FIVEUP_METRICS_TOKEN`` on the main
port at ``/metrics`` for a request that carries ``Authorization: Bearer <token>`` (the
port requires the token too when both are set); neither set, nowhere.

Several processes (``fiveup serve --workers N``): :func:`prepare_processes`, in the
supervising process before the workers start, makes a fresh directory for
prometheus-client's multiprocess mode and names it in ``PROMETHEUS_MULTIPROC_DIR`` (the
workers inherit it); every answer (:func:`exposition`) then adds up the files of all the
processes (``MultiProcessCollector``), whichever process gives it. A worker that exits
is marked dead (``mark_process_dead``: its live gauges stop counting) by the
supervisor's reaper, which looks every few seconds for files of processes gone — a
worker killed without a goodbye included. With one process no directory is needed: the
process's own registry answers.
"""

from __future__ import annotations

import contextlib
import glob
import hmac
import logging
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

log = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: set by ``fiveup serve`` for its workers when it serves the metrics port itself
PORT_SERVED_ENV = "FIVEUP_METRICS_PORT_SERVED"
#: seconds between two looks of the reaper for processes gone
REAP_SECONDS = 2.0

_LIVE_FILE = re.compile(r"gauge_live[a-z]+_(\d+)\.db$")
_port_server: WSGIServer | None = None


def multiprocess_dir() -> str | None:
    """The multiprocess directory this process records into, if any."""
    return os.environ.get(MULTIPROC_ENV) or None


def exposition(accept: str = "") -> tuple[bytes, str]:
    """Every metric as Prometheus text (or OpenMetrics, if ``accept`` asks for it), and
    its content type: all processes' if several record, else this one's."""
    from prometheus_client import REGISTRY, CollectorRegistry
    from prometheus_client.exposition import choose_encoder
    from prometheus_client.multiprocess import MultiProcessCollector

    from app.core import metrics

    metrics.flush()
    encoder, content_type = choose_encoder(accept)
    path = multiprocess_dir()
    if path is None:
        return encoder(REGISTRY), content_type
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]
    return encoder(registry), content_type


def token_matches(authorization: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``Bearer <token>`` (constant time).

    >>> token_matches("Bearer s3cret", "s3cret"), token_matches("bearer s3cret", "s3cret")
    (True, True)
    >>> token_matches("Bearer wrong", "s3cret"), token_matches(None, "s3cret")
    (False, False)
    """
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


# -- the port of its own ---------------------------------------------------------------
class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """No access log (a scrape every few seconds)."""


def _wsgi(token: str) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
    def answer(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != "/metrics":
            start("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found: the metrics are at /metrics\n"]
        if token and not token_matches(environ.get("HTTP_AUTHORIZATION"), token):
            start(
                "401 Unauthorized",
                [("Content-Type", "text/plain"), ("WWW-Authenticate", "Bearer")],
            )
            return [b"a bearer token is required\n"]
        body, content_type = exposition(environ.get("HTTP_ACCEPT", ""))
        start("200 OK", [("Content-Type", content_type), ("Content-Length", str(len(body)))])
        return [body]

    return answer


def serve_port(host: str, port: int, token: str = "") -> bool:
    """Serve ``/metrics`` on ``host:port`` in a daemon thread (once per process); False
    (and a warning) if the port cannot be bound."""
    global _port_server
    if _port_server is not None:
        return True
    try:
        server = make_server(host, port, _wsgi(token), _Server, handler_class=_Quiet)
    except OSError as exc:
        log.warning("metrics port %s:%s not served (%s)", host, port, exc)
        return False
    _port_server = server
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return True


def port_served_here() -> bool:
    """Whether this process serves the metrics port, or its supervisor does."""
    return _port_server is not None or os.environ.get(PORT_SERVED_ENV) == "1"


# -- several processes -----------------------------------------------------------------
@contextlib.contextmanager
def prepare_processes() -> Iterator[str]:
    """For the block (the workers' whole life): a fresh multiprocess directory in
    ``PROMETHEUS_MULTIPROC_DIR`` (inside the one named there already, if any, so that
    nothing of an earlier run is counted), and the reaper; removed afterwards. Enter it
    before prometheus-client is imported in this process."""
    parent = multiprocess_dir()
    if parent is not None:
        os.makedirs(parent, exist_ok=True)
    path = tempfile.mkdtemp(prefix="fiveup-metrics-", dir=parent)
    os.environ[MULTIPROC_ENV] = path
    stop = threading.Event()
    reaper = threading.Thread(target=_reap_until, args=(path, stop), name="reaper", daemon=True)
    reaper.start()
    try:
        yield path
    finally:
        stop.set()
        reaper.join(timeout=5)
        shutil.rmtree(path, ignore_errors=True)
        if parent is None:
            os.environ.pop(MULTIPROC_ENV, None)
        else:
            os.environ[MULTIPROC_ENV] = parent


def dead_processes(path: str) -> set[int]:
    """The processes whose live gauges are in ``path`` but which are gone."""
    pids = set()
    for name in glob.glob(os.path.join(path, "gauge_live*_*.db")):
        found = _LIVE_FILE.search(name)
        if found is not None:
            pids.add(int(found.group(1)))
    return {pid for pid in pids if not _alive(pid)}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie (exited, not yet waited for) is gone
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    return True


def _reap_until(path: str, stop: threading.Event) -> None:
    from prometheus_client.multiprocess import mark_process_dead

    while not stop.wait(REAP_SECONDS):
        with contextlib.suppress(OSError):
            for pid in dead_processes(path):
                mark_process_dead(pid, path)  # type: ignore[no-untyped-call]
