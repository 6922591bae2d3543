"""A table that played on after a rematch keeps its earlier match within reach: the
replay page opens the last match with a finished round (saying so) and lists every match
played at the table, and the home page's finished matches keep the first match while the
second is played."""

from __future__ import annotations

import random
from typing import Any

from .flows import create_table, join_table, play_until_round_end


def _rematched_table(new_page: Any) -> tuple[Any, Any, str]:
    """A public table whose match 1 had one finished round and a resignation, now in
    match 2: (ann, bob, code)."""
    ann = new_page()
    code = create_table(ann, players=2, host="Ann", public=True, name="Played on")
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=seat-1][data-taken='1']")
    ann.click("[data-testid=start-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play]")
    play_until_round_end([ann, bob], random.Random(3))
    for p in (ann, bob):
        p.click("[data-testid=next-round-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play][data-phase=playing]")
    bob.on("dialog", lambda d: d.accept())
    bob.click("[data-testid=seat-panel] summary")
    bob.click("[data-testid=resign]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=match-end]")
    for p in (ann, bob):
        p.click("[data-testid=rematch-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play][data-phase=playing]")
    return ann, bob, code


def test_after_a_rematch_the_replay_opens_the_finished_match_and_lists_every_match(
    new_page: Any,
) -> None:
    _ann, _bob, code = _rematched_table(new_page)
    eve = new_page()
    eve.goto(f"/t/{code}/replay")
    eve.wait_for_selector("[data-testid=replay-step][data-step='0']")
    assert "Match 2 has no finished round yet" in eve.text_content("[data-testid=replay-fell-back]")
    assert "match 1" in eve.text_content(".replay-head h2")
    picker = "[data-testid=replay-matches]"
    assert eve.get_attribute(f"{picker} strong", "data-match") == "1"  # the one shown
    assert eve.get_attribute(f"{picker} a[data-match='2']", "href") == f"/t/{code}/replay?match=2"
    # the picker reaches match 2 (nothing to replay yet), and from there match 1 again
    eve.click(f"{picker} a[data-match='2']")
    eve.wait_for_selector("[data-testid=replay-empty]")
    assert eve.get_attribute(f"{picker} strong", "data-match") == "2"
    eve.click(f"{picker} a[data-match='1']")
    eve.wait_for_selector("[data-testid=replay-step][data-step='0']")
    assert eve.query_selector("[data-testid=replay-fell-back]") is None


def test_the_finished_matches_keep_the_first_match_while_the_second_is_played(
    new_page: Any,
) -> None:
    _ann, _bob, code = _rematched_table(new_page)
    eve = new_page()
    eve.goto("/")
    row = f"[data-testid=finished-row][data-code='{code}']"
    eve.wait_for_selector(row)
    links = eve.eval_on_selector_all(
        f"{row} [data-testid=finished-replay]", "els => els.map(e => e.getAttribute('href'))"
    )
    assert links == [f"/t/{code}/replay?match=1"]
    eve.click(f"{row} [data-testid=finished-replay]")
    eve.wait_for_selector("[data-testid=replay-step][data-step='0']")
    assert "match 1" in eve.text_content(".replay-head h2")
