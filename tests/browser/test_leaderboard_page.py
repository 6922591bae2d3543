"""Rated tables and the leaderboard in real Chromium, at a phone's width: a player
signs up with Chromium's virtual authenticator, the home page offers them a rated table
(a guest is not offered one), they play a rated match against a computer player, and the
leaderboard shows both — the player's rating marked provisional, the computer player by
its level — in each pool, in English and Ukrainian; the computer player's level shows its
rating where a level is chosen. Nothing wider than the screen, no serious axe-core
violation (docs/ratings.md)."""

from __future__ import annotations

import secrets

from .conftest import running_server, shot
from .test_a11y import _serious
from .test_profile_page import _authenticator


def test_a_rated_match_against_the_computer_reaches_the_leaderboard_on_a_phone(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="leaderboard-server.log") as base:
        base = base.replace("127.0.0.1", "localhost")  # a domain for the passkey's RP id
        errors: list[str] = []
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, base_url=base, bypass_csp=True
        )
        guest_ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, base_url=base, bypass_csp=True
        )
        try:
            guest = guest_ctx.new_page()
            guest.goto("/")
            guest.wait_for_selector("[data-testid=create-form]")
            guest.wait_for_timeout(300)  # the profile check has answered (401)
            assert guest.is_hidden("[data-testid=create-rated-row]")

            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            _authenticator(ctx, page)
            page.goto("/profile")
            handle = "lb_" + secrets.token_hex(3)
            page.fill("[data-testid=handle]", handle)
            page.fill("[data-testid=display-name]", "Lena")
            page.click("[data-testid=create]")
            page.wait_for_selector("[data-testid=signed-in-as]")

            page.goto("/")
            page.wait_for_selector("[data-testid=create-rated-row]", state="visible")
            page.fill("[data-testid=create-host-name]", "Lena")
            page.check("[data-testid=create-rated]")
            page.click("[data-testid=create-submit]")
            page.wait_for_selector("[data-testid=add-bot-1]")
            code = page.url.rsplit("/", 1)[1]
            assert page.evaluate(
                f"fetch('/api/tables/{code}').then(r => r.json()).then(t => t.rated)"
            )
            page.select_option("[data-testid=bot-level-1]", "easy")
            page.click("[data-testid=add-bot-1]")
            page.wait_for_selector("[data-testid=bot-mark-1][data-bot=easy]")
            page.click("[data-testid=start-button]")
            page.wait_for_selector("[data-testid=play]")
            # the table says it is rated and shows who is signed in, linked to their page
            assert page.inner_text("[data-testid=rated-badge]") == "Rated"
            link = page.wait_for_selector("[data-testid=seat-profile-link]")
            assert link.inner_text() == "@" + handle
            assert link.get_attribute("href") == "/p/" + handle
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            status = page.evaluate(
                f"""async () => {{
                  const token = localStorage.getItem("fiveup.seat.{code}");
                  const bearer = JSON.parse(token).token;
                  const r = await fetch("/api/tables/{code}/resign", {{method: "POST",
                    headers: {{Authorization: "Bearer " + bearer}}}});
                  return r.status;
                }}"""
            )
            assert status == 200

            page.wait_for_selector("[data-testid=match-end]")  # the resignation arrived
            page.goto("/")
            page.click("[data-testid=home-leaderboard-link]")
            page.wait_for_url("**/leaderboard")
            mine = page.wait_for_selector(f"[data-testid=lb-row][data-handle='{handle}']")
            assert "Lena" in mine.inner_text() and "@" + handle in mine.inner_text()
            assert mine.query_selector("[data-testid=lb-provisional]") is not None
            assert page.query_selector("[data-testid=lb-row][data-kind=computer]") is not None
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert _serious(page) == []
            shot(page, "leaderboard-phone")
            page.click("[data-testid=lb-pool-2]")
            page.wait_for_url("**/leaderboard?pool=2")
            page.wait_for_selector(f"[data-testid=lb-row][data-handle='{handle}']")
            page.goto(f"/t/{code}")  # the finished table shows the player's rating now
            page.wait_for_selector("[data-testid=seat-rating]")
            page.goto("/leaderboard?pool=2")
            page.click("[data-testid=lb-pool-3]")
            page.wait_for_selector("[data-testid=lb-empty]")
            page.select_option("[data-testid=lang]", "uk")
            page.wait_for_selector("[data-testid=lb-pool-all]:has-text('Усі')")
            page.select_option("[data-testid=lang]", "en")

            page.goto("/")  # the computer player's level shows its rating now
            page.wait_for_function(
                "() => /^easy · \\d+$/.test("
                "document.querySelector('[data-testid=practice-level] option[value=easy]').textContent)"
            )
        finally:
            ctx.close()
            guest_ctx.close()
        assert errors == []
