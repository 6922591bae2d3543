"""Computer players in the browser (docs/protocol.md; static/js/ui/bots.js): "Play
against the computer" from the home page plays a round to its settlement by clicking;
the host adds, re-levels and removes a computer player in the waiting room; bots are
marked as computers on seats, the score panel and the log."""

from __future__ import annotations

import random

from .flows import create_table, play_until_round_end


def test_play_against_the_computer_from_the_home_page_to_a_settled_round(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.fill("[data-testid=practice-name]", "Solo")
    page.select_option("[data-testid=practice-players]", "3")
    page.select_option("[data-testid=practice-level]", "medium")
    page.click("[data-testid=practice-submit]")
    page.wait_for_selector("[data-testid=play]")  # started at once: no waiting room
    scores = page.inner_text("[data-testid=scores]")
    assert scores.count("(computer)") == 2 and "Solo" in scores
    actions = play_until_round_end([page], random.Random(4))
    assert actions  # the person played by clicking; the computers played in between
    page.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
    log = page.inner_text("body")
    assert "(computer)" in log


def test_host_adds_changes_and_removes_a_computer_in_the_waiting_room(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    create_table(page, players=2, host="Ann", public=False)
    page.select_option("[data-testid=bot-level-1]", "hard")
    page.click("[data-testid=add-bot-1]")
    page.wait_for_selector("[data-testid=bot-mark-1][data-bot=hard]")
    assert "(computer" in page.inner_text("[data-testid=seat-1]")
    page.select_option("[data-testid=bot-level-1]", "easy")  # change its strength
    page.wait_for_selector("[data-testid=bot-mark-1][data-bot=easy]")
    page.click("[data-testid=remove-bot-1]")
    page.wait_for_selector("[data-testid=seat-1][data-taken='0']")
    page.click("[data-testid=add-bot-1]")
    page.wait_for_selector("[data-testid=seat-1][data-taken='1']")
    page.click("[data-testid=start-button]")
    page.wait_for_selector("[data-testid=play]")
    assert "(computer)" in page.inner_text("[data-testid=scores]")
