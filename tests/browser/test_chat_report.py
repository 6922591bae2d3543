"""Reporting and removing from the table page (docs/protocol.md, Moderation): the host
reports a spectator's message from the chat, then removes and blocks its author, whose
page says so and does not reconnect; a player sees no report button on their own
messages."""

from __future__ import annotations

from .conftest import shot
from .flows import start_two_player_game


def test_the_host_reports_a_spectators_message_and_removes_and_blocks_its_author(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    eve = new_page(390, 844)
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    eve.fill("[data-testid=chat-input]", "buy cheap chips")
    eve.click("[data-testid=chat-send]")
    bob.fill("[data-testid=chat-input]", "hi all")
    bob.click("[data-testid=chat-send]")
    flag = ann.locator("[data-testid=chat-msg][data-channel=spectators] [data-testid=chat-report]")
    bob.wait_for_selector("[data-testid=chat-msg]:has-text('hi all')")
    assert (
        bob.query_selector("[data-testid=chat-msg]:has-text('hi all') [data-testid=chat-report]")
        is None
    )
    flag.first.click()
    ann.select_option("[data-testid=chat-report-reason]", "spam")
    ann.fill("[data-testid=chat-report-text]", "advertising")
    ann.click("[data-testid=chat-report-send]")
    note = ann.wait_for_selector("[data-testid=chat-report-note]")
    assert "operator" in note.inner_text()
    shot(ann, "chat-reported")
    flag.first.click()
    ann.click("[data-testid=chat-host-block]")
    ann.wait_for_selector("[data-testid=chat-report-note]:has-text('Removed')")
    eve.wait_for_selector("text=The host has removed you from this table.")
    eve.reload()  # blocked: the page cannot watch again
    eve.wait_for_selector("text=The host has removed you from this table.")
