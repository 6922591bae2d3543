"""The WebSocket protocol ``fiveup serve`` runs: uvicorn's sans-I/O one, with a text
frame that is not UTF-8 refused quietly.

uvicorn answers such a frame with close code 1007 but logs an ERROR with a traceback
for each (any client could fill the log with them), and when the client's close frame
arrives in the same read the close it tries to send raises and the event loop logs a
"Fatal error on transport" traceback instead. Here the frame is dropped: the socket is
closed with **1007** if it is still open, and nothing is logged (docs/protocol.md).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN

CLOSE_BAD_TEXT = 1007


class QuietWebSocketsProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol; a text message that is not UTF-8 closes 1007 quietly."""

    def send_receive_event_to_app(self) -> None:
        frames = self.frames
        if (
            self.curr_msg_data_type == "text"
            and not self.close_sent
            and not (len(frames) == 1 and frames[0].isascii())  # (almost every frame)
            and not _is_utf8(b"".join(frames))
        ):
            self.frames = []
            if self.conn.state is OPEN:
                self.conn.send_close(CLOSE_BAD_TEXT, "text frames are UTF-8")
                self.handle_parser_exception()  # (tells the app, writes the close)
            return  # (a close already under way: the frame is dropped)
        super().send_receive_event_to_app()


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True
