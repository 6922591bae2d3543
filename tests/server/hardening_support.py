"""A real server started the way ``fiveup serve`` starts it with the hardening options:
``uvicorn.run("app.main:create_app", factory=True, workers=n, **uvicorn_options(...))``
in a subprocess."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import httpx

from .support import REPO, ServerProcess

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

    def start(self) -> HardenedServer:
        import os

        env = {**os.environ, **self.env, "DATABASE_URL": self.database_url}
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVE, str(self.port), str(self.workers)],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError("server did not become healthy")
