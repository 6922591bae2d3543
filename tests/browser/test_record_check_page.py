"""The record-check page, /check, in real Chromium: a record downloaded from a replay is
chosen as a file and checked — the engine's verdict (every move replayed on the server)
and each round's deal checked in this browser from its revealed seed — and a tampered
record is refused with its line and rule. At a phone's width, nothing scrolls sideways."""

from __future__ import annotations

import random
import re
import urllib.request
from typing import Any

from .conftest import shot
from .flows import play_until_round_end, start_two_player_game


def _record_text(server: str, code: str) -> str:
    with urllib.request.urlopen(f"{server}/api/tables/{code}/record.txt?match=1") as r:
        return str(r.read().decode())


def test_a_downloaded_record_is_checked_in_the_browser_and_a_tampered_one_refused(
    new_page: Any, server: str
) -> None:
    ann, bob, code = start_two_player_game(new_page)
    play_until_round_end([ann, bob], random.Random(8))
    text = _record_text(server, code)

    eve = new_page(390, 844)
    eve.goto(f"/t/{code}/replay")
    eve.click("[data-testid=check-link]")
    eve.wait_for_selector("[data-testid=check-page]")
    eve.set_input_files(
        "[data-testid=check-file]",
        files=[{"name": f"{code}-1.txt", "mimeType": "text/plain", "buffer": text.encode()}],
    )
    eve.wait_for_selector("[data-testid=check-verdict][data-state=valid]")
    assert "Valid" in eve.text_content("[data-testid=check-result]")
    eve.wait_for_selector("[data-testid=check-rounds] [data-testid=deal-verified][data-state=ok]")
    assert eve.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(eve, "record-check-valid")

    # five raw points more on the round's first move (a round may score nothing at all,
    # so any move's points will do): the engine names the line and rule
    lines = text.splitlines()
    scored = re.compile(r"^\d+\. \d \S+ \+(\d+) = ")
    at = next(i for i, line in enumerate(lines) if scored.match(line))
    points = int(scored.match(lines[at]).group(1))  # type: ignore[union-attr]
    lines[at] = lines[at].replace(f" +{points} = ", f" +{points + 5} = ", 1)
    eve.fill("[data-testid=check-text]", "\n".join(lines))
    eve.click("[data-testid=check-submit]")
    eve.wait_for_selector("[data-testid=check-verdict][data-state=invalid]")
    verdict = eve.text_content("[data-testid=check-result]") or ""
    assert f"line {at + 1}:" in verdict and "R" in verdict, verdict


def test_what_is_not_a_record_gets_a_verdict_in_words(new_page: Any) -> None:
    page = new_page()
    page.goto("/check")
    page.click("[data-testid=check-submit]")
    assert "Choose a file" in page.text_content("[data-testid=check-verdict]")
    page.fill("[data-testid=check-text]", "hello")
    page.click("[data-testid=check-submit]")
    page.wait_for_selector("[data-testid=check-verdict][data-state=invalid]")
    assert "Not valid — line 1:" in page.text_content("[data-testid=check-result]")
