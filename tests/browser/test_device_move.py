"""Rejoin from any device (issue 9): a player opens their personal "Play on another device"
link in a NEW browser context and plays on from where they were; the old context shows
"this seat moved to another device" and does not reconnect with the dead token."""

from __future__ import annotations

import random

from .conftest import shot
from .flows import act, hand, my_turn, round_over, seq_of, start_two_player_game, sync


def test_the_absent_player_plays_on_from_a_new_device_and_the_old_one_is_told(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    rng = random.Random(17)
    ann, bob, code = start_two_player_game(new_page)
    for _ in range(3):  # a few moves into the round
        sync([ann, bob])
        actor = ann if my_turn(ann) else bob
        if my_turn(actor):
            act(actor, rng)
    sync([ann, bob])
    before_hand = sorted(hand(bob))
    # Bob asks for his personal link (the seat panel under the board)
    bob.click("[data-testid=seat-panel] summary")
    bob.click("[data-testid=another-device]")
    link = bob.input_value("[data-testid=device-link]")
    assert f"/t/{code}#seat=" in link and "?" not in link

    phone = new_page(390, 800)  # a new browser context: its own localStorage
    phone.goto(link)
    phone.wait_for_selector("[data-testid=play]")
    phone.wait_for_function(f"Number(document.body.dataset.seq) >= {seq_of(ann)}")
    assert "#" not in phone.url  # the credential left the address bar at once
    assert sorted(hand(phone)) == before_hand  # the same seat, the same hand
    assert phone.query_selector("[data-testid=spectating]") is None

    # the old device is told, and stays told (no reconnect with the revoked token)
    bob.wait_for_selector("[data-testid=seat-moved]")
    assert "moved to another device" in bob.text_content("[data-testid=seat-moved]").lower()
    assert bob.evaluate(f"localStorage.getItem('fiveup.seat.{code}')") is None
    shot(bob, "device-moved-old")
    shot(phone, "device-moved-new")

    # Ann and Bob's new device play on to the end of the round
    pages = [ann, phone]
    for _ in range(300):
        sync(pages)
        if all(round_over(p) for p in pages):
            break
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            ann.wait_for_timeout(100)
            continue
        act(actor, rng)
    assert all(round_over(p) for p in pages)
    bob.wait_for_timeout(500)
    assert bob.query_selector("[data-testid=seat-moved]") is not None  # still there


def test_resign_by_button_then_the_host_replaces_the_player_with_a_computer(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    """Two players: Bob resigns with the Resign button (after a confirmation); both see
    the match end with "Bob resigned", Ann (the host) replaces Bob by a computer player,
    and Bob's page watches on."""
    ann, bob, _code = start_two_player_game(new_page)
    bob.on("dialog", lambda d: d.accept())
    bob.click("[data-testid=seat-panel] summary")
    bob.click("[data-testid=resign]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=match-end]")
        assert "Bob resigned" in p.text_content("[data-testid=resigned-note]")
    assert ann.get_attribute("[data-testid=winner]", "data-side") == "0"
    shot(ann, "device-resigned")
    assert bob.query_selector("[data-testid=replace-0]") is None  # only the host replaces
    ann.click("[data-testid=replace-1] button >> nth=0")  # a computer player
    ann.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=seat-notice]')]"
        ".some(e => e.textContent.includes('computer player'))"
    )
    bob.wait_for_selector("[data-testid=spectating]")
