"""Clearer moves: the open ends (R12, spinner branches included) are marked
on the board with their values, the last move of each other player is marked on its
tile with what it scored, the board count sits by the board, and the log speaks plain
words in English and Ukrainian (the engine notation stays on the items)."""

from __future__ import annotations

import random

from .flows import act, my_turn, start_two_player_game, sync


def test_open_ends_and_opponents_last_moves_are_marked(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(44)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    checked = 0
    for _ in range(14):
        sync(pages)
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            ann.wait_for_timeout(100)
            continue
        act(actor, rng)
        sync(pages)
        for page, other in ((ann, 1), (bob, 0)):
            view = page.evaluate("window.__fiveupTest.view()")
            if view["phase"] != "playing":
                continue
            marked = page.eval_on_selector_all(
                "svg.board [data-open]", "els => els.map(e => [e.dataset.open, e.dataset.value])"
            )
            expected = [[p["place"], str(p["value"])] for p in view["layout"]["places"]]
            assert sorted(marked) == sorted(expected)
            assert page.get_attribute("[data-testid=board-count]", "data-sum") == str(
                view["layout"]["sum"]
            )
            theirs = [
                e
                for e in view["log"]
                if e["type"] == "move" and e["kind"] in ("open", "place") and e["seat"] == other
            ]
            last_of = page.eval_on_selector_all(
                "svg.board [data-last-of]",
                "els => els.map(e => [e.dataset.lastOf, e.dataset.tile])",
            )
            if theirs:
                assert last_of == [[str(other), theirs[-1]["tile"]]]
                if theirs[-1]["points"] > 0:
                    floats = page.eval_on_selector_all(
                        f"svg.board [data-float='{other}']", "els => els.map(e => e.textContent)"
                    )
                    assert floats == [f"+{theirs[-1]['points'] // 5}"]
            else:
                assert last_of == []
            # The log in words; the notation stays on the item.
            items = page.eval_on_selector_all(
                "[data-testid=log] li[data-kind=place]",
                "els => els.map(e => [e.dataset.notation, e.textContent])",
            )
            for move, text in items:
                tile = move.split("@")[0]
                text = text.replace("\u2060", "")
                assert tile.replace("|", "–") in text and " on the " in text
                assert "@" not in text and ":low" not in text and ":high" not in text
            checked += 1
    assert checked >= 10


def test_log_words_name_spinner_parts_in_both_languages(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    words = page.evaluate("""async () => {
      const L = await import('/static/js/board/layout.js');
      const W = await import('/static/js/ui/words.js');
      const I = await import('/static/js/i18n.js');
      const tiles = [
        { tile: '6|6', at: null, via: null },
        { tile: '5|6', at: '6|6:lineA', via: 'high' },
        { tile: '1|6', at: '6|6:lineB', via: 'high' },
        { tile: '3|6', at: '6|6:branchA', via: 'high' },
        { tile: '3|4', at: '3|6:low', via: 'low' },
      ];
      const lay = L.computeLayout(tiles).layout;
      const moves = tiles.slice(1).map((x, i) => ({ kind: 'place', seat: i % 2, tile: x.tile, place: x.at }));
      const names = (s) => ['Ann', 'Bob'][s];
      const out = {};
      for (const lang of ['en', 'uk']) {
        I.setLang(lang);
        out[lang] = moves.map((m) => W.moveWords(m, lay, names).replaceAll('\u2060', ''));
      }
      I.setLang('en');
      return out;
    }""")
    assert words["en"] == [
        "Ann played 5–6 on the 6–6 spinner, left line",
        "Bob played 1–6 on the 6–6 spinner, right line",
        "Ann played 3–6 on the 6–6 spinner, upper branch",
        "Bob played 3–4 on the 3 end of 3–6",
    ]
    assert words["uk"][2] == "Ann: 3–6 до спінера 6–6, верхня гілка"
    assert words["uk"][3] == "Bob: 3–4 до кінця 3 кістки 3–6"
