"""Table chat: a message from a seat or a spectator, and the host's switch for
the spectators' channel. Every message is a table event (kind ``chat``) written by the one
write path, so it is stored, numbered (seq) and delivered like any other event.

A message is either plain text — cleaned up as names are (``app.core.names.visible_text``:
control and invisible characters dropped, spaces plain), then 1..``CHAT_MAX`` characters —
or a quick-message code from :data:`QUICK` (the client shows it in its language). Seated
players post to the ``table`` channel, spectators to the ``spectators`` channel, which the
host can turn off (``chat_off``). Chat carries no hidden information: only what its author
typed and the author's seat (``None`` for a spectator).

>>> ChatRequest.parse("  hi\\u200b there ", None)
ChatRequest(text='hi there', quick=None)
>>> ChatRequest.parse(None, "gg")
ChatRequest(text=None, quick='gg')
>>> ChatRequest.parse("\\u200b", None)
Traceback (most recent call last):
...
app.tables.errors.TableError: chat text must show 1 to 200 characters
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.names import visible_text
from app.db.rows import PlayerState
from app.tables.change import TableChange
from app.tables.errors import TableError

#: the longest chat text, in characters after clean-up
CHAT_MAX = 200
#: the longest text accepted before clean-up (a frame is at most 16 KiB anyway)
CHAT_RAW_MAX = 1000
#: quick messages and emotes: codes the client shows in its language (static/js/ui/chat.js)
QUICK: tuple[str, ...] = (
    "good_move",
    "well_played",
    "hurry_up",
    "thanks",
    "gg",
    "oops",
    "hello",
    "emote_smile",
    "emote_laugh",
    "emote_wow",
    "emote_sad",
    "emote_thumbs_up",
    "emote_clap",
)
#: the event kinds a move's ``seq`` may be behind by without being ``stale``: they change
#: nothing a move is decided on
CHAT_KINDS = frozenset({"chat", "spectator_chat"})


@dataclass(slots=True)
class ChatRequest:
    """A chat message as a client sent it, checked and cleaned (exactly one of the two)."""

    text: str | None
    quick: str | None

    @classmethod
    def parse(cls, text: Any, quick: Any) -> ChatRequest:
        if (text is None) == (quick is None):
            raise TableError("bad_message", "a chat message has either text or quick", 400)
        if quick is not None:
            if not isinstance(quick, str) or quick not in QUICK:
                raise TableError("bad_message", f"quick must be one of {', '.join(QUICK)}", 400)
            return cls(None, quick)
        if not isinstance(text, str) or len(text) > CHAT_RAW_MAX:
            raise TableError("bad_chat", f"chat text must show 1 to {CHAT_MAX} characters", 400)
        clean = visible_text(text)
        if not 1 <= len(clean) <= CHAT_MAX:
            raise TableError("bad_chat", f"chat text must show 1 to {CHAT_MAX} characters", 400)
        return cls(clean, None)


def post(tx: TableChange, player: PlayerState | None, req: ChatRequest) -> None:
    """Post ``req`` for ``player`` (``None``: a spectator) as one ``chat`` event."""
    if player is None and not tx.table.spectator_chat:
        raise TableError("chat_off", "the host has turned spectator chat off", 403)
    payload: dict[str, Any] = {
        "type": "chat",
        "seat": player.seat if player else None,
        "channel": "table" if player else "spectators",
    }
    if req.quick is not None:
        payload["quick"] = req.quick
    else:
        payload["text"] = req.text
    tx.emit("chat", payload, seat=player.seat if player else None, player=player)


def set_spectator_chat(tx: TableChange, player: PlayerState, on: object) -> None:
    """The host turns the spectators' channel on or off (no event if nothing changes)."""
    if not isinstance(on, bool):
        raise TableError("bad_message", "on must be true or false", 400)
    if player.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can turn spectator chat on or off", 403)
    if tx.table.spectator_chat == on:
        return
    tx.table.spectator_chat = on
    tx.emit(
        "spectator_chat",
        {"type": "spectator_chat", "seat": player.seat, "on": on},
        seat=player.seat,
        player=player,
    )
