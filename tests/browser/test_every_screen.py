"""Every screen for every player: the home page with a lobby of several tables, a table
in play (hand, targets, seats, score sheet) and after a round's result (the result
dialog, then the score sheet with the dialog tucked away), and the replay, at
1440x900, 1280x800 and on a 390x844 touch screen, at two, three and four players with
24-character names and computer seats. On every screen no page scrolls sideways, and
every score-sheet column, every hand tile, every target and every button of the result
dialog is on screen and tappable: ``document.elementFromPoint`` at its centre is the
element itself or inside it.

The browser's player sits at seat 0 (the same seat open on a desktop and a phone); the
other people's seats are joined over HTTP and never connect, so the server's autopilot
plays for them after a short grace (``FIVEUP_DISCONNECT_GRACE_SECONDS``); computer
seats play at once."""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import websockets.sync.client

from .conftest import database, page_maker, publish, running_server, shot
from .flows import my_turn, round_over, seq_of, wait_seq

#: 24 characters each (the longest name the server takes), with and without spaces
LONG = ["Wolfeschlegelsteinhausen", "Oleksandra Kovalenko-Shy", "Maximiliano Bartholomeus"]
assert all(len(n) == 24 for n in LONG)
#: a table name of the longest allowed length (40), one word
TABLE_NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"
assert len(TABLE_NAME) == 40

DESKTOPS = [(1440, 900), (1280, 800)]
PHONE = (390, 844)

# What a person sees and taps: every problem with an element, or none. The element is
# scrolled into view vertically only: one that needs a sideways scroll (of the page or
# of a box around it) to be seen counts as off screen.
CHECK_JS = """
(sels) => {
  const problems = [];
  const de = document.documentElement;
  if (de.scrollWidth > window.innerWidth) problems.push(`page scrolls sideways: ${de.scrollWidth} > ${window.innerWidth}`);
  const name = (el) => (el.dataset && (el.dataset.testid || el.dataset.tile || el.dataset.move)) || el.tagName + '.' + (el.getAttribute('class') || '');
  for (const sel of sels) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) problems.push(`nothing matches ${sel}`);
    for (const el of els) {
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      let sideways = window.scrollX !== 0;
      for (let a = el.parentElement; a; a = a.parentElement) if (a.scrollLeft) { sideways = true; a.scrollLeft = 0; }
      window.scrollTo(0, window.scrollY);
      if (sideways) problems.push(`${sel} ${name(el)}: needs a sideways scroll`);
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (!(r.width > 0 && r.height > 0 && r.left >= -0.5 && r.right <= window.innerWidth + 0.5 && r.top >= -0.5 && r.bottom <= window.innerHeight + 0.5)) {
        problems.push(`${sel} ${name(el)}: off screen (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)})`);
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) problems.push(`${sel} ${name(el)}: a tap at its centre lands on ${hit ? name(hit) : 'nothing'}`);
    }
  }
  window.scrollTo(0, 0);
  return problems;
}
"""

SHEET_CELLS = "[data-testid=score-sheet] th, [data-testid=score-sheet] tbody td"
HAND = "[data-testid=hand-tile]"
# the dashed rectangle of every target, where a person taps (flows.click_target)
TARGETS = "svg.board [data-move] .target-rect"


def _problems(page: Any, sels: list[str]) -> list[str]:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(CHECK_JS, sels)  # type: ignore[no-any-return]


def _post(base: str, path: str, body: dict[str, Any] | None, token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body or {}).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def _table(
    base: str, players: int, people: list[str], bots: list[int], start: bool = True
) -> tuple[str, str]:
    """A public table: seat 0 hosted by ``people[0]``, the other people in the next free
    seats, computer players in ``bots``; started when ``start``. (code, host token)"""
    made = _post(
        base,
        "/api/tables",
        {"name": TABLE_NAME, "players": players, "public": True, "host_name": people[0]},
    )
    code, token = made["code"], made["token"]
    free = [s for s in range(1, players) if s not in bots]
    for name, seat in zip(people[1:], free, strict=False):
        _post(base, f"/api/tables/{code}/join", {"name": name, "seat": seat})
    for seat in bots:
        _post(base, f"/api/tables/{code}/bots", {"seat": seat, "level": "easy"}, token)
    if start:
        _post(base, f"/api/tables/{code}/start", {}, token)
    return code, token


@pytest.fixture(scope="module")
def screen_server() -> Iterator[str]:
    with (
        database() as url,
        running_server(
            url,
            {"FIVEUP_DISCONNECT_GRACE_SECONDS": "0.2", "FIVEUP_AUTOPILOT_HANDOVER_MOVES": "1"},
            log_name="server-every-screen.log",
        ) as base,
    ):
        yield base


@pytest.fixture
def screens(browser, screen_server):  # type: ignore[no-untyped-def]
    """(desktop page, phone page) factory on the module's server; the phone is a touch
    screen (mobile, touch, 3 device pixels a CSS pixel)."""
    make, close = page_maker(browser, screen_server)
    phones: list[tuple[Any, list[str]]] = []

    def phone() -> Any:
        ctx = browser.new_context(
            viewport={"width": PHONE[0], "height": PHONE[1]},
            base_url=screen_server,
            bypass_csp=True,
            has_touch=True,
            is_mobile=True,
            device_scale_factor=3,
        )
        ctx.add_init_script("try { localStorage.setItem('fiveup.lang', 'en') } catch (e) {}")
        ctx.set_default_timeout(45_000)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        phones.append((ctx, errors))
        return page

    yield make, phone
    for ctx, _ in phones:
        ctx.close()
    close()
    assert not [e for _, errs in phones for e in errs], "JavaScript errors on the phone"


def _sit(page: Any, code: str, token: str) -> None:
    """Open the waiting room as the player of seat 0 (its token saved as the client
    saves it)."""
    page.goto("/")
    page.evaluate(
        "([c, t]) => { localStorage.setItem('fiveup.seat.' + c, JSON.stringify({ token: t, seat: 0 }));"
        " localStorage.setItem('fiveup.hint', 'seen'); }",
        [code, token],
    )
    page.goto(f"/t/{code}")
    page.wait_for_selector("[data-testid=seat-0].mine")


def _tap_a_move(phone: Any) -> None:
    """On the phone: tap a playable tile, then its first target; else Draw. A pass is
    never tapped: the server plays it itself in the commit that made it the only legal
    move (R19), and its frame may show the Pass button for an instant before the
    automatic pass's own frame arrives — so that pass is only waited for."""
    before = seq_of(phone)
    tile = phone.locator(f"{HAND}[data-playable='1']")
    if tile.count():
        tile.first.tap()
        phone.wait_for_selector(TARGETS)
        phone.locator(TARGETS).first.tap()
    elif phone.query_selector("[data-testid=draw-button]"):
        phone.tap("[data-testid=draw-button]")
    wait_seq(phone, before + 1)


def _check_in_play(desk: Any, phone: Any, label: str) -> list[str]:
    """At seat 0's turn with a tile to play: every screen's hand, targets, score sheet."""
    out: list[str] = []
    for page, size in [(desk, s) for s in DESKTOPS] + [(phone, PHONE)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_selector(f"[data-testid=play][data-my-turn='1'] {HAND}[data-playable='1']")
        out += [
            f"{label} {size} in play: {p}"
            for p in _problems(page, [HAND, SHEET_CELLS, "[data-testid=seat-area-0]"])
        ]
        tile = page.locator(f"{HAND}[data-playable='1']").first
        tile.tap() if page is phone else tile.click()
        page.wait_for_selector(TARGETS)
        out += [f"{label} {size} targets: {p}" for p in _problems(page, [TARGETS])]
        shot(page, f"every-{label}-{size[0]}-targets")
        page.keyboard.press("Escape")
        page.wait_for_function(f"!document.querySelector('{TARGETS}')")
    return out


def _check_after_round(desk: Any, phone: Any, label: str) -> list[str]:
    out: list[str] = []
    for page, size in [(desk, s) for s in DESKTOPS] + [(phone, PHONE)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_selector("[data-testid=round-end], [data-testid=match-end]")
        dialog = "[data-testid=round-end] button, [data-testid=match-end] button"
        out += [f"{label} {size} result: {p}" for p in _problems(page, [dialog])]
        shot(page, f"every-{label}-{size[0]}-result")
        page.click("[data-testid=hide-results]")
        page.wait_for_selector("[data-testid=show-results]")
        page.wait_for_selector("[data-testid=sheet-row][data-settled='1']")
        out += [
            f"{label} {size} sheet: {p}"
            for p in _problems(page, [SHEET_CELLS, "[data-testid=show-results]"])
        ]
        page.locator("[data-testid=score-sheet]").scroll_into_view_if_needed()
        shot(page, f"every-{label}-{size[0]}-sheet")
        page.click("[data-testid=show-results]")
    return out


# (players, the people after seat 0, the computer seats)
SEATINGS = {
    2: ([], [1]),
    3: ([LONG[1]], [2]),
    4: ([LONG[1], LONG[2]], [1]),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_fits_and_every_target_is_tappable_at_every_size(
    screens, screen_server, players: int
) -> None:  # type: ignore[no-untyped-def]
    make, make_phone = screens
    people, bots = SEATINGS[players]
    code, token = _table(screen_server, players, [LONG[0], *people], bots, start=False)
    desk = make(*DESKTOPS[0])
    phone = make_phone()
    for p in (desk, phone):
        _sit(p, code, token)  # connected before the start: the autopilot leaves seat 0 alone
    _post(screen_server, f"/api/tables/{code}/start", {}, token)
    for p in (desk, phone):
        p.wait_for_selector("[data-testid=play]")
    label = f"{players}p"
    problems: list[str] = []
    checked_play = False
    for _ in range(400):
        if round_over(phone):
            break
        if not my_turn(phone):
            phone.wait_for_timeout(50)
            continue
        if not checked_play and phone.query_selector(f"{HAND}[data-playable='1']"):
            wait_seq(desk, seq_of(phone))
            problems += _check_in_play(desk, phone, label)
            checked_play = True
            continue
        _tap_a_move(phone)
    assert checked_play and round_over(phone)
    wait_seq(desk, seq_of(phone))
    problems += _check_after_round(desk, phone, label)
    # The replay of the finished round, at every size.
    for page, size in [(desk, s) for s in DESKTOPS] + [(phone, PHONE)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"/t/{code}/replay")
        page.wait_for_selector("[data-testid=replay] [data-testid=board]")
        problems += [f"{label} {size} replay: {p}" for p in _problems(page, [])]
    assert not problems, "\n".join(problems)
    if players == 4:
        publish(f"every-{label}-{PHONE[0]}-targets.png", "phone-four-players.png")


def test_home_with_a_lobby_of_several_tables_fits_every_size(screens, screen_server) -> None:  # type: ignore[no-untyped-def]
    make, make_phone = screens
    made = [
        _table(screen_server, 4, [LONG[0], LONG[1]], [1, 3]),
        _table(screen_server, 3, [LONG[2]], [], start=False),
        _table(screen_server, 2, [LONG[1]], [1]),
    ]
    # the lobby lists tables a person is at: each host keeps a socket open
    ws_base = screen_server.replace("http://", "ws://", 1)
    with contextlib.ExitStack() as hosts:
        for code, token in made:
            hosts.enter_context(
                websockets.sync.client.connect(f"{ws_base}/ws/tables/{code}?token={token}")
            )
        _home_fits(make, make_phone)


def _home_fits(make: Any, make_phone: Any) -> None:
    desk = make(*DESKTOPS[0])
    phone = make_phone()
    problems: list[str] = []
    cells = "[data-testid=lobby-row] td, [data-testid=lobby-join], [data-testid=lobby-watch]"
    for page, size in [(desk, s) for s in DESKTOPS] + [(phone, PHONE)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto("/")
        page.wait_for_function("document.querySelectorAll('[data-testid=lobby-row]').length >= 3")
        problems += [
            f"home {size}: {p}" for p in _problems(page, [cells, "[data-testid=create-submit]"])
        ]
        page.locator("[data-testid=lobby]").scroll_into_view_if_needed()
        shot(page, f"every-home-{size[0]}")
    assert not problems, "\n".join(problems)
    publish(f"every-home-{PHONE[0]}.png", "phone-home.png")
