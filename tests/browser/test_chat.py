"""Table chat in the browser: during a full round two players and a spectator
chat — typed text (shown as text, never as HTML), quick messages and emotes — and every
page shows every message, the spectator's marked as the spectators' channel; a reload
brings the chat back (snapshot); a per-player mute hides that player's messages and is
remembered; the host turns spectator chat off and the spectator is told so; Ukrainian
shows the quick messages in Ukrainian."""

from __future__ import annotations

import random
from typing import Any

from .conftest import shot
from .flows import play_until_round_end, start_two_player_game, sync


def _messages(page: Any) -> list[dict[str, str]]:
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "[data-testid=chat-msg]",
        """els => els.map(e => ({channel: e.dataset.channel, seat: e.dataset.seat,
              name: e.querySelector('.chat-name').textContent,
              text: e.querySelector('.chat-text').textContent,
              marked: !!e.querySelector('.chat-tag')}))""",
    )


def _wait_messages(page: Any, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('[data-testid=chat-msg]').length >= {n}")


def _tuck(page: Any) -> None:
    """Tuck the round-end dialog away ("Show the board") so the chat under it is reachable."""
    page.wait_for_selector("[data-testid=hide-results]")
    page.click("[data-testid=hide-results]")
    page.wait_for_selector("[data-testid=show-results]")


def _say(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.click("[data-testid=chat-send]")


def test_two_players_and_a_spectator_chat_through_a_round(new_page) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(1107)
    ann, bob, code = start_two_player_game(new_page)
    eve = new_page()
    eve.goto(f"/t/{code}?watch=1")
    eve.wait_for_selector("[data-testid=play]")
    pages = [ann, bob, eve]
    steps = {"n": 0}
    said: list[str] = []

    def chat_now() -> None:
        steps["n"] += 1
        n = steps["n"]
        if n == 2:
            _say(ann, "<img src=x onerror=alert(1)> hi Bob")
            said.append("ann")
        elif n == 4:
            eve.click("[data-testid=chat-quick-good_move]")
            said.append("eve")
        elif n == 6:
            bob.click("[data-testid=chat-quick-emote_thumbs_up]")
            said.append("bob")
        if said:
            for p in pages:  # the message has reached every page before play goes on
                _wait_messages(p, len(said))
            sync(pages)

    play_until_round_end(pages, rng, on_step=chat_now)
    assert said == ["ann", "eve", "bob"], "the round ended before everyone chatted"
    for p in pages:
        _wait_messages(p, 3)
    expected = [
        {
            "channel": "table",
            "seat": "0",
            "name": "Ann: ",
            "text": "<img src=x onerror=alert(1)> hi Bob",
            "marked": False,
        },
        {
            "channel": "spectators",
            "seat": "",
            "name": "Spectator: ",
            "text": "Good move!",
            "marked": True,
        },
        {"channel": "table", "seat": "1", "name": "Bob: ", "text": "👍", "marked": False},
    ]
    for p in pages:
        assert _messages(p) == expected
        assert p.query_selector(".chat img") is None  # text, never HTML
    for p in pages:
        _tuck(p)
    eve.locator("[data-testid=chat-panel]").scroll_into_view_if_needed()
    shot(eve, "chat-spectator")

    # a reload brings the recent chat back (the snapshot carries it)
    bob.reload()
    bob.wait_for_selector("[data-testid=chat-msg]")
    _tuck(bob)
    _wait_messages(bob, 3)
    assert _messages(bob) == expected

    # Bob mutes Ann: her messages disappear for him, and stay hidden after a reload
    bob.click(".chat-mutes summary")
    bob.check("[data-testid=chat-mute-seat-0]")
    assert [m["seat"] for m in _messages(bob)] == ["", "1"]
    bob.reload()
    bob.wait_for_selector("[data-testid=chat-msg]")
    _tuck(bob)
    bob.wait_for_timeout(300)
    assert [m["seat"] for m in _messages(bob)] == ["", "1"]

    # the host turns spectator chat off: the spectator is told, and refused
    assert bob.query_selector("[data-testid=chat-spectators-toggle]") is None  # not the host
    ann.uncheck("[data-testid=chat-spectators-toggle]")
    eve.wait_for_selector("[data-testid=chat-off]:not([hidden])")
    assert eve.is_disabled("[data-testid=chat-input]")
    eve.evaluate(
        "window.__fiveupTest && document.querySelector('[data-testid=chat-input]').removeAttribute('disabled')"
    )
    _say(eve, "let me talk")
    eve.wait_for_selector("[data-testid=error]")
    assert "turned spectator chat off" in (eve.text_content("[data-testid=error]") or "")
    _say(ann, "players still chat")
    for p in (ann, eve):  # (Bob muted Ann)
        _wait_messages(p, 4)
    assert "let me talk" not in ann.text_content("[data-testid=chat-list]")
    ann.check("[data-testid=chat-spectators-toggle]")
    eve.wait_for_selector("[data-testid=chat-off][hidden]", state="attached")
    assert not eve.is_disabled("[data-testid=chat-input]")


def test_quick_messages_are_shown_in_ukrainian(new_page) -> None:  # type: ignore[no-untyped-def]
    ann, _bob, code = start_two_player_game(new_page)
    olena = new_page(lang="uk")
    olena.goto(f"/t/{code}?watch=1")
    olena.wait_for_selector("[data-testid=play]")
    ann.click("[data-testid=chat-quick-well_played]")
    _wait_messages(olena, 1)
    msg = _messages(olena)[0]
    assert msg["text"] == "Добре зіграно" and msg["name"] == "Ann: "
    assert olena.text_content("[data-testid=chat-panel] h2") == "Чат"
