"""Where the files that ship with the server live: the Alembic migrations and the browser
client. An installed wheel (``pip install .``) carries them inside the package as
``app/migrations`` and ``app/static`` (pyproject.toml maps the repository's top-level
``migrations/`` and ``static/`` there at build time); a checkout or an editable install
uses those top-level folders themselves. Nothing here depends on the working directory.

>>> (bundled_dir("migrations") / "env.py").is_file()
True
>>> (bundled_dir("static") / "index.html").is_file()
True
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Literal

#: The checkout's root (two levels above this file), used when running from a checkout.
REPO_ROOT = Path(__file__).resolve().parents[2]

Bundled = Literal["migrations", "static"]


def bundled_dir(name: Bundled) -> Path:
    """The folder ``name`` inside the installed package, else the checkout's one."""
    packaged = files("app") / name
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return REPO_ROOT / name
