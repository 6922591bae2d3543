"""Compact JSON with orjson: what goes on the wire (bytes) and into JSONB parameters (text).

Keys that are not strings (a seat number) are written as strings. A value without any
is encoded without orjson's option for them, which costs it twice the time.

>>> json_bytes({"a": [1, None]}), json_text({"scores": {0: 5}})
(b'{"a":[1,null]}', '{"scores":{"0":5}}')
"""

from __future__ import annotations

from typing import Any

import orjson


def json_bytes(obj: Any) -> bytes:
    """``obj`` as compact JSON, UTF-8 encoded (keys that are not strings written as
    strings): orjson's own output, never decoded."""
    try:
        return orjson.dumps(obj)
    except orjson.JSONEncodeError:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def json_text(obj: Any) -> str:
    """``obj`` as compact JSON text (:func:`json_bytes`, decoded)."""
    return json_bytes(obj).decode()
