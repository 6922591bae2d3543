"""Compact JSON text with orjson: what goes on the wire and into JSONB parameters.

Keys that are not strings (a seat number) are written as strings. A value without any
is encoded without orjson's option for them, which costs it twice the time.

>>> json_text({"a": [1, None]}), json_text({"scores": {0: 5}})
('{"a":[1,null]}', '{"scores":{"0":5}}')
"""

from __future__ import annotations

from typing import Any

import orjson


def json_text(obj: Any) -> str:
    """``obj`` as compact JSON text (keys that are not strings written as strings)."""
    try:
        return orjson.dumps(obj).decode()
    except orjson.JSONEncodeError:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
