"""The socket send deadline is kept by one timer per event loop (app/api/send_watch.py):
a send that is not over in time is cancelled as overdue, a send that is over in time is
left alone however many more come after it, and a cancellation from elsewhere (a writer
stopped) is never taken for an overdue send. The whole path through a real server is
tests/server/test_socket_limits.py::test_a_socket_that_never_reads_is_cut_off."""

from __future__ import annotations

import asyncio

import pytest

from app.api.send_watch import send_watch


async def _send(duration: float, timeout: float) -> str:
    """A send taking ``duration`` seconds under a ``timeout`` deadline."""
    sent = await send_watch().run(asyncio.sleep(duration), timeout)
    return "sent" if sent else "overdue"


async def test_only_the_sends_past_their_deadline_are_cut_off() -> None:
    results = await asyncio.gather(
        _send(0.0, 0.2),
        _send(0.05, 0.2),
        _send(5.0, 0.1),  # the earliest deadline
        _send(5.0, 0.3),  # a later one: the timer is armed again for it
        _send(0.01, 0.05),
    )
    assert results == ["sent", "sent", "overdue", "overdue", "sent"]


async def test_a_send_finished_in_time_is_never_cancelled_later() -> None:
    assert await _send(0.0, 0.05) == "sent"
    await asyncio.sleep(0.1)  # past the deadline it had: the timer finds nothing to do
    assert await _send(0.01, 0.2) == "sent"


async def test_a_cancellation_from_elsewhere_is_not_taken_for_a_deadline() -> None:
    task = asyncio.get_running_loop().create_task(_send(5.0, 10.0))
    await asyncio.sleep(0.01)
    task.cancel()  # as Writer.stop does
    with pytest.raises(asyncio.CancelledError):
        await task
