"""The profile store on PostgreSQL and on SQLite: a profile with its passkey, handles
unique by their look-alike key, sessions that end one by one or all together, one-time
sign-in links and ceremonies that work once and expire, and deletion that erases it all."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from app.db.profile_rows import Ceremony, NewPasskey
from app.db.profile_store import CoreProfileStore, HandleTaken, make_profile_store


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[CoreProfileStore]:
    s = make_profile_store(db_url)
    yield s
    await s.close()


def _key() -> str:
    return secrets.token_hex(16)


async def _profile(store: CoreProfileStore) -> tuple[int, str]:
    handle_key, credential = _key(), _key()
    profile = await store.create_profile(
        "Ann" + handle_key[:4], handle_key, "Ann", _key(), NewPasskey(credential, "pk", 0)
    )
    return profile.id, credential


NOW = datetime.now(UTC)


async def test_a_profile_is_stored_with_its_passkey_and_a_taken_handle_key_is_refused(
    store: CoreProfileStore,
) -> None:
    profile_id, credential = await _profile(store)
    got = await store.profile(profile_id)
    assert got is not None and got.display_name == "Ann"
    key = await store.passkey(credential)
    assert key is not None and key.profile_id == profile_id and key.sign_count == 0
    await store.used_passkey(key.id, 7)
    again = await store.passkey(credential)
    assert again is not None and again.sign_count == 7 and again.last_used_at is not None
    handle_key = _key()
    assert await store.handle_free(handle_key)
    await store.create_profile("x", handle_key, "X", _key(), NewPasskey(_key(), "pk", 0))
    assert not await store.handle_free(handle_key)
    with pytest.raises(HandleTaken):
        await store.create_profile("y", handle_key, "Y", _key(), NewPasskey(_key(), "pk", 0))


async def test_sessions_end_one_by_one_or_everywhere_and_expire(store: CoreProfileStore) -> None:
    profile_id, _ = await _profile(store)
    tokens = [_key() for _ in range(3)]
    for token in tokens:
        await store.add_session(profile_id, token, NOW + timedelta(days=1), NOW, keep=5)
    old = _key()
    await store.add_session(profile_id, old, NOW - timedelta(seconds=1), NOW, keep=5)
    assert await store.session_profile(old, NOW) is None
    found = await store.session_profile(tokens[0], NOW)
    assert found is not None and found.id == profile_id
    assert await store.sessions_of(profile_id, NOW) == 3
    assert await store.end_session(tokens[0]) and not await store.end_session(tokens[0])
    assert await store.session_profile(tokens[0], NOW) is None
    assert await store.end_sessions(profile_id) == 2  # the two left (the expired one went)
    assert await store.session_profile(tokens[1], NOW) is None


async def test_a_profile_keeps_its_newest_sessions_and_a_new_one_past_the_cap_ends_the_oldest(
    store: CoreProfileStore,
) -> None:
    profile_id, _ = await _profile(store)
    tokens = [_key() for _ in range(5)]
    for token in tokens:
        await store.add_session(profile_id, token, NOW + timedelta(days=1), NOW, keep=3)
    signed_in = [await store.session_profile(t, NOW) is not None for t in tokens]
    assert signed_in == [False, False, True, True, True]
    assert await store.sessions_of(profile_id, NOW) == 3
    other, _ = await _profile(store)
    await store.add_session(other, _key(), NOW + timedelta(days=1), NOW, keep=1)
    assert await store.sessions_of(profile_id, NOW) == 3  # another profile's cap is its own


async def test_a_sign_in_link_works_once_and_not_after_it_expires(store: CoreProfileStore) -> None:
    profile_id, _ = await _profile(store)
    link, stale = _key(), _key()
    await store.add_link(profile_id, link, NOW + timedelta(minutes=5), NOW)
    await store.add_link(profile_id, stale, NOW + timedelta(minutes=1), NOW)
    results = await asyncio.gather(*(store.take_link(link, NOW) for _ in range(4)))
    assert sorted(results, key=str) == [profile_id, None, None, None]
    assert await store.take_link(stale, NOW + timedelta(minutes=2)) is None
    assert await store.take_link(_key(), NOW) is None


async def test_a_ceremony_is_taken_once_and_expired_ones_are_gone(store: CoreProfileStore) -> None:
    ceremony = Ceremony("register", "Y2hhbGxlbmdl", "ann", "Ann", "dXNlcg")
    h, late = _key(), _key()
    await store.add_ceremony(h, ceremony, NOW + timedelta(minutes=5), NOW)
    await store.add_ceremony(late, ceremony, NOW + timedelta(seconds=1), NOW)
    assert await store.take_ceremony(h, NOW) == ceremony
    assert await store.take_ceremony(h, NOW) is None
    assert await store.take_ceremony(late, NOW + timedelta(seconds=2)) is None


async def test_deleting_a_profile_erases_its_passkeys_sessions_and_links(
    store: CoreProfileStore,
) -> None:
    profile_id, credential = await _profile(store)
    session, link = _key(), _key()
    await store.add_session(profile_id, session, NOW + timedelta(days=1), NOW, keep=5)
    await store.add_link(profile_id, link, NOW + timedelta(minutes=5), NOW)
    assert await store.delete_profile(profile_id)
    assert not await store.delete_profile(profile_id)
    assert await store.profile(profile_id) is None
    assert await store.passkey(credential) is None
    assert await store.passkeys_of(profile_id) == []
    assert await store.session_profile(session, NOW) is None
    assert await store.take_link(link, NOW) is None
