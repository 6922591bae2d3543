"""The type aliases every layer shares (the engine included: it imports nothing else of
ours).

>>> value: Json = {"type": "ack", "seq": 3}
>>> value["seq"]
3
"""

from __future__ import annotations

from typing import Any

#: a JSON object as Python holds it: a frame, a view, a stored event's payload
Json = dict[str, Any]
