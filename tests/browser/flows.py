"""Helpers that drive the client the way a person does: by clicking what the page
offers. Moves are chosen from the page's own legal targets (hand tiles marked
playable, the board's `[data-move]` targets, the Draw/Pass buttons)."""

from __future__ import annotations

import random
import re
from typing import Any

TILE_RE = re.compile(r"\b[0-6]\|[0-6]\b")


def create_table(
    page: Any, *, players: int, host: str, name: str = "Test table", public: bool = True
) -> str:
    page.goto("/")
    page.fill("[data-testid=create-name]", name)
    page.fill("[data-testid=create-host-name]", host)
    page.select_option("[data-testid=create-players]", str(players))
    if not public:
        page.uncheck("[data-testid=create-public]")
    page.click("[data-testid=create-submit]")
    page.wait_for_selector("[data-testid=waiting-room]")
    code = page.text_content("[data-testid=table-code]")
    assert code and len(code) == 6
    return code


def join_table(page: Any, code: str, *, name: str, seat: int) -> None:
    page.goto(f"/t/{code}")
    page.wait_for_selector(f"[data-testid=sit-{seat}]")
    page.wait_for_function("(document.body.dataset.seq || '') !== ''")  # first snapshot applied
    page.fill("[data-testid=join-name]", name)
    page.click(f"[data-testid=sit-{seat}]")
    page.wait_for_selector(f"[data-testid=seat-{seat}].mine")


def start_two_player_game(
    new_page: Any, *, bob_viewport: tuple[int, int] | None = None, host: str = "Ann"
) -> tuple[Any, Any, str]:
    """Ann creates a private 2-player table, Bob joins seat 1, Ann starts: (ann, bob, code)."""
    ann = new_page()
    code = create_table(ann, players=2, host=host, public=False)
    bob = new_page(*bob_viewport) if bob_viewport else new_page()
    join_table(bob, code, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=seat-1][data-taken='1']")
    ann.click("[data-testid=start-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play]")
    return ann, bob, code


def seq_of(page: Any) -> int:
    v = page.evaluate("document.body.dataset.seq")
    return int(v) if v not in (None, "") else -1


def wait_seq(page: Any, at_least: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {at_least}")


def sync(pages: list[Any]) -> int:
    """Wait until every page has applied the same (newest) seq."""
    top = max(seq_of(p) for p in pages)
    for p in pages:
        wait_seq(p, top)
    return top


def hand(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "[data-testid=hand-tile]", "els => els.map(e => e.dataset.tile)"
    )


def my_turn(page: Any) -> bool:
    return (
        page.query_selector(
            "[data-testid=play][data-phase=playing][data-my-turn='1'][data-busy='0']"
        )
        is not None
    )


def round_over(page: Any) -> bool:
    return page.query_selector("[data-testid=round-end], [data-testid=match-end]") is not None


def click_target(page: Any, move: str) -> None:
    """Click the board's target for ``move`` on its dashed rectangle, where a person
    clicks. (Not the target as a whole: a target laid far from its open end carries its
    connector line, and the middle of the whole group can fall on bare felt between the
    two, which takes no click.)"""
    page.locator(f"svg.board [data-move='{move}'] .target-rect").click()


def act(page: Any, rng: random.Random) -> str:
    """Make one legal action by clicking; returns what was done."""
    before = seq_of(page)
    playable = page.eval_on_selector_all(
        "[data-testid=hand-tile][data-playable='1']", "els => els.map(e => e.dataset.tile)"
    )
    if playable:
        tile = rng.choice(playable)
        # Locators (not element handles): the page re-renders on every server frame.
        # The first click only selects the tile and shows its places (never plays).
        page.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
        page.wait_for_selector("svg.board [data-move]")
        assert seq_of(page) == before, "a first click on a tile must not play it"
        moves = page.eval_on_selector_all(
            "svg.board [data-move]", "els => els.map(e => e.dataset.move)"
        )
        move = rng.choice(moves)
        if len(moves) == 1 and rng.random() < 0.5:
            # A tile with one place: a second click on the tile itself plays it.
            page.locator(f"[data-testid=hand-tile][data-tile='{tile}']").click()
            done = f"play {move} (tile clicked twice)"
        else:
            click_target(page, move)
            done = f"play {move}"
    elif page.query_selector("[data-testid=draw-button]"):
        page.click("[data-testid=draw-button]")
        done = "draw"
    elif page.query_selector("[data-testid=pass-button]"):
        # R19: the server passes for the seat in the commit that left it only a pass;
        # the button shows until that pass's frame arrives, so it is waited for
        done = "pass"
    else:
        raise AssertionError("my turn but nothing to do on the page")
    wait_seq(page, before + 1)
    return done


def play_until_round_end(
    pages: list[Any], rng: random.Random, on_step: Any = None, max_steps: int = 400
) -> list[str]:
    """Players (pages) act in turn until the round-end screen shows on all of them."""
    actions: list[str] = []
    for _ in range(max_steps):
        sync(pages)
        if all(round_over(p) for p in pages):
            return actions
        if on_step:
            on_step()
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            # All pages are at the same seq, so the state is settling (e.g. a move in
            # flight): give the pages a moment and look again.
            pages[0].wait_for_timeout(100)
            continue
        actions.append(act(actor, rng))
    raise AssertionError(f"round did not end in {max_steps} steps: {actions[-10:]}")


def page_tiles_text(page: Any) -> str:
    """Everything a page exposes: its HTML (DOM text, attributes and inline SVG)."""
    return page.content()
