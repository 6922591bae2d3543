"""Installable anywhere: the wheel built from this checkout carries the migrations and the
browser client inside ``app`` and installs no other top-level name; installed into a fresh
virtualenv, its ``fiveup migrate`` and ``fiveup serve`` work from an unrelated directory.
Also ``fiveup serve --workers N`` and the WebSocket compression setting.

The fresh virtualenv gets the wheel alone (``--no-deps``); its dependencies are made
visible by a ``.pth`` line naming this interpreter's site-packages (a line of a ``.pth``
file adds the folder but runs none of the ``.pth`` files inside it, so an editable
install of this checkout found there is not imported). Building the wheel goes through
pip's ordinary isolated build, so it needs setuptools, wheel and mypy (whose mypyc
compiles the move path, setup.py) from the configured package index, and a C compiler.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import time
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import websockets.sync.client

import app.core.resources
import app.db.migrate
from app.core.native import NATIVE

from .support import REPO, free_port

#: What the copy of the checkout the wheel is built from leaves out (as .gitignore does).
_NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".venv-native",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.pyc",
    "*.db",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "test-artifacts",
)


@dataclass(frozen=True)
class Installed:
    """The built wheel and a virtualenv it is installed in."""

    wheel: Path
    venv: Path

    @property
    def fiveup(self) -> Path:
        return self.venv / "bin" / "fiveup"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would point back at this checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("FIVEUP_")
        and k not in {"PYTHONPATH", "DATABASE_URL", "VIRTUAL_ENV", "PYTHONHOME"}
    }
    env["FIVEUP_NEXT_ROUND_SECONDS"] = "0"
    return {**env, **extra}


def _build_and_install(root: Path, **env: str) -> tuple[Installed, str]:
    """Build the wheel of a copy of this checkout (with ``env`` for the build), install
    it alone into a fresh virtualenv; also what the build printed."""
    source = root / "source"
    shutil.copytree(REPO, source, ignore=_NOT_SOURCE)
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--verbose",
            "--wheel-dir",
            str(root / "dist"),
            str(source),
        ],
        cwd=root,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (root / "dist").glob("fiveup-*.whl")

    env_dir = root / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "fiveup_test_deps.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))
    inst = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--quiet",
            str(wheel),
        ],
        cwd=root,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert inst.returncode == 0, inst.stdout + inst.stderr
    return Installed(wheel=wheel, venv=env_dir), built.stdout + built.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel as ``pip wheel .`` builds it here (its move path compiled)."""
    return _build_and_install(tmp_path_factory.mktemp("wheel"))[0]


def _build_of(installed: Installed, cwd: Path) -> str:
    """What the installed package's start-up log says of its build."""
    return subprocess.run(
        [installed.python, "-c", "from app.core.native import describe_build as d; print(d())"],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@contextlib.contextmanager
def _serving(
    installed: Installed, cwd: Path, port: int, *args: str, **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """``fiveup serve`` of the installed wheel, healthy, stopped with SIGTERM afterwards."""
    log = cwd / f"serve-{port}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [installed.fiveup, "serve", "--port", str(port), *args],
            cwd=cwd,
            env=_clean_env(**env),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"fiveup serve did not become healthy:\n{log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.2)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)


def _offered_extensions(port: int) -> str | None:
    """The Sec-WebSocket-Extensions the server answers a client offering deflate with."""
    with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws/tables/NOSUCH") as ws:
        assert ws.response is not None
        return ws.response.headers.get("Sec-WebSocket-Extensions")


def test_the_wheel_installs_only_the_app_package_with_migrations_and_client(
    installed: Installed,
) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert {n.split("/", 1)[0] for n in names} == {"app", "fiveup-0.1.0.dist-info"}
    top_level = [n for n in names if n.endswith(".dist-info/top_level.txt")]
    assert [zipfile.ZipFile(installed.wheel).read(n).split() for n in top_level] == [[b"app"]]
    record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    recorded = {
        line.split(",", 1)[0]
        for line in zipfile.ZipFile(installed.wheel).read(record).decode().splitlines()
    }
    assert {r.split("/", 1)[0] for r in recorded} == {"app", "fiveup-0.1.0.dist-info"}
    # Every file of migrations/ and static/, and every module of app/ (a new
    # sub-package must be listed in pyproject.toml's [tool.setuptools] packages).
    expected = {
        f"app/{p.relative_to(REPO).as_posix()}"
        for folder in ("migrations", "static")
        for p in (REPO / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    expected |= {p.relative_to(REPO).as_posix() for p in (REPO / "app").rglob("*.py")}
    assert expected - set(names) == set()
    # The move path compiled (setup.py), inside the package: each module's extension
    # beside its source, and their shared runtime under app/ too.
    extensions = {n.split(".", 1)[0].replace("/", ".") for n in names if n.endswith(".so")}
    assert extensions == {*NATIVE, "app.native__mypyc"}


def test_the_installed_wheel_runs_its_move_path_compiled(
    installed: Installed, tmp_path: Path
) -> None:
    assert _build_of(installed, tmp_path) == (
        f"the move path runs compiled ({len(NATIVE)} modules, mypyc)"
    )


def test_without_a_c_compiler_the_wheel_is_pure_python_and_plays_by_the_rules(
    tmp_path: Path,
) -> None:
    """setup.py's fallback: a build whose C compile fails warns and leaves the package
    pure Python, which passes every rules fixture (R1–R26) all the same."""
    pure, printed = _build_and_install(tmp_path, CC="false")
    assert "fiveup: building pure Python (the C compile failed" in printed
    assert [n for n in zipfile.ZipFile(pure.wheel).namelist() if n.endswith(".so")] == []
    assert _build_of(pure, tmp_path).startswith("the move path runs as Python")
    fixtures = REPO / "tests" / "conformance" / "fixtures"
    checked = subprocess.run(
        [pure.python, "-m", "app.engine.conformance", str(fixtures)],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_installed_wheel_migrates_and_serves_from_any_directory(
    installed: Installed, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [installed.python, "-c", "import app; print(app.__file__)"],
        cwd=elsewhere,
        env=_clean_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(installed.venv), where  # not this checkout's app

    db = tmp_path / "x.db"
    migrated = subprocess.run(
        [installed.fiveup, "migrate"],
        cwd=elsewhere,
        env=_clean_env(DATABASE_URL=f"sqlite:///{db}"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    with contextlib.closing(sqlite3.connect(db)) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"game_tables", "players", "table_events", "alembic_version"} <= tables

    port = free_port()
    with _serving(installed, elsewhere, port, DATABASE_URL=f"sqlite:///{db}"):
        base = f"http://127.0.0.1:{port}"
        index = httpx.get(f"{base}/", timeout=10)
        assert index.status_code == 200 and "text/html" in index.headers["content-type"]
        assert '<script type="module" src="/static/js/main.js">' in index.text
        main_js = httpx.get(f"{base}/static/js/main.js", timeout=10)
        assert main_js.status_code == 200 and "import" in main_js.text
        created = httpx.post(
            f"{base}/api/tables", timeout=10, json={"name": "wheel", "players": 2, "host_name": "W"}
        )
        assert created.status_code == 201
        assert _offered_extensions(port) is None  # permessage-deflate is off by default
    assert not (elsewhere / "fiveup.db").exists() and list(elsewhere.glob("*.db")) == []


def _worker_pids(supervisor: int) -> list[int]:
    """uvicorn's worker processes: the supervisor's children started by multiprocessing."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    workers = []
    for pid in children:
        with contextlib.suppress(FileNotFoundError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                workers.append(int(pid))
    return workers


def test_serve_with_two_workers_runs_two_processes_on_postgres_with_deflate_on_request(
    installed: Installed, pg_url: str, tmp_path: Path
) -> None:
    port = free_port()
    with _serving(
        installed, tmp_path, port, "--workers", "2", DATABASE_URL=pg_url, FIVEUP_WS_DEFLATE="true"
    ) as proc:
        deadline = time.monotonic() + 60
        while len(_worker_pids(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_worker_pids(proc.pid)) == 2
        codes = {
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=10).status_code
            for _ in range(20)
        }
        assert codes == {200}
        assert "permessage-deflate" in (_offered_extensions(port) or "")


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--workers", "2"],
        cwd=REPO,
        env=_clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/x.db"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and "needs PostgreSQL" in refused.stderr
    assert not (tmp_path / "x.db").exists()  # refused before migrating anything


@pytest.mark.parametrize("module", [app.core.resources, app.db.migrate])
def test_resource_lookup_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0
