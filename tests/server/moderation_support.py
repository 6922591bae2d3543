"""Helpers of the moderation tests: a server that believes ``X-Forwarded-For`` from
127.0.0.1 (so each client can be another address), with an operator token."""

from __future__ import annotations

import itertools
from typing import Any

import websockets

from .hardening_support import HardenedServer
from .support import WsClient

OPERATOR = "operator-secret-for-tests-0123456789"
_addresses = itertools.count(1)


def new_address() -> str:
    """A fresh client address (TEST-NET-2) for one test's person."""
    n = next(_addresses)
    return f"198.51.{n // 250}.{n % 250 + 1}"


def as_address(address: str, **headers: str) -> dict[str, str]:
    return {"X-Forwarded-For": address, **headers}


def moderation_server(pg_url: str, **env: str) -> HardenedServer:
    return HardenedServer(
        pg_url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_OPERATOR_TOKEN=OPERATOR,
        FIVEUP_RATE_LIMIT_REPORTS="3/hour",
        FIVEUP_MODERATION_REFRESH_SECONDS="0.5",
        FIVEUP_RATE_LIMIT_SOCKET_CHAT="100/second",
        **env,
    )


class AddressedClient(WsClient):
    """A recording WebSocket client from a given client address."""

    def __init__(self, url: str, address: str, label: str = "") -> None:
        super().__init__(url, label)
        self.address = address

    async def connect(self) -> AddressedClient:
        import asyncio

        self.conn = await websockets.connect(
            self.url, max_size=2**24, additional_headers=as_address(self.address)
        )
        self.closed = None
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda c: c.last_seq >= 0 or c.closed is not None)
        return self


def chat_seqs(client: WsClient) -> list[tuple[int, dict[str, Any]]]:
    return [
        (f["seq"], f["event"])
        for f in client.frames
        if f["type"] == "event" and f["event"]["type"] == "chat"
    ]
