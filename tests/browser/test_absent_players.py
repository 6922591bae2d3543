"""Absent players in the page: the turn clock drawn from the server's fields
(ring at the seat to move, bank, tab title on your turn, corrected for clock skew), the
autopilot's marks (the "(autopilot)" move, the on/off line, the seat's badge), and the
whole story on a live server with a short clock: one player closes the tab; the other
sees "disconnected", then the clock, then an autopilot move; after the handover the seat
wears the autopilot badge, and its player, opening the table again, takes it back."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.engine import Match, project_event, view_for

from .conftest import database, page_maker, running_server, shot
from .flows import act, join_table, my_turn, start_two_player_game, sync
from .test_a11y import _serious

#: the short relaxed clock of the live tests (seconds a move)
MOVE_SECONDS = 15
#: autopilot turns in a row before a seat stays on autopilot (live tests)
HANDOVER_MOVES = 2


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def _info(page: Any, code: str) -> dict[str, Any]:
    base = page.evaluate("location.origin")
    with urllib.request.urlopen(f"{base}/api/tables/{code}") as r:
        return dict(json.load(r))


def _inject(page: Any, frame: dict[str, Any]) -> None:
    page.evaluate("f => window.__fiveupTest.inject(f)", frame)
    page.wait_for_function(f"document.body.dataset.seq === '{frame['seq']}'")


def _clock_seconds(text: str) -> int:
    m = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def _match_with_seat0_to_open() -> Match:
    for seed in range(200):
        m = Match.new(2, random.Random(seed))
        if m.turn == 0:
            return m
    raise AssertionError("no deal in 200 where seat 0 opens")


def test_clock_ring_bank_title_and_autopilot_marks_follow_the_servers_fields(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _bob, code = start_two_player_game(new_page)
    info = _info(ann, code)
    m = _match_with_seat0_to_open()
    # The server's clock is an hour ahead of this browser's: the page must measure the
    # skew from server_time and count down to the deadline in the server's time.
    server_now = datetime.now(UTC) + timedelta(hours=1)
    clock = {"preset": "fast", "move_seconds": 20, "bank_seconds": 60}
    table = {
        **info,
        "clock": clock,
        "banks": [60, 45],
        "turn_deadline": _iso(server_now + timedelta(seconds=75)),  # 15 s + the 60 s bank
    }
    seq = 30_000
    snapshot = {"type": "snapshot", "seq": seq, "server_time": _iso(server_now), "you": 0}
    _inject(ann, {**snapshot, "table": table, "view": view_for(m, 0), "events": []})

    # Ann's own clock: a ring at her seat, the move time and the bank, in the title.
    ring = "[data-testid=seat-area-0] [data-testid=turn-clock]"
    ann.wait_for_selector(ring)
    assert ann.get_attribute(ring, "data-state") == "move"
    assert ann.get_attribute(ring, "role") == "timer"
    assert 0 < _clock_seconds(ann.inner_text(f"{ring} .clock-text")) <= 15
    assert ann.inner_text(f"{ring} [data-testid=turn-clock-bank]") == "bank 1:00"
    assert "left to move" in (ann.get_attribute(ring, "aria-label") or "")
    title = ann.title()
    assert re.match(r"^0:\d\d · Your turn — ", title), title
    assert "Clock: 20 s a move + 60 s bank a round" in ann.inner_text("[data-testid=clock-badge]")
    assert "Your turn: " in ann.inner_text("[data-testid=clock-announce]")
    first = ann.inner_text(f"{ring} .clock-text")
    ann.wait_for_function(  # it ticks in place, without a frame from the server
        f"document.querySelector('{ring} .clock-text').textContent !== '{first}'"
    )
    shot(ann, "absent-clock-own-turn")

    # Move time spent: the bank runs (and the announcement says so once).
    seq += 1
    table = {**table, "turn_deadline": _iso(server_now + timedelta(seconds=40))}
    _inject(ann, {**snapshot, "seq": seq, "table": table, "view": view_for(m, 0), "events": []})
    ann.wait_for_selector(f"{ring}[data-state=bank]")
    assert 0 < _clock_seconds(ann.inner_text(f"{ring} .clock-text")) <= 40
    ann.wait_for_function(
        "document.querySelector('[data-testid=clock-announce]').textContent.includes('bank is running')"
    )

    # Ann has played: Bob's clock is drawn at his seat; the title is hers again.
    move = next(x for x in m.legal_moves(0) if x.kind != "draw")
    m.play(0, move)
    assert m.turn == 1
    seq += 1
    table = {**table, "turn_deadline": _iso(server_now + timedelta(seconds=60))}
    _inject(ann, {**snapshot, "seq": seq, "table": table, "view": view_for(m, 0), "events": []})
    ann.wait_for_selector("[data-testid=seat-area-1] [data-testid=turn-clock]")
    assert ann.query_selector(ring) is None
    assert "Bob: " in (
        ann.get_attribute("[data-testid=seat-area-1] [data-testid=turn-clock]", "aria-label") or ""
    )
    assert not re.match(r"^\d+:\d\d", ann.title()) and "Your turn" not in ann.title()

    # Bob's clock runs out: the autopilot's move, then Bob's seat goes on autopilot.
    event = m.play(1, m.legal_moves(1)[0])
    seq += 1
    _inject(
        ann,
        {
            "type": "event",
            "seq": seq,
            "event": {**project_event(event, 0), "autopilot": True},
            "view": view_for(m, 0),
        },
    )
    seq += 1
    _inject(
        ann,
        {
            "type": "event",
            "seq": seq,
            "event": {"type": "autopilot", "seat": 1, "on": True},
            "table_patch": {"set": {"seats.1.autopilot": True}},
        },
    )
    items = ann.locator("[data-testid=log] li")
    assert "Bob is away: the autopilot plays for them" in items.nth(0).inner_text()
    assert "(autopilot)" in items.nth(1).inner_text()
    assert items.nth(1).get_attribute("data-autopilot") == "1"
    assert "(autopilot)" not in items.nth(2).inner_text()  # Ann's own move
    ann.wait_for_selector("[data-testid=seat-area-1] [data-testid=autopilot-badge]")
    shot(ann, "absent-autopilot-marks")
    assert _serious(ann) == []  # axe: the clock, the badge and the lines included

    # A reload in the same tab keeps the marks (the view's log has no flag).
    ann.reload()
    ann.wait_for_selector("[data-testid=play]")
    _inject(ann, {**snapshot, "seq": seq + 1, "table": table, "view": view_for(m, 0), "events": []})
    assert "(autopilot)" in ann.locator("[data-testid=log] li[data-kind]").nth(0).inner_text()


def test_create_form_offers_the_clock_presets(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    options = page.eval_on_selector_all(
        "[data-testid=create-clock] option", "els => els.map(e => [e.value, e.textContent])"
    )
    assert [v for v, _ in options] == ["none", "relaxed", "fast"]
    assert options[0][1] == "No clock (friends at leisure)"
    assert "90 s a move" in options[1][1]
    assert "20 s a move + 60 s bank a round" in options[2][1]


# ---- the live story, on a server of its own with a short clock ----


@pytest.fixture(scope="module")
def clock_server() -> Iterator[str]:
    with (
        database() as url,
        running_server(
            url,
            {
                "FIVEUP_CLOCK_RELAXED_MOVE_SECONDS": str(MOVE_SECONDS),
                "FIVEUP_AUTOPILOT_HANDOVER_MOVES": str(HANDOVER_MOVES),
            },
            log_name="server-absent-players.log",
        ) as base,
    ):
        yield base


@pytest.fixture
def clock_page(browser, clock_server):  # type: ignore[no-untyped-def]
    make, close = page_maker(browser, clock_server)
    yield make
    close()


def _clock_game(clock_page) -> tuple[Any, Any, str]:  # type: ignore[no-untyped-def]
    """Ann creates a private two-player table with the relaxed clock from the form, Bob
    joins, Ann starts: (ann, bob, code)."""
    ann = clock_page()
    ann.goto("/")
    ann.fill("[data-testid=create-name]", "Clock table")
    ann.fill("[data-testid=create-host-name]", "Ann")
    ann.select_option("[data-testid=create-clock]", "relaxed")
    ann.uncheck("[data-testid=create-public]")
    ann.click("[data-testid=create-submit]")
    ann.wait_for_selector("[data-testid=waiting-room]")
    # the table's numbers come from the server's settings
    ann.wait_for_selector("[data-testid=clock-badge][data-preset=relaxed]")
    assert f"{MOVE_SECONDS} s a move" in ann.inner_text("[data-testid=clock-badge]")
    code = ann.inner_text("[data-testid=table-code]")
    bob = clock_page()
    join_table(bob, code, name="Bob", seat=1)
    ann.wait_for_selector("[data-testid=seat-1][data-taken='1']")
    ann.click("[data-testid=start-button]")
    for p in (ann, bob):
        p.wait_for_selector("[data-testid=play]")
    return ann, bob, code


def _until_bobs_turn(ann: Any, bob: Any, rng: random.Random) -> None:
    """Ann plays until it is Bob's turn (each move well inside her own clock)."""
    for _ in range(20):
        sync([ann, bob])
        if my_turn(bob):
            return
        if my_turn(ann):
            act(ann, rng)
        else:
            ann.wait_for_timeout(100)
    raise AssertionError("it never became Bob's turn")


def test_a_player_closes_the_tab_the_other_sees_disconnected_the_clock_then_an_autopilot_move(
    clock_page,
) -> None:  # type: ignore[no-untyped-def]
    ann, bob, _code = _clock_game(clock_page)
    _until_bobs_turn(ann, bob, random.Random(9))
    before = ann.locator("[data-testid=log] li[data-kind]").count()

    bob.close()  # Bob closes the tab on his turn
    ann.wait_for_function(
        "(document.querySelector('[data-testid=turn-indicator]') || {}).textContent"
        "?.includes('Bob (disconnected)')"
    )
    shot(ann, "absent-disconnected")
    ann.wait_for_selector("[data-testid=seat-area-1] [data-testid=turn-clock]")
    shot(ann, "absent-clock")
    # At the deadline the server's autopilot plays Bob's move.
    ann.wait_for_selector(
        "[data-testid=log] li[data-seat='1'][data-autopilot='1']",
        timeout=(MOVE_SECONDS + 30) * 1000,
    )
    auto = ann.locator("[data-testid=log] li[data-seat='1'][data-autopilot='1']").first
    assert "(autopilot)" in auto.inner_text()
    assert ann.locator("[data-testid=log] li[data-kind]").count() > before
    shot(ann, "absent-autopilot-move")


def test_a_seat_left_on_autopilot_wears_the_badge_and_its_player_takes_it_back_on_return(
    clock_page,
) -> None:  # type: ignore[no-untyped-def]
    ann, bob, code = _clock_game(clock_page)
    rng = random.Random(4)
    _until_bobs_turn(ann, bob, rng)
    bob.close()  # Bob's tab is gone; his browser (and its seat token) stays
    # Ann plays her turns; Bob's run out, until his seat stays on autopilot (handover).
    badge = "[data-testid=seat-area-1] [data-testid=autopilot-badge]"
    for _ in range(HANDOVER_MOVES * (MOVE_SECONDS + 30) * 10):
        if ann.query_selector(badge):
            break
        if my_turn(ann):
            act(ann, rng)
        else:
            ann.wait_for_timeout(100)
    ann.wait_for_selector(badge, timeout=1000)
    on = ann.locator("[data-testid=autopilot-line][data-seat='1'][data-on='1']")
    assert "Bob is away: the autopilot plays for them" in on.inner_text()
    assert ann.locator("[data-testid=log] li[data-seat='1'][data-autopilot='1']").count() >= (
        HANDOVER_MOVES
    )
    shot(ann, "absent-autopilot-badge")

    # Bob opens the table again in his browser: the seat is his again at once.
    back = bob.context.new_page()
    back.goto(f"/t/{code}")
    back.wait_for_selector("[data-testid=play]")
    ann.wait_for_selector("[data-testid=autopilot-line][data-seat='1'][data-on='0']")
    assert "Bob is back and plays again." in ann.inner_text(
        "[data-testid=autopilot-line][data-seat='1'][data-on='0']"
    )
    ann.wait_for_selector(badge, state="detached")
    back.wait_for_selector("[data-testid=autopilot-badge]", state="detached")
    shot(ann, "absent-autopilot-back")
