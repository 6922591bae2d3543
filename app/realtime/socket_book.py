"""Which client address each open socket of this process came from, by table — what a
table's host removing someone and the operator's page need, and nothing else needs.

Addresses are kept only as their hashes (``address_key``, app/tables/moderation.py) and
only while the socket is open. The book is this process's own: with several server
processes a host's removal closes the sockets here, and the block (stored) keeps the
removed person out of every process from their next connection on.
"""

from __future__ import annotations

from app.realtime.connection import Connection


class SocketBook:
    """Open sockets of this process by table, with their address hashes."""

    def __init__(self) -> None:
        self._by_table: dict[int, dict[Connection, str]] = {}

    def add(self, conn: Connection, address_hash: str) -> None:
        self._by_table.setdefault(conn.table_id, {})[conn] = address_hash

    def remove(self, conn: Connection) -> None:
        conns = self._by_table.get(conn.table_id)
        if conns is not None:
            conns.pop(conn, None)
            if not conns:
                del self._by_table[conn.table_id]

    def addresses_of_seat(self, table_id: int, seat: int) -> set[str]:
        """The address hashes of the sockets that hold ``seat`` here."""
        return {a for c, a in self._by_table.get(table_id, {}).items() if c.seat == seat}

    def close(
        self,
        table_id: int,
        address_hashes: set[str],
        code: int,
        reason: str,
        player_id: int | None = None,
    ) -> int:
        """Close (after their queued frames) this table's sockets from these addresses
        that hold no seat, or hold ``player_id``'s; how many. Another seat's socket from
        the same address (one home router) stays."""
        closing = [
            c
            for c, a in self._by_table.get(table_id, {}).items()
            if a in address_hashes
            and c.closing is None
            and (c.player_id is None or c.player_id == player_id)
        ]
        for conn in closing:
            conn.close_after(code, reason)
        return len(closing)

    def close_table(self, table_id: int, code: int, reason: str) -> int:
        """Close every socket of the table here; how many."""
        closing = [c for c in self._by_table.get(table_id, {}) if c.closing is None]
        for conn in closing:
            conn.close_after(code, reason)
        return len(closing)
