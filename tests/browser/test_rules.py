"""The rules page: reachable from the home page and the table, in English
and Ukrainian with the same rules (R1-R26) in both, and drawn examples of a spinner,
scoring ends and the rounding of leftover pips (R22); the table's first-visit hint."""

from __future__ import annotations

from .conftest import publish, shot
from .flows import start_two_player_game


def test_rules_page_in_both_languages_with_drawn_examples(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.click("[data-testid=rules-top]")
    page.wait_for_selector("[data-testid=rules]")
    assert "How to play Five Up" in page.inner_text("[data-testid=rules] h1")
    # The spinner example: 6-6 with both lines covered and a branch taken; its open
    # ends are marked 5, 1, 3 and the free branch 6 (R11-R13).
    sp = "[data-testid=rules-example-spinner]"
    tiles = page.eval_on_selector_all(
        f"{sp} [data-board-tile]", "els => els.map(e => e.dataset.tile)"
    )
    assert sorted(tiles) == ["1|6", "3|6", "5|6", "6|6"]
    ends = page.eval_on_selector_all(f"{sp} [data-open]", "els => els.map(e => e.dataset.value)")
    assert sorted(ends) == ["1", "3", "5", "6"]
    sc = "[data-testid=rules-example-scoring]"
    assert len(page.query_selector_all(f"{sc} [data-board-tile]")) == 3
    rounding = page.inner_text("[data-testid=rules-example-rounding]")
    for line in ("7 pips → 5 → −1", "2 pips → 0 → 0", "8 pips → 10 → −2"):
        assert line in rounding  # R22: nearest five, 1-2 down, 3-4 up
    en_rules = page.eval_on_selector_all(".rnum", "els => els.map(e => e.textContent)")
    shot(page, "16-rules")
    publish("16-rules.png", "rules.png")
    page.select_option("[data-testid=lang]", "uk")
    page.wait_for_function(
        "document.querySelector('[data-testid=rules] h1').textContent.includes('Як грати')"
    )
    assert page.eval_on_selector_all(".rnum", "els => els.map(e => e.textContent)") == en_rules
    assert "7 точок → 5 → −1" in page.inner_text("[data-testid=rules-example-rounding]")
    joined = " ".join(en_rules)
    for n in range(1, 27):
        assert f"R{n}" in joined or any(
            r.startswith("R")
            and "–" in r
            and int(r[1:].split("–")[0]) <= n <= int(r.split("–R")[1])
            for r in en_rules
        ), n


def test_table_links_rules_and_hint_strip_is_shown_once(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _bob, _ = start_two_player_game(new_page)
    assert "/static/rules.html" in ann.get_attribute("[data-testid=rules-top]", "href")
    ann.wait_for_selector("[data-testid=hint-strip]")
    assert "spinner" in ann.inner_text("[data-testid=hint-strip]")
    ann.click("[data-testid=hint-dismiss]")
    ann.wait_for_function("document.querySelector('[data-testid=hint-strip]') === null")
    ann.reload()
    ann.wait_for_selector("[data-testid=play]")
    assert ann.query_selector("[data-testid=hint-strip]") is None
