"""How the server is served: the uvicorn options that follow from the settings.

``fiveup serve`` runs ``uvicorn.run(create_app(settings), host=..., port=...,
**uvicorn_options(settings))``. The options put in place the server's HTTP limits
(docs/deployment.md explains each, docs/configuration.md lists the settings):

* forwarded headers (``X-Forwarded-For``/``-Proto``) believed only from the proxies in
  ``FIVEUP_FORWARDED_ALLOW_IPS`` (none by default: the socket peer is the client);
* header and body read deadlines and a header size limit (``app/core/slow_clients.py``);
* keep-alive timeout, listen backlog, the graceful shutdown's wait after a drain;
* connections per client address and the budget of HTTP requests running at once
  (``app/core/connection_caps.py``; uvicorn's ``limit_concurrency`` stays off, since it
  counts every WebSocket and idle connection against HTTP);
* uvicorn's sans-I/O WebSocket protocol, a text frame that is not UTF-8 closed quietly
  (``app/core/ws_protocol.py``);
* WebSocket frame size, inbound queue, protocol pings, permessage-deflate only if
  ``FIVEUP_WS_DEFLATE`` (its compression state is most of an idle socket's memory).

The options can be pickled (uvicorn sends them to each ``--workers`` process). Works
with an import string too: ``uvicorn.run("app.main:create_app", factory=True,
workers=n, host=..., port=..., **uvicorn_options(settings))``.

from app.core.settings import Settings
>>> options = uvicorn_options(Settings(forwarded_allow_ips=""))
>>> options["proxy_headers"], options["timeout_keep_alive"], options["ws_per_message_deflate"]
(False, 5, False)
>>> import pickle; pickle.loads(pickle.dumps(options))["http"].__name__
'DeadlineHttpToolsProtocol'
>>> o = uvicorn_options(Settings(forwarded_allow_ips="10.0.0.2, 10.0.1.0/24"))
>>> o["proxy_headers"], o["forwarded_allow_ips"]
(True, ['10.0.0.2', '10.0.1.0/24'])
"""

from __future__ import annotations

import math
from typing import Any

from app.core.logging import logging_config
from app.core.settings import Settings
from app.core.slow_clients import DeadlineHttpToolsProtocol, SlowClientLimits, http_caps
from app.core.ws_protocol import QuietWebSocketsProtocol

#: inbound WebSocket frames uvicorn buffers per socket before it stops reading
WS_MAX_QUEUE = 16


def trusted_proxies(setting: str) -> list[str]:
    """The ``FIVEUP_FORWARDED_ALLOW_IPS`` entries (IPs, CIDRs or ``*``); empty = none.

    >>> trusted_proxies(" 127.0.0.1 ,::1,"), trusted_proxies("")
    (['127.0.0.1', '::1'], [])
    """
    return [part.strip() for part in setting.split(",") if part.strip()]


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config`` (all but app, host, port)."""
    proxies = trusted_proxies(settings.forwarded_allow_ips)
    # this process's limits; --workers processes read the same from the environment
    DeadlineHttpToolsProtocol.configure(
        SlowClientLimits.from_settings(settings), http_caps(settings)
    )
    options: dict[str, Any] = {
        "http": DeadlineHttpToolsProtocol,
        "ws": QuietWebSocketsProtocol,
        "proxy_headers": bool(proxies),
        "timeout_keep_alive": max(1, math.ceil(settings.keepalive_timeout)),
        # uvicorn's own limit counts WebSockets and idle connections: off; the protocol
        # applies FIVEUP_LIMIT_CONCURRENCY to HTTP requests only (connection_caps.py)
        "limit_concurrency": None,
        "backlog": settings.backlog,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "ws_max_size": settings.max_frame_bytes,
        "ws_max_queue": WS_MAX_QUEUE,
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "ws_per_message_deflate": settings.ws_deflate,
        # after the drain (app/api/draining.py): what uvicorn waits for the connections
        "timeout_graceful_shutdown": max(1, math.ceil(settings.drain_seconds)),
        "log_level": settings.log_level.lower(),
        # structured lines from every process, a --workers parent's too
        "log_config": logging_config(settings.log_level, settings.log_format),
        "server_header": False,
    }
    if proxies:
        options["forwarded_allow_ips"] = proxies
    return options
