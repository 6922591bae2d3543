"""Per-table locks (app/core/locks.py): one holder at a time per key, none kept after."""

from __future__ import annotations

import asyncio

import pytest

from app.core.locks import KeyedLocks


async def test_one_holder_at_a_time_per_key_and_other_keys_run_side_by_side() -> None:
    locks = KeyedLocks()
    order: list[str] = []

    async def hold(key: int, name: str) -> None:
        async with locks(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold(1, "a"), hold(1, "b"), hold(2, "c"))
    assert order.index("a out") < order.index("b in")  # same key: one after the other
    assert order.index("c in") < order.index("a out")  # another key: not held up
    assert locks.held() == []


async def test_a_waiter_cancelled_while_waiting_leaves_no_lock_behind() -> None:
    locks = KeyedLocks()
    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks(5):
            entered.set()
            await release.wait()

    async def waiter() -> None:
        async with locks(5):
            pytest.fail("the cancelled waiter must not get the lock")

    first = asyncio.create_task(holder())
    await entered.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    assert locks.held() == [5]  # still held by the first
    release.set()
    await first
    assert locks.held() == []


async def test_an_error_inside_releases_the_lock() -> None:
    locks = KeyedLocks()
    with pytest.raises(ValueError):
        async with locks(3):
            raise ValueError("boom")
    async with locks(3):
        assert locks.held() == [3]
    assert locks.held() == []


async def test_a_waiter_cancelled_once_the_lock_was_handed_to_it_passes_it_on() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    entered, proceed = asyncio.Event(), asyncio.Event()
    tasks: dict[str, asyncio.Task[None]] = {}

    async def holder() -> None:
        async with locks(9):
            entered.set()
            await proceed.wait()
        tasks["second"].cancel()  # handed the lock by the release above, before it ran

    async def waiter(name: str) -> None:
        async with locks(9):
            order.append(name)

    first = asyncio.create_task(holder())
    await entered.wait()
    tasks["second"] = asyncio.create_task(waiter("second"))
    third = asyncio.create_task(waiter("third"))
    await asyncio.sleep(0)  # both wait now
    proceed.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await tasks["second"]
    await asyncio.wait_for(third, 2)  # (a lock kept by the cancelled one: a timeout)
    assert order == ["third"] and locks.held() == []


async def test_waiters_get_the_lock_in_the_order_they_came() -> None:
    locks = KeyedLocks()
    order: list[int] = []

    async def take(n: int) -> None:
        async with locks(4):
            order.append(n)
            await asyncio.sleep(0)

    await asyncio.gather(*(take(n) for n in range(6)))
    assert order == list(range(6)) and locks.held() == []
