"""The hidden-information oracle (R5, R22).

For a recipient (a seat, or ``None`` for a spectator) at table seq ``k`` the tiles it may
know are: the tiles on the layout, its own hand (which includes what it drew), and —
once the round is settled — every hand (R22). The stock and other hands never.

The check walks *every* string (keys and values) of *every* frame a recipient received,
extracts every tile notation in it, and checks each tile against the set known to that
recipient at the frame's seq, using the true state at that seq (replayed through the
engine from the stored events: ``support.replay_states``).

It also rebuilds the recipient's view from its snapshot and the patches that follow, as
a client written from docs/protocol.md would, and checks that at every frame carrying a
view or a patch the rebuilt view is exactly the engine's projection of the true state
for that recipient (``view_for``, descriptions aside).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from app.engine import Match, view_for

from .support import apply_patch

DESCRIPTIONS = ("description", "description_uk")

TILE = re.compile(r"(?<![0-9])([0-6])\s*\|\s*([0-6])(?![0-9])")


def strings(obj: Any) -> Iterator[str]:
    """Every string in a JSON value, dict keys included."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings(v)


def tiles_named(obj: Any) -> set[str]:
    """Every tile notation named anywhere in ``obj`` (normalised low|high)."""
    found: set[str] = set()
    for s in strings(obj):
        for a, b in TILE.findall(s):
            lo, hi = sorted((int(a), int(b)))
            found.add(f"{lo}|{hi}")
    return found


def known_tiles(state: dict[str, Any] | None, recipient: int | None) -> set[str]:
    """Tiles ``recipient`` may know given the true state (engine ``to_dict`` format)."""
    if state is None:
        return set()
    rnd = state["round"]
    known = set(tiles_named(rnd["layout"]))
    if recipient is not None:
        known |= set(rnd["hands"][recipient])
    if rnd["result"] is not None:  # settled: every hand is revealed (R22)
        for hand in rnd["hands"]:
            known |= set(hand)
    return known


def hidden_from(state: dict[str, Any], recipient: int | None) -> set[str]:
    """Tiles that must not appear: other hands and the stock (before settlement)."""
    all_tiles = {f"{a}|{b}" for a in range(7) for b in range(a, 7)}
    return all_tiles - known_tiles(state, recipient)


def check_frames(
    frames: list[dict[str, Any]],
    recipient: int | None,
    states: dict[int, dict[str, Any] | None],
    label: str,
) -> int:
    """Assert no frame names a tile unknown to ``recipient`` and every view the frames
    build is the true one; returns frames checked."""
    seq = None
    view: dict[str, Any] | None = None
    checked = 0
    for i, frame in enumerate(frames):
        kind = frame["type"]
        if kind == "event":  # gapless, increasing per recipient after its snapshot
            assert seq is not None and frame["seq"] == seq + 1, (label, i, seq, frame["seq"])
        if kind in ("snapshot", "event"):
            seq = frame["seq"]
        if kind == "snapshot":
            missed = frame.get("events", [])
            body = {k: v for k, v in frame.items() if k != "events"}
            for item in missed:
                _check(item, states[item["seq"]], recipient, f"{label} frame {i} missed")
            _check(body, states[seq], recipient, f"{label} frame {i}")
            view = frame["view"]
            _check_view(view, states[seq], recipient, f"{label} frame {i} (snapshot)")
        else:
            _check(
                frame,
                states.get(seq) if seq is not None else None,
                recipient,
                f"{label} frame {i} ({kind})",
            )
            if kind == "event" and ("view" in frame or "view_patch" in frame):
                if "view" in frame:
                    view = frame["view"]
                else:
                    assert view is not None, f"{label} frame {i}: a patch with no view"
                    view = apply_patch(view, frame["view_patch"])
                _check_view(view, states[frame["seq"]], recipient, f"{label} frame {i}")
        checked += 1
    return checked


def _check_view(
    view: dict[str, Any] | None, state: dict[str, Any] | None, recipient: int | None, where: str
) -> None:
    expected = view_for(Match.from_dict(state), recipient) if state is not None else None

    def strip(v: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if v is None else {k: x for k, x in v.items() if k not in DESCRIPTIONS}

    got, want = strip(view), strip(expected)
    if got != want:
        keys = sorted(
            k
            for k in (got or {}).keys() | (want or {}).keys()
            if (got or {}).get(k) != (want or {}).get(k)
        )
        detail = {k: ((got or {}).get(k), (want or {}).get(k)) for k in keys}
        raise AssertionError(f"{where}: the view is not the true projection: {detail}")


def _check(obj: Any, state: dict[str, Any] | None, recipient: int | None, where: str) -> None:
    named = tiles_named(obj)
    allowed = known_tiles(state, recipient)
    leaked = named - allowed
    assert not leaked, f"{where}: names {sorted(leaked)} unknown to recipient {recipient}"


# -- the provably fair deal's seed (docs/fairness.md) ----------------------------------------
def seed_forms(seed_hex: str, code: str, match: int, rnd: int) -> set[str]:
    """The seed and what is derived from it, as a frame could spell them: its hex (either
    case), base64, and the hex of the first blocks of the deal's HMAC stream. Only the
    commitment may be derived from a running round's seed and sent."""
    import base64
    import hmac as hmac_mod
    from hashlib import sha256

    seed = bytes.fromhex(seed_hex)
    context = f"fiveup-deal/v1|{code}|{match}|{rnd}"
    blocks = [hmac_mod.new(seed, f"{context}|{k}".encode(), sha256).hexdigest() for k in range(3)]
    return {
        seed_hex.lower(),
        seed_hex.upper(),
        base64.b64encode(seed).decode(),
        base64.urlsafe_b64encode(seed).decode().rstrip("="),
        *blocks,
        *(b[:32] for b in blocks),
    }


def running_seeds(
    events: dict[int, dict[str, Any]], code: str
) -> list[tuple[int, int, set[str], str]]:
    """Each dealt round's secret: ``(deal seq, reveal seq or a huge number while it
    runs, its forms, its seed hex)``, from the stored events."""
    out: list[tuple[int, int, set[str], str]] = []
    match_no = 0
    for seq in sorted(events):
        p = events[seq]["payload"]
        if p.get("type") in ("started", "rematch_started"):
            match_no = p["match"]
        if p.get("type") in ("started", "round_started", "rematch_started"):
            seed = p["deal"]["seed"]
            revealed = next(
                (
                    s
                    for s in sorted(events)
                    if s > seq
                    and events[s]["payload"].get("type") == "revealed"
                    and events[s]["payload"]["seed"] == seed
                ),
                10**9,
            )
            out.append((seq, revealed, seed_forms(seed, code, match_no, p["round"]), seed))
    return out


def check_no_running_seed(
    frames: list[dict[str, Any]],
    secrets: list[tuple[int, int, set[str], str]],
    label: str,
) -> int:
    """No frame sent while a round runs (its seq before the round's ``revealed`` event)
    contains that round's seed or anything derived from it but the commitment; returns
    how many (frame, running seed) pairs were checked."""
    seq = 0
    checked = 0
    for i, frame in enumerate(frames):
        seq = int(frame.get("seq", seq)) if frame["type"] in ("snapshot", "event") else seq
        text = [s for s in strings(frame)]
        for _dealt, revealed, forms, _seed in secrets:
            if seq >= revealed:
                continue
            for s in text:
                hit = next((f for f in forms if f in s), None)
                assert hit is None, f"{label} frame {i} (seq {seq}) leaks a running round's seed"
            checked += 1
    return checked
