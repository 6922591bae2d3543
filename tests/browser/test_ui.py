"""Input methods, languages, text safety, tally, phone layout, screenshots."""

from __future__ import annotations

import random

from .conftest import ARTIFACTS, publish, shot
from .flows import (
    act,
    create_table,
    hand,
    join_table,
    my_turn,
    round_over,
    seq_of,
    start_two_player_game,
    sync,
    wait_seq,
)


def _advance_until(pages, rng, predicate, limit=60):  # type: ignore[no-untyped-def]
    """Play random moves until predicate(page) holds for the player to move."""
    for _ in range(limit):
        sync(pages)
        if all(round_over(p) for p in pages):
            for p in pages:
                p.click("[data-testid=next-round-button]")
            for p in pages:
                p.wait_for_selector("[data-testid=play][data-phase=playing]")
            continue
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            pages[0].wait_for_timeout(100)
            continue
        if predicate(actor):
            return actor
        act(actor, rng)
    raise AssertionError("situation not reached")


def test_keyboard_only_play(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(3)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    placed_with_targets = False
    for _ in range(150):  # until the first playable tile has two places (the deal is random)
        actor = _advance_until(pages, rng, lambda p: True)
        before = seq_of(actor)
        if actor.query_selector("[data-testid=draw-button]"):
            actor.keyboard.press("d")
        elif actor.query_selector("[data-testid=pass-button]"):
            actor.keyboard.press("p")
        else:
            # Walk the hand with the arrow keys to a playable tile, select with Enter.
            n = len(hand(actor))
            for _ in range(n + 1):
                actor.keyboard.press("ArrowRight")
                if (
                    actor.evaluate(
                        "document.activeElement && document.activeElement.dataset.playable"
                    )
                    == "1"
                ):
                    break
            actor.keyboard.press("Enter")
            # Enter selects (never plays): the targets appear; a second Enter plays.
            actor.wait_for_selector("svg.board [data-move]")
            assert seq_of(actor) == before
            if actor.eval_on_selector_all("svg.board [data-move]", "els => els.length") >= 2:
                actor.keyboard.press("ArrowRight")
                focused = actor.get_attribute("svg.board .target.focused", "data-move")
                assert focused
                actor.keyboard.press("Enter")
                wait_seq(actor, before + 1)
                # The move played is the focused target's.
                log_top = actor.get_attribute("[data-testid=log] li:first-child", "data-notation")
                assert log_top == focused
                placed_with_targets = True
            else:
                actor.keyboard.press("Enter")  # the one focused place
        wait_seq(actor, before + 1)
        if placed_with_targets:
            break
    assert placed_with_targets


def test_drag_a_tile_onto_a_target(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    actor = _advance_until(
        pages,
        rng,
        lambda p: p.query_selector("[data-testid=hand-tile][data-playable='1']") is not None,
    )
    before = seq_of(actor)
    btn = actor.query_selector("[data-testid=hand-tile][data-playable='1']")
    tile = btn.get_attribute("data-tile")
    box = btn.bounding_box()
    actor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    actor.mouse.down()
    actor.mouse.move(box["x"] + box["width"] / 2, box["y"] - 30, steps=5)
    actor.wait_for_selector("svg.board [data-move]")
    shot(actor, "02-dragging")
    tgt = actor.query_selector("svg.board [data-move] .target-rect").bounding_box()
    actor.mouse.move(tgt["x"] + tgt["width"] / 2, tgt["y"] + tgt["height"] / 2, steps=8)
    actor.mouse.up()
    wait_seq(actor, before + 1)
    assert tile not in hand(actor)
    assert actor.query_selector(f"svg.board [data-board-tile='{tile}']") is not None


def test_targets_show_points_and_screenshot(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(9)
    ann, bob, _ = start_two_player_game(new_page)
    pages = [ann, bob]
    # Play a while, then select a tile and look at its targets.
    for _ in range(7):
        act(_advance_until(pages, rng, lambda p: True), rng)
    multi = "[data-testid=hand-tile][data-playable='1']:not([data-places='1'])"

    def ready(p) -> bool:  # type: ignore[no-untyped-def]
        # A tile with two or more places, on a board with some tiles down.
        return (
            p.query_selector(multi) is not None
            and len(p.query_selector_all("svg.board [data-board-tile]")) >= 6
        )

    try:
        actor = _advance_until(pages, rng, ready, limit=120)
    except AssertionError:
        actor = _advance_until(pages, rng, lambda p: p.query_selector(multi) is not None, limit=300)
    tile = actor.get_attribute(multi, "data-tile")
    n = int(actor.get_attribute(multi, "data-places"))
    actor.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
    actor.wait_for_selector("svg.board [data-move]")
    targets = actor.eval_on_selector_all(
        "svg.board [data-move]",
        "els => els.map(e => [e.dataset.points, e.dataset.score, e.textContent, e.getAttribute('aria-label')])",
    )
    assert len(targets) == n >= 2
    for raw, score, label, aria in targets:
        # R3/R15: the pill shows what the score changes by (5 raw = 1 point), the
        # label names both, as the log does ("15 → +3").
        assert int(raw) % 5 == 0 and int(score) == int(raw) // 5
        assert label == ("+" + score if int(raw) > 0 else "0")
        assert aria.endswith(f"{raw} → +{score}" if int(raw) > 0 else ": 0")
    found = True
    assert found
    shot(actor, "08-targets")
    publish("08-targets.png", "table-targets.png")
    # Escape deselects.
    actor.keyboard.press("Escape")
    actor.wait_for_function("document.querySelector('[data-move]') === null")


def test_phone_portrait(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(12)
    ann, bob, _ = start_two_player_game(new_page, bob_viewport=(390, 844))
    pages = [ann, bob]
    for _ in range(6):
        act(_advance_until(pages, rng, lambda p: True), rng)
    sync(pages)
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    board = bob.locator("svg.board").bounding_box()
    assert board["width"] > 250 and board["height"] > 200
    shot(bob, "09-phone")
    bob.screenshot(path=str(ARTIFACTS / "09-phone-full.png"), full_page=True)


def test_language_switch_is_remembered(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    assert page.text_content("[data-testid=create-submit]") == "Create"
    page.select_option("[data-testid=lang]", "uk")
    page.wait_for_function(
        "document.querySelector('[data-testid=create-submit]').textContent === 'Створити'"
    )
    page.reload()
    page.wait_for_selector("[data-testid=create-submit]")
    assert page.text_content("[data-testid=create-submit]") == "Створити"
    assert page.evaluate("document.documentElement.lang") == "uk"


def test_every_string_is_translated(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    missing = page.evaluate("""async () => {
      const m = await import('/static/js/i18n.js');
      // plural forms (key_one, key_few, ...) differ by language; their base key must exist
      const plural = /_(zero|one|two|few|many)$/;
      const base = k => k.replace(plural, "");
      const en = Object.keys(m._dict.en), uk = Object.keys(m._dict.uk);
      const orphans = [...en, ...uk].filter(k => plural.test(k) && !(base(k) in m._dict.en && base(k) in m._dict.uk));
      const core = keys => keys.filter(k => !plural.test(k));
      return [...core(en).filter(k => !uk.includes(k)), ...core(uk).filter(k => !en.includes(k)), ...orphans];
    }""")
    assert missing == []


def test_counts_use_each_languages_plural_forms(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    words = page.evaluate("""async () => {
      const m = await import('/static/js/i18n.js');
      const out = {};
      for (const lang of ["en", "uk"]) {
        m.setLang(lang);
        out[lang] = [1, 2, 5, 21].map(n => m.t("tiles_n", { n }));
      }
      m.setLang("en");
      return out;
    }""")
    assert words["en"] == ["1 tile", "2 tiles", "5 tiles", "21 tiles"]
    assert words["uk"] == ["1 кістка", "2 кістки", "5 кісток", "21 кістка"]


def test_layout_description_follows_the_language(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    texts = page.evaluate("""async () => {
      const m = await import('/static/js/i18n.js');
      const view = { description: "Tiles: [1|4].", description_uk: "Плитки: [1|4]." };
      m.setLang("uk"); const uk = m.layoutDescription(view);
      m.setLang("en"); const en = m.layoutDescription(view);
      return [en, uk];
    }""")
    assert texts == ["Tiles: [1|4].", "Плитки: [1|4]."]


def test_names_are_text_never_html(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _code = start_two_player_game(new_page, host="<b>Ann</b><img src=x>")
    for p in (ann, bob):
        assert p.query_selector("main b, main img") is None
        assert "<b>Ann</b><img src=x>" in p.inner_text("[data-testid=scores]")


def test_tally_houses(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    res = page.evaluate("""async () => {
      const m = await import('/static/js/ui/tally.js');
      const out = {};
      for (const n of [0, 1, 9, 10, 23, 61, -7]) {
        const svg = m.tallySvg(n);
        out[n] = { strokes: svg.querySelectorAll('line').length,
                   houses: [...svg.querySelectorAll('.house')].map(g => g.querySelectorAll('line').length) };
      }
      return out;
    }""")
    assert res["10"] == {"strokes": 10, "houses": [10]}
    assert res["23"] == {"strokes": 23, "houses": [10, 10, 3]}
    assert res["61"]["houses"] == [10] * 6 + [1]
    assert res["0"]["strokes"] == 0
    assert res["-7"]["strokes"] == 7


def test_match_end_screen(new_page) -> None:  # type: ignore[no-untyped-def]
    """The match-end screen, drawn from a real finished match's view (played out by the
    engine; fed through the client's socket path with a test hook)."""
    import json
    import random as _r
    import urllib.request

    from app.engine import Match, view_for

    ann, _bob, code = start_two_player_game(new_page)
    m = Match.new(2, _r.Random(5))
    rng = _r.Random(5)
    while not m.over:
        while not m.round_over:
            seat = m.turn
            m.play(seat, rng.choice(m.legal_moves(seat)))
        if not m.over:
            m.next_round(_r.Random(rng.randrange(1 << 30)))
    base = ann.evaluate("location.origin")
    with urllib.request.urlopen(f"{base}/api/tables/{code}") as r:
        info = json.load(r)
    info["status"] = "finished"
    info["scores"] = m.scores
    frame = {
        "type": "snapshot",
        "seq": 10_000,
        "you": 0,
        "table": info,
        "view": view_for(m, 0),
        "events": [],
    }
    ann.evaluate("f => window.__fiveupTest.inject(f)", frame)
    ann.wait_for_selector("[data-testid=match-end]")
    winner = ann.inner_text("[data-testid=winner]")
    assert ["Ann", "Bob"][m.winner] in winner
    text = ann.inner_text("[data-testid=match-end]")
    for s in m.scores:
        assert str(s) in text
    assert ann.query_selector("[data-testid=rematch-button]") is not None
    shot(ann, "10-match-end")


def test_socket_seq_tracking(new_page) -> None:  # type: ignore[no-untyped-def]
    """TableSocket applies each seq once, in order; a gap asks for a resync, whose
    missed events are replayed before the snapshot; a retried move keeps its id."""
    page = new_page()
    page.goto("/")
    res = page.evaluate("""async () => {
      const { TableSocket } = await import('/static/js/net/socket.js');
      const applied = [], sent = [];
      const s = new TableSocket('ABCDEF', null, {
        onSnapshot: (m) => applied.push('snap' + m.seq),
        onEvent: (m) => applied.push('ev' + m.seq),
      });
      s.sendRaw = (f) => { sent.push(f); return true; };
      s.handle({ type: 'snapshot', seq: 5, events: [] });
      s.handle({ type: 'event', seq: 6, event: {} });
      s.handle({ type: 'event', seq: 6, event: {} });           // duplicate: ignored
      s.handle({ type: 'event', seq: 8, event: {} });           // gap: resync
      s.handle({ type: 'snapshot', seq: 8, events: [{ seq: 7, event: {} }, { seq: 8, event: {} }] });
      s.handle({ type: 'event', seq: 9, event: {} });
      const id = s.move('draw');
      s.handle({ type: 'snapshot', seq: 9, events: [] });       // reconnect: unacked move re-sent
      s.handle({ type: 'ack', move_id: id, seq: 10, duplicate: true });
      s.handle({ type: 'snapshot', seq: 10, events: [] });
      return { applied, sent: sent.map((f) => f.type + (f.last_seq ?? '') + (f.move_id === id ? ':same' : '')) };
    }""")
    assert res["applied"] == ["snap5", "ev6", "ev7", "ev8", "snap8", "ev9", "snap9", "snap10"]
    assert res["sent"] == ["resync6", "move:same", "move:same"]


def test_typed_name_survives_server_frames(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=3, host="Ann")
    bob = new_page()
    bob.goto(f"/t/{code}")
    bob.wait_for_function("(document.body.dataset.seq || '') !== ''")
    bob.fill("[data-testid=join-name]", "Bob")
    # Someone else sits down meanwhile: Bob's page re-renders with the new table.
    cid = new_page()
    join_table(cid, code, name="Cid", seat=2)
    bob.wait_for_selector("[data-testid=seat-2][data-taken='1']")
    assert bob.input_value("[data-testid=join-name]") == "Bob"
    bob.click("[data-testid=sit-1]")
    bob.wait_for_selector("[data-testid=seat-1].mine")


def test_zoom_and_pan(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(21)
    ann, bob, _ = start_two_player_game(new_page)
    for _ in range(4):
        act(_advance_until([ann, bob], rng, lambda p: True), rng)
    sync([ann, bob])
    vb0 = [float(x) for x in ann.get_attribute("svg.board", "viewBox").split()]
    ann.locator("svg.board").focus()
    ann.keyboard.press("+")
    ann.wait_for_function(
        f"document.querySelector('svg.board').viewBox.baseVal.width < {vb0[2] - 0.01}"
    )
    vb1 = [float(x) for x in ann.get_attribute("svg.board", "viewBox").split()]
    box = ann.locator("svg.board").bounding_box()
    # Drag the felt near its top-left corner (away from tiles and targets).
    x, y = box["x"] + 30, box["y"] + box["height"] - 30
    ann.mouse.move(x, y)
    ann.mouse.down()
    ann.mouse.move(x + 120, y - 60, steps=6)
    ann.mouse.up()
    vb2 = [float(v) for v in ann.get_attribute("svg.board", "viewBox").split()]
    assert vb2[0] < vb1[0] and vb2[1] > vb1[1]  # content moved right and up
    assert abs(vb2[2] - vb1[2]) < 0.01
    ann.keyboard.press("0")
    ann.wait_for_function(
        f"Math.abs(document.querySelector('svg.board').viewBox.baseVal.width - {vb0[2]}) < 0.01"
    )


def test_change_seat_before_the_start(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=3, host="Ann")
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    bob.click("[data-testid=sit-2]")  # "Move here"
    bob.wait_for_selector("[data-testid=seat-2].mine")
    ann.wait_for_selector("[data-testid=seat-2][data-taken='1']")
    ann.wait_for_selector("[data-testid=seat-1][data-taken='0']")
    assert "Bob" in ann.inner_text("[data-testid=seat-2]")
    # The host cannot start before every seat is filled.
    assert ann.is_disabled("[data-testid=start-button]")
    cid = new_page()
    join_table(cid, code, name="Cid", seat=1)
    ann.wait_for_selector("[data-testid=start-button]:not([disabled])")
    ann.click("[data-testid=start-button]")
    bob.wait_for_selector("[data-testid=play][data-you='2']")
    assert len(hand(bob)) == 5


def test_leave_and_kick_before_the_start(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=3, host="Ann")
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    cid = new_page()
    join_table(cid, code, name="Cid", seat=2)
    # Bob leaves: his seat is free again and his page offers the seats to sit in.
    bob.click("[data-testid=leave-button]")
    bob.wait_for_selector("[data-testid=sit-1]")
    ann.wait_for_selector("[data-testid=seat-1][data-taken='0']")
    # The host removes Cid: Cid's page turns into a spectator's page, with words.
    ann.click("[data-testid=kick-2]")
    ann.wait_for_selector("[data-testid=seat-2][data-taken='0']")
    cid.wait_for_selector("[data-testid=sit-2]")
    cid.wait_for_selector("[data-testid=error]")
    assert cid.query_selector("[data-testid=seat-2].mine") is None


def test_three_players_sit_around_the_table(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(33)
    ann = new_page()
    code = create_table(ann, players=3, host="Ann")
    bob, cid = new_page(), new_page()
    join_table(bob, code, name="Bob", seat=1)
    join_table(cid, code, name="Cid", seat=2)
    ann.wait_for_selector("[data-testid=start-button]:not([disabled])")
    ann.click("[data-testid=start-button]")
    pages = [ann, bob, cid]
    for p in pages:
        p.wait_for_selector("[data-testid=play]")
    # Clockwise from you: the next seat on your left, the one after on your right.
    assert "Bob" in ann.inner_text(".seat-left") and "Cid" in ann.inner_text(".seat-right")
    assert "Cid" in bob.inner_text(".seat-left") and "Ann" in bob.inner_text(".seat-right")
    assert len(ann.query_selector_all("[data-testid^=score-side-]")) == 3
    for _ in range(6):
        act(_advance_until(pages, rng, lambda p: True), rng)
    sync(pages)
    shot(ann, "11-three-players")


def test_closed_table(new_page) -> None:  # type: ignore[no-untyped-def]
    ann = new_page()
    code = create_table(ann, players=2, host="Ann")
    ann.click("[data-testid=leave-button]")
    ann.wait_for_selector("[data-testid=table-closed]")
    eve = new_page()
    eve.goto(f"/t/{code}")
    eve.wait_for_selector("[data-testid=table-closed]")


def test_play_in_ukrainian(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(8)
    ann = new_page(lang="uk")
    code = create_table(ann, players=2, host="Оксана")
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=start-button]:not([disabled])")
    ann.click("[data-testid=start-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play]")
    for _ in range(5):
        act(_advance_until([ann, bob], rng, lambda p: True), rng)
    sync([ann, bob])
    assert "Базар" in ann.inner_text("[data-testid=stock-count]")
    assert "Рахунок" in ann.inner_text("main")
    assert "Stock" in bob.inner_text("[data-testid=stock-count]")
    shot(ann, "12-ukrainian")
