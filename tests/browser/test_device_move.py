"""Rejoin from any device: a player opens their personal "Play on another device"
link in a NEW browser context and plays on from where they were; the old context shows
"this seat moved to another device" and does not reconnect with the dead token."""

from __future__ import annotations

import json
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


def _held_seat(page, code: str) -> int | None:  # type: ignore[no-untyped-def]
    raw = page.evaluate(f"localStorage.getItem('fiveup.seat.{code}')")
    return None if raw is None else int(json.loads(raw)["seat"])


def _open_and_answer(page, link: str, accept: bool) -> str:  # type: ignore[no-untyped-def]
    """Open ``link`` as a new page load and answer its one confirmation: its text."""
    asked: list[str] = []

    def answer(dialog) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", answer)
    page.goto("/")  # (from another path: a page load, not a fragment change)
    page.goto(link)
    page.wait_for_selector("[data-testid=play]")
    page.wait_for_function("(document.body.dataset.seq || '') !== ''")
    assert len(asked) == 1, asked
    return asked[0]


def test_a_link_to_another_seat_asks_before_this_browser_gives_its_seat_up(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    """Ann sends Bob the link to her own seat. Bob's browser holds seat 2 at the table:
    it asks first, naming both seats; Cancel keeps Bob's seat and claims nothing (the
    link still works), OK claims Ann's seat (and Ann's page is told)."""
    ann, bob, code = start_two_player_game(new_page)
    ann.click("[data-testid=seat-panel] summary")
    ann.click("[data-testid=another-device]")
    link = ann.input_value("[data-testid=device-link]")

    question = _open_and_answer(bob, link, accept=False)
    assert "Bob (seat 2)" in question and "Ann (seat 1)" in question
    bob.wait_for_selector("[data-testid=seat-notice]")
    assert "you keep Bob (seat 2)" in bob.text_content("[data-testid=seat-notice]")
    assert _held_seat(bob, code) == 1
    bob.wait_for_function(
        "() => window.__fiveupTest.view() && window.__fiveupTest.view().you === 1"
    )
    assert "#" not in bob.url
    credential = link.split("#seat=", 1)[1]
    still = bob.request.post(f"/api/tables/{code}/claim/seat", data={"link": credential})
    assert still.status == 200 and still.json()["seat"] == 0  # not claimed
    assert ann.query_selector("[data-testid=seat-moved]") is None
    shot(bob, "device-claim-kept")

    question = _open_and_answer(bob, link, accept=True)
    assert "Bob (seat 2)" in question and "Ann (seat 1)" in question
    bob.wait_for_function(
        "() => window.__fiveupTest.view() && window.__fiveupTest.view().you === 0"
    )
    assert _held_seat(bob, code) == 0
    ann.wait_for_selector("[data-testid=seat-moved]")


def test_a_link_opened_by_another_site_asks_before_claiming(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    bob.click("[data-testid=seat-panel] summary")
    bob.click("[data-testid=another-device]")
    link = bob.input_value("[data-testid=device-link]")
    other = new_page()  # holds no seat here
    asked: list[str] = []
    other.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    other.goto(link, referer="https://elsewhere.example/")
    other.wait_for_selector("[data-testid=seat-notice]")
    assert len(asked) == 1 and "Another site" in asked[0] and "Bob (seat 2)" in asked[0]
    assert _held_seat(other, code) is None
    assert bob.query_selector("[data-testid=seat-moved]") is None
    # opened from this site (no other site's page before it): claimed without a question
    phone = new_page()
    phone.goto(link)
    phone.wait_for_function(
        "() => window.__fiveupTest.view() && window.__fiveupTest.view().you === 1"
    )
    bob.wait_for_selector("[data-testid=seat-moved]")
    assert ann.query_selector("[data-testid=seat-moved]") is None


def test_the_hosts_link_for_a_present_player_is_refused_and_says_why(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    """The host's control for Bob's seat says it is only for a player gone for the
    grace (60 s by default); Bob is here, so asking is refused with those words."""
    ann, bob, _code = start_two_player_game(new_page, bob_viewport=(390, 844))
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.click("[data-testid=seat-panel] summary")
    note = ann.text_content("[data-testid=host-links-note]")
    assert "gone (no open page) for 60 s" in note
    ann.click("[data-testid=host-link-1]")
    ann.wait_for_selector("[data-testid=error]")
    error = ann.text_content("[data-testid=error]")
    assert "Bob is here, or left less than 60 s ago" in error
    assert ann.query_selector("[data-testid=device-link]") is None
    assert bob.query_selector("[data-testid=seat-moved]") is None
    shot(ann, "device-host-link-refused")
