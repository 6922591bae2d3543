"""Words people read (static/js/ui/words.js, replay.js, table.js, settlement.js, chat.js,
names.js, tally.js, rules.js): the replay and the keyboard's target announcements in the
live log's words with displayed points; "Nobody is ready yet"; a too-long name told its
limit; the chat's counter; the mute list kept open; a practice table named in the page's
language; the crossed tally explained; the rules page's address following the language;
the deal check explained in words; a fast double-click on a one-place tile plays it once."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import page_maker, shot
from .flows import act, hand, play_until_round_end, seq_of, start_two_player_game, wait_seq
from .screens_flows import dismiss_hint, start_practice, wait_my_turn

NOTATION = re.compile(r"[0-6]\|[0-6]|@|:(low|high|line[AB]|branch[AB])\b")


@pytest.fixture(scope="module")
def settled(browser, server) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Ann and Bob play a round to its end (nobody has said ready yet)."""
    make, close = page_maker(browser, server)
    ann, bob, code = start_two_player_game(make)
    for p in (ann, bob):
        dismiss_hint(p)
    play_until_round_end([ann, bob], random.Random(9))
    yield {"ann": ann, "bob": bob, "code": code}
    close()


def test_replay_steps_speak_the_logs_words_and_displayed_points(settled) -> None:  # type: ignore[no-untyped-def]
    page = settled["ann"].context.new_page()
    page.goto(f"/t/{settled['code']}/replay")
    page.wait_for_selector("[data-testid=replay-event]")
    total = int(page.get_attribute("[data-testid=replay-scrubber]", "max") or "0")
    texts = []
    for _ in range(total + 1):
        texts.append(page.inner_text("[data-testid=replay-event]"))
        page.keyboard.press("ArrowRight")
    played = [x for x in texts if re.search(r" (played|opened with) \d", x)]
    assert played, texts
    for text in texts:
        assert not NOTATION.search(text), text
    for text in played:
        assert re.search(r" on the \d end of | spinner| opened with ", text), text
        if "+" in text:
            assert re.search(r" · \d+ → \+\d+$", text), text  # raw → displayed, as in the log
    page.close()


def test_deal_mark_explains_the_check_in_words_not_a_docs_path(settled) -> None:  # type: ignore[no-untyped-def]
    page = settled["ann"].context.new_page()
    page.goto(f"/t/{settled['code']}/replay")
    title = page.locator("[data-testid=deal-verified]").first.get_attribute("title") or ""
    assert "docs/" not in title and ".md" not in title and "seed" in title
    page.close()


def test_ready_line_says_nobody_is_ready_yet(settled) -> None:  # type: ignore[no-untyped-def]
    text = settled["ann"].inner_text("[data-testid=ready-list]")
    assert text.startswith("Nobody is ready yet.") and "—" not in text


def test_chat_counter_shows_the_200_character_limit(settled) -> None:  # type: ignore[no-untyped-def]
    bob = settled["bob"]
    bob.fill("[data-testid=chat-input]", "hello")
    assert bob.inner_text("[data-testid=chat-count]") == "5/200"
    bob.fill("[data-testid=chat-input]", "")
    bob.type("[data-testid=chat-input]", "x" * 205, delay=0)
    assert len(bob.input_value("[data-testid=chat-input]")) == 200
    assert "at most 200 characters" in bob.inner_text("[data-testid=chat-count]")
    bob.fill("[data-testid=chat-input]", "")


def test_mute_list_stays_open_after_a_toggle_and_a_redraw(settled) -> None:  # type: ignore[no-untyped-def]
    ann, bob = settled["ann"], settled["bob"]
    bob.click("[data-testid=hide-results]")  # the chat under the results
    bob.click(".chat-mutes summary")
    bob.check("[data-testid=chat-mute-seat-0]")
    assert bob.evaluate("document.querySelector('.chat-mutes details').open")
    ann.click("[data-testid=next-round-button]")  # a table frame: Bob's page draws again
    bob.wait_for_function("window.__fiveupTest.table().ready.includes(0)")
    bob.wait_for_timeout(300)  # the frame drawn
    assert bob.evaluate("document.querySelector('.chat-mutes details').open")
    assert bob.is_checked("[data-testid=chat-mute-seat-0]")


def _until_my_turn_with(page: Any, rng: random.Random, pick: str) -> str:
    """Play (by clicking) until it is my turn with a playable tile matching ``pick``."""
    for _ in range(60):
        wait_my_turn(page)
        assert page.query_selector("[data-testid=round-end], [data-testid=match-end]") is None
        tiles = page.eval_on_selector_all(pick, "els => els.map(e => e.dataset.tile)")
        if tiles:
            return str(tiles[0])
        act(page, rng)
    raise AssertionError("no such tile came")


def test_target_announcement_speaks_the_logs_words_and_points(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    start_practice(page, players=2)
    dismiss_hint(page)
    tile = _until_my_turn_with(page, random.Random(3), "[data-testid=hand-tile][data-playable='1']")
    page.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
    page.wait_for_selector("svg.board [data-move]")
    said = page.text_content("[data-testid=target-announce]") or ""
    assert re.match(r"^(Play \S+ on the |Open with )", said), said
    assert re.search(r": (0|\d+ → \+\d+)$", said), said
    assert not NOTATION.search(said) and "—" not in said, said


@pytest.mark.parametrize("size", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_fast_double_click_on_a_one_place_tile_plays_it_once(new_page, size) -> None:  # type: ignore[no-untyped-def]
    page = new_page(*size)
    start_practice(page, players=2)
    dismiss_hint(page)
    tile = _until_my_turn_with(
        page, random.Random(11), "[data-testid=hand-tile][data-playable='1'][data-places='1']"
    )
    before = seq_of(page)
    size = len(hand(page))
    button = page.locator(f"[data-testid=hand-tile][data-tile='{tile}']")
    box = button.bounding_box()
    assert box
    # near the tile's lower edge, where a person's two clicks land alike
    button.dblclick(position={"x": box["width"] / 2, "y": box["height"] - 4})
    wait_seq(page, before + 1)
    page.wait_for_function(f"document.querySelectorAll('[data-testid=hand-tile]').length < {size}")
    assert tile not in hand(page)
    mine = page.eval_on_selector_all(
        "[data-testid=log] li[data-seat='0']", "els => els.map(e => e.dataset.notation)"
    )
    assert sum(1 for m in mine if m.startswith(tile)) == 1  # played once, not twice
    assert page.query_selector("[data-testid=error]") is None


def test_too_long_name_is_refused_with_its_limit(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.fill("[data-testid=create-host-name]", "A" * 30)
    page.click("[data-testid=create-submit]")
    page.wait_for_function("document.querySelector('[data-testid=home-error]').textContent !== ''")
    text = page.inner_text("[data-testid=home-error]")
    assert text == "30 characters: names have at most 24."


def test_practice_table_is_named_in_ukrainian(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(lang="uk")
    start_practice(page, players=2)
    assert page.inner_text(".table-head strong") == "Тренування"
    assert "Practice" not in page.inner_text(".table-head")


def test_negative_tally_is_explained_in_its_title(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    said = page.evaluate(
        "import('/static/js/ui/tally.js').then((m) => { const s = m.tallySvg(-3);"
        " return [s.querySelector('title')?.textContent || '', s.getAttribute('aria-label') || '']; })"
    )
    assert "below zero (-3)" in said[0] and said[0] == said[1]
    assert page.evaluate(
        "import('/static/js/ui/tally.js').then((m) => m.tallySvg(3).querySelector('title') === null)"
    )


def test_rules_page_address_follows_the_language_switch(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/static/rules.html?lang=en")
    page.wait_for_selector("[data-testid=rules]")
    page.select_option("[data-testid=lang]", "uk")
    page.wait_for_function("location.search.includes('lang=uk')")
    page.reload()
    page.wait_for_selector("[data-testid=rules]")
    assert page.evaluate("document.documentElement.lang") == "uk"
    shot(page, "rules-uk")
