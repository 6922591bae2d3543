"""A real server started the way ``fiveup serve`` starts it with the hardening options:
``uvicorn.run("app.main:create_app", factory=True, workers=n, **uvicorn_options(...))``
in a subprocess."""

from __future__ import annotations

import sys

from .support import ServerProcess

_SERVE = (
    "import sys, uvicorn\n"
    "from app.core.serving import uvicorn_options\n"
    "from app.core.settings import get_settings\n"
    "uvicorn.run('app.main:create_app', factory=True, host='127.0.0.1',\n"
    "            port=int(sys.argv[1]), workers=int(sys.argv[2]),\n"
    "            **uvicorn_options(get_settings()))\n"
)


class HardenedServer(ServerProcess):
    """Like ``ServerProcess``, but served with ``app.core.serving.uvicorn_options``
    (and ``workers`` uvicorn worker processes, as ``fiveup serve --workers``)."""

    workers = 1

    def command(self) -> list[str]:
        return [sys.executable, "-c", _SERVE, str(self.port), str(self.workers)]
