"""Seat tokens, table codes and display-name validation.

>>> len(new_table_code()), set(new_table_code()) <= set(CODE_ALPHABET)
(6, True)
>>> hash_token("abc") == hash_token("abc") != hash_token("abd")
True
>>> clean_name("  Ann  ")
'Ann'
>>> clean_name("a\\x00b")
'ab'
>>> clean_name("\\u2800")
Traceback (most recent call last):
...
app.core.names.NothingVisible: name must contain a visible letter or digit
"""

from __future__ import annotations

import hashlib
import re
import secrets

from app.core.names import visible_name

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 24
TABLE_NAME_MAX = 40


def new_token() -> str:
    """A fresh secret seat token (shown once to its owner)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database stores for a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_table_code() -> str:
    """A short, unambiguous table code (uniqueness is checked by the caller)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str | None:
    """Codes are case-insensitive on input; anything not shaped like a code is None.

    >>> normalise_code(" k7qx2m "), normalise_code("../x"), normalise_code("A\\x00")
    ('K7QX2M', None, None)
    """
    c = code.strip().upper()
    if len(c) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in c):
        return None
    return c


_MOVE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def valid_move_id(move_id: object) -> bool:
    """Client move ids: 1-64 characters of ``[A-Za-z0-9_.:-]`` (uuids fit)."""
    return isinstance(move_id, str) and _MOVE_ID.fullmatch(move_id) is not None


def clean_name(raw: str, max_len: int = NAME_MAX) -> str:
    """A display/table name as stored: at most ``max_len`` characters as sent, cleaned up
    by ``app.core.names.visible_name`` (invisible and control characters dropped, spaces
    plain, combining marks limited; a visible letter or digit must remain). NFC.

    Names are plain text; escaping is the renderer's job. Raises ValueError.
    """
    if not isinstance(raw, str):
        raise ValueError("name must be a string")
    if len(raw.strip()) > max_len:
        raise ValueError(f"name must be at most {max_len} characters")
    return visible_name(raw)
