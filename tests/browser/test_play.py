"""End-to-end games in real Chromium against a real server on PostgreSQL."""

from __future__ import annotations

import random
import re

from .conftest import publish, shot
from .flows import (
    act,
    create_table,
    hand,
    join_table,
    my_turn,
    play_until_round_end,
    round_over,
    seq_of,
    start_two_player_game,
    sync,
)


def _settled_hands(page, players: int) -> list[list[str]]:  # type: ignore[no-untyped-def]
    out = []
    for seat in range(players):
        out.append(
            page.eval_on_selector_all(
                f"[data-testid=settle-hand-{seat}] [data-tile]",
                "els => els.map(e => e.dataset.tile)",
            )
        )
    return out


def test_two_players_play_a_round_with_a_spectator(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(20261129)
    ann = new_page()
    code = create_table(ann, players=2, host="Ann", name="Friday")
    shot(ann, "01-waiting-room")
    bob = new_page()
    join_table(bob, code, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=seat-1][data-taken='1']")
    # The spectator watches from the lobby's Watch button.
    eve = new_page()
    eve.goto("/")
    eve.click(f"[data-testid=lobby-row][data-code='{code}'] [data-testid=lobby-watch]")
    eve.wait_for_selector("[data-testid=spectating]")
    ann.click("[data-testid=start-button]")
    pages = [ann, bob, eve]
    for p in pages:
        p.wait_for_selector("[data-testid=play]")
    assert eve.query_selector("[data-testid=hand-tile]") is None

    seen_hidden: set[str] = set()
    leaks: list[str] = []
    shots = {"n": 0}

    def check_spectator() -> None:
        sync(pages)
        hidden = set(hand(ann)) | set(hand(bob))
        seen_hidden.update(hidden)
        html = eve.content()
        leaks.extend(f"spectator: {t} (seq {seq_of(eve)})" for t in hidden if t in html)
        # Neither player's page shows the other's hand either.
        ann_html, bob_html = ann.content(), bob.content()
        leaks.extend(f"Ann's page: {t}" for t in hand(bob) if t in ann_html)
        leaks.extend(f"Bob's page: {t}" for t in hand(ann) if t in bob_html)
        assert eve.query_selector("[data-testid=hand-tile]") is None
        # Counts of the face-down hands agree with the players' own pages.
        for seat, pg in ((0, ann), (1, bob)):
            n = eve.get_attribute(f"[data-testid=seat-area-{seat}]", "data-hand-size")
            assert n == str(len(hand(pg)))
        shots["n"] += 1
        if shots["n"] == 6:
            # Select a tile so the targets show, for the screenshot.
            for pg in (ann, bob):
                if my_turn(pg) and pg.query_selector("[data-testid=hand-tile][data-playable='1']"):
                    shot(eve, "03-spectator")
                    break

    rounds_played = 0
    drew = False
    while True:
        actions = play_until_round_end(pages, rng, on_step=check_spectator)
        rounds_played += 1
        drew = drew or "draw" in actions
        assert not leaks, f"spectator page showed hidden tiles: {leaks}"
        for p in pages:
            p.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
        shot(ann, f"04-round-end-{rounds_played}")
        # The results can be tucked away to look at the final board, and brought back.
        ann.click("[data-testid=hide-results]")
        ann.wait_for_selector("[data-testid=show-results]")
        ann.click("[data-testid=show-results]")
        ann.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
        # The settlement reveals every hand, the same on every page; the revealed hands
        # are exactly what the players still held.
        revealed = _settled_hands(ann, 2)
        assert revealed == _settled_hands(bob, 2) == _settled_hands(eve, 2)
        assert sorted(revealed[0]) == sorted(hand(ann))
        assert sorted(revealed[1]) == sorted(hand(bob))
        log_kinds = eve.eval_on_selector_all(
            "[data-testid=log] li", "els => els.map(e => e.dataset.kind)"
        )
        if drew or rounds_played >= 6 or eve.query_selector("[data-testid=match-end]"):
            break
        # No draw happened this round (R17 decides, not us): play another one.
        for p in (ann, bob):
            p.click("[data-testid=next-round-button]")
        for p in pages:
            p.wait_for_selector("[data-testid=play][data-phase=playing]")
    assert drew, "no round with a draw in six rounds"
    assert "draw" in log_kinds or drew


def test_reload_mid_round_resumes(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    ann, bob, _code = start_two_player_game(new_page)
    pages = [ann, bob]
    for _ in range(3):
        sync(pages)
        actor = ann if my_turn(ann) else bob
        act(actor, rng)
    sync(pages)
    before_hand = hand(bob)
    before_log = bob.inner_text("[data-testid=log]")
    before_board = bob.eval_on_selector_all(
        "svg.board [data-board-tile]", "els => els.map(e => e.dataset.tile)"
    )
    bob.reload()
    bob.wait_for_selector("[data-testid=play]")
    sync(pages)
    assert hand(bob) == before_hand
    assert bob.inner_text("[data-testid=log]") == before_log
    assert (
        bob.eval_on_selector_all(
            "svg.board [data-board-tile]", "els => els.map(e => e.dataset.tile)"
        )
        == before_board
    )
    # The game carries on from the reloaded page.
    sync(pages)
    actor = ann if my_turn(ann) else bob
    act(actor, rng)
    sync(pages)


def test_reconnect_without_reload_catches_up(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    ann, bob, _code = start_two_player_game(new_page)
    pages = [ann, bob]
    sync(pages)
    # Drop Bob's socket while it is Ann's turn ... or Bob's: whoever is not Bob acts.
    for _ in range(20):  # Bob plays (and draws) until it is Ann's turn
        if not my_turn(bob):
            break
        act(bob, rng)
        sync(pages)
    assert my_turn(ann)
    n_before = bob.eval_on_selector_all("[data-testid=log] li", "els => els.length")
    bob.evaluate("window.__fiveupTest.dropSocket()")
    bob.wait_for_selector("[data-testid=conn][data-state=reconnecting]")
    # Ann plays while Bob is away (Bob's page cannot see it yet).
    act(ann, rng)
    bob.wait_for_selector("[data-testid=conn][data-state=open]")
    sync(pages)
    assert bob.eval_on_selector_all("[data-testid=log] li", "els => els.length") == n_before + 1
    # Bob's page caught up: same moves, each shown once, same board and scores. (The
    # texts differ only where a draw shows the drawn tile to the drawer alone.)
    kinds = "els => els.map(e => e.dataset.kind)"
    assert bob.eval_on_selector_all("[data-testid=log] li", kinds) == ann.eval_on_selector_all(
        "[data-testid=log] li", kinds
    )
    tiles = "els => els.map(e => e.dataset.tile)"
    assert bob.eval_on_selector_all(
        "svg.board [data-board-tile]", tiles
    ) == ann.eval_on_selector_all("svg.board [data-board-tile]", tiles)
    assert bob.inner_text("[data-testid=scores]") == ann.inner_text("[data-testid=scores]")
    assert bob.get_attribute("[data-testid=play]", "data-turn") == ann.get_attribute(
        "[data-testid=play]", "data-turn"
    )


def test_four_players_in_partnerships(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(4)
    names = ["Ann", "Bob", "Cid", "Dee"]
    pages = [new_page()]
    code = create_table(pages[0], players=4, host=names[0])
    for seat in (1, 2, 3):
        pg = new_page(390, 844) if seat == 3 else new_page()  # Dee plays on a phone
        join_table(pg, code, name=names[seat], seat=seat)
        pages.append(pg)
    host = pages[0]
    host.wait_for_selector("[data-testid=seat-3][data-taken='1']")
    partners = host.inner_text("[data-testid=partners]")
    assert "Ann" in partners and "Cid" in partners and "Bob" in partners and "Dee" in partners
    assert (
        partners.index("Ann")
        < partners.index("Cid")
        < partners.index("Bob")
        < partners.index("Dee")
    )
    shot(host, "05-four-waiting")
    host.click("[data-testid=start-button]")
    for p in pages:
        p.wait_for_selector("[data-testid=play]")
    # Partners share one score: two sides.
    assert len(host.query_selector_all("[data-testid=scores] tr")) == 2
    assert "Ann & Cid" in host.inner_text("[data-testid=scores]")
    steps = {"n": 0, "best": False}

    def maybe_shot() -> None:
        steps["n"] += 1
        if steps["n"] == 9:
            shot(host, "06-four-playing")
            shot(pages[3], "06-four-phone")
            assert pages[3].evaluate(
                "document.documentElement.scrollWidth <= window.innerWidth + 1"
            )
        # For the README: a moment with a spinner's branch in play, points scored and
        # a fair number of tiles down.
        if not steps["best"]:
            good = host.evaluate("""() => {
              const tiles = document.querySelectorAll('svg.board [data-board-tile]').length;
              const branch = /branch/.test(document.querySelector('[data-testid=log]')?.textContent || '');
              const scored = [...document.querySelectorAll('[data-testid^=score-side-]')].some(e => e.dataset.score !== '0');
              return tiles >= 9 && branch && scored;
            }""")
            if good:
                steps["best"] = True
                shot(host, "06-four-best")

    play_until_round_end(pages, rng, on_step=maybe_shot)
    for p in pages:
        assert round_over(p)
    shot(host, "07-four-round-end")
    # the server's countdown (900 s in this suite) is shown as a live timer
    countdown = re.fullmatch(
        r"Next round in (\d+) s", host.inner_text("[data-testid=next-round-countdown]")
    )
    assert countdown and 600 < int(countdown[1]) <= 900
    # Everyone says ready: the next round is dealt on every page, scores carried over.
    scores = host.inner_text("[data-testid=scores]")
    for i, p in enumerate(pages):
        p.click("[data-testid=next-round-button]")
        host.wait_for_function(
            f"(document.querySelector('[data-testid=ready-list]')?.textContent || '').includes({names[i]!r})"
            " || document.querySelector('[data-testid=play][data-phase=playing]') !== null"
        )
    for p in pages:
        p.wait_for_selector("[data-testid=play][data-phase=playing]")
        assert p.query_selector("[data-testid=round-end]") is None
    assert "round 2" in host.inner_text("[data-testid=play]") or "round 2" in host.inner_text(
        "main"
    )
    assert host.inner_text("[data-testid=scores]") == scores
    assert len(hand(pages[1])) == 5
    publish(
        "06-four-best.png" if steps["best"] else "06-four-playing.png", "table-four-players.png"
    )
