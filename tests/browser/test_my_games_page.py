"""My games and the player page in real Chromium on a 390 px phone, with Chromium's
virtual authenticator for the sign-up (the profile page's helper): a guest's my-games
lists the table this browser remembers; signed in, the live practice table waits for
the player's move and the finished matches (rows written into the database, as a
match's end writes them, its players' running totals included) show result, scores, partner, opponents and a replay link;
the player page shows the figures and links the opponent's page; visibility ``me``
hides the page from a guest; Ukrainian strings; nothing wider than the phone, no
serious axe-core violation."""

from __future__ import annotations

import re
import secrets

from app.db.figures_sql import totals_statements
from app.db.result_rows import MatchResult, SeatResult

from .conftest import psycopg, running_server, shot
from .test_a11y import _serious
from .test_profile_page import _authenticator

_PRACTICE = """async () => {
  const r = await fetch("/api/practice", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({players: 2, level: "easy", name: "Ann", clock: "none"})});
  const j = await r.json();
  localStorage.setItem("fiveup.seat." + j.code, JSON.stringify({token: j.token, seat: j.seat}));
  return j.code;
}"""


def _results(db: str, handle: str, rival: str) -> None:
    """A rival profile and two finished matches of ``handle``'s: a four-player win with a
    guest partner against the rival and a computer player, a two-player loss to the rival."""
    with psycopg.connect(db, autocommit=True) as conn:
        me = conn.execute("SELECT id FROM profiles WHERE handle = %s", (handle,)).fetchone()[0]
        them = conn.execute(
            "INSERT INTO profiles (handle, handle_key, display_name, user_handle, visibility,"
            " created_at) VALUES (%s, %s, 'Cy Wu', %s, 'everyone', now()) RETURNING id",
            (rival, rival, secrets.token_urlsafe(16)),
        ).fetchone()[0]
        four = [(0, me, "Ann", True, 255), (1, them, "Cy", False, 120)]
        four += [(0, None, "Pat", True, 255), (1, None, "Hard", False, 120)]
        two = [(0, me, "Ann", False, 180), (1, them, "Cy", True, 250)]
        seats = [(4, four), (2, two)]
        for n, (players, rows) in enumerate(seats, 1):
            winner = next(side for side, _, _, won, _ in rows if won)
            match_id = conn.execute(
                "INSERT INTO match_results (table_id, table_code, match_number, players, rated,"
                " target, rounds, winner_side, finished_at) VALUES (%s, 'ZZ9', %s, %s, false,"
                " 250, 6, %s, now() + %s * interval '1 second') RETURNING id",
                (700_000 + n, n, players, winner, n),
            ).fetchone()[0]
            for seat, (side, pid, name, won, score) in enumerate(rows):
                conn.execute(
                    "INSERT INTO match_players (match_id, seat, side, profile_id, name, won, score,"
                    " rounds_dominoed, points_made, deductions, best_round) VALUES"
                    " (%s, %s, %s, %s, %s, %s, %s, 2, 150, 5, 45)",
                    (match_id, seat, side, pid, name, won, score),
                )
            # the players' running totals, by the server's own statements (as a match's
            # end adds to them: app/db/figures_sql.py)
            result = MatchResult(
                n,
                players,
                False,
                250,
                6,
                winner,
                None,
                tuple(
                    SeatResult(seat, side, name, "", None, won, score, 2, 150, 5, 45)
                    for seat, (side, _, name, won, score) in enumerate(rows)
                ),
            )
            bound = {seat: pid for seat, (_, pid, *_) in enumerate(rows) if pid is not None}
            for statement, params in totals_statements(result, bound):
                conn.execute(re.sub(r"(?<!:):(\w+)", r"%(\1)s", statement), params)


def _fits(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert _serious(page) == []


def test_my_games_and_the_player_page_on_a_phone_for_a_guest_and_a_signed_in_player(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="games-server.log") as base:
        base = base.replace("127.0.0.1", "localhost")  # a domain, for the WebAuthn RP id
        errors: list[str] = []
        phone = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
        try:
            page = phone.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            _authenticator(phone, page)
            page.goto("/")
            guest_code = page.evaluate(_PRACTICE)
            page.reload()  # the top bar, with its link to my games, fits the phone
            page.wait_for_selector("[data-testid=games-top]:has-text('Games')")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.click("[data-testid=games-top]")  # the home page's top bar
            page.wait_for_url("**/games")
            row = page.wait_for_selector(f"[data-testid=live-table][data-code='{guest_code}']")
            assert row.get_attribute("data-your-move") == "false"  # a guest's: not asked
            assert "remembers" in page.inner_text("[data-testid=guest-note]")
            _fits(page)

            page.click("[data-testid=profile-top]")
            page.wait_for_url("**/profile")
            handle, rival = "ann_" + secrets.token_hex(3), "cy_" + secrets.token_hex(3)
            page.fill("[data-testid=handle]", handle)
            page.fill("[data-testid=display-name]", "Ann Lee")
            page.click("[data-testid=create]")
            page.wait_for_selector("[data-testid=signed-in-as]")
            code = page.evaluate(_PRACTICE)  # signed in: the seat is bound to the profile
            _results(browser_db, handle, rival)

            page.goto("/games")
            row = page.wait_for_selector(f"[data-testid=live-table][data-code='{code}']")
            assert row.get_attribute("data-your-move") == "true"
            assert "Your move" in row.inner_text()
            matches = page.query_selector_all("[data-testid=finished-match]")
            assert [m.get_attribute("data-match") for m in matches] == ["2", "1"]  # newest first
            assert matches[0].inner_text().startswith("Lost")
            four = matches[1].inner_text()
            assert "Won" in four and "255 – 120" in four and "Partner: Pat" in four
            assert "Opponents: Cy, Hard" in four
            replay = matches[1].query_selector("[data-testid=replay]")
            assert replay.get_attribute("href") == "/t/ZZ9/replay?match=1"
            _fits(page)
            shot(page, "my-games-phone")

            page.click("[data-testid=my-page]")
            page.wait_for_url(f"**/p/{handle}")
            name = page.wait_for_selector("[data-testid=player-name]")
            assert "Ann Lee" in name.inner_text() and f"@{handle}" in name.inner_text()
            assert page.inner_text("[data-testid=stats-all] [data-figure=played]") == "2"
            assert page.inner_text("[data-testid=stats-all] [data-figure=won]") == "1"
            assert page.inner_text("[data-testid=stats-2] [data-figure=points_per_round]") == "25"
            pair = page.wait_for_selector(f"[data-testid=opponents] [data-handle='{rival}']")
            assert "1 of 2 won" in pair.inner_text()
            _fits(page)
            shot(page, "player-page-phone")

            page.goto("/games")
            page.check("[data-testid=vis-me]")
            page.wait_for_selector("#vis-error:has-text('Saved')")
            stranger = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
            try:
                other = stranger.new_page()
                other.goto(f"/p/{handle}")
                missing = other.wait_for_selector("[data-testid=player-missing]")
                assert "no such player page" in missing.inner_text()
                assert "Ann Lee" not in other.content()
                _fits(other)
            finally:
                stranger.close()

            page.select_option("[data-testid=lang]", "uk")
            page.wait_for_selector("h1.games-title:has-text('Мої ігри')")
            page.wait_for_selector("[data-testid=finished-match]:has-text('Поразка')")
            _fits(page)
        finally:
            phone.close()
        assert errors == []
