"""Seat tokens, table codes and display-name validation.

>>> len(new_table_code()), set(new_table_code()) <= set(CODE_ALPHABET)
(6, True)
>>> hash_token("abc") == hash_token("abc") != hash_token("abd")
True
>>> clean_name("  Ann  ")
'Ann'
>>> clean_name("a\\x00b")
Traceback (most recent call last):
...
ValueError: name must not contain control characters
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

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


def normalise_code(code: str) -> str:
    """Codes are case-insensitive on input."""
    return code.strip().upper()


def clean_name(raw: str, max_len: int = NAME_MAX) -> str:
    """Validate a display/table name: strip, 1..max_len chars, no control characters.

    Names are plain text; escaping is the renderer's job. Raises ValueError.
    """
    if not isinstance(raw, str):
        raise ValueError("name must be a string")
    name = raw.strip()
    if not name:
        raise ValueError("name must not be empty")
    if len(name) > max_len:
        raise ValueError(f"name must be at most {max_len} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in name):
        raise ValueError("name must not contain control characters")
    return name
