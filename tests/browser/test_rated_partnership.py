"""A rated four-player partnership match played to 61 in real Chromium, the players
signed in with passkeys made by Chromium's virtual authenticator (no ceremony mocked):
Ann (a desktop, and her phone signed in by a one-time link) and Bea (a phone) are
partners (seats 0 and 2, R2) against two medium computer players (who score well enough
to end a match in a few rounds). Then my games lists the
match on both of Ann's devices after her live table, her player page shows it with Bea
as partner, the leaderboard shows both; Bea deletes her profile and the match stays,
her seat now "deleted player". Phones: nothing wider than the screen, no serious
axe-core violation (docs/ratings.md, docs/games.md)."""

from __future__ import annotations

import random
import secrets
from typing import Any

from .conftest import running_server, shot
from .flows import join_table, play_until_round_end
from .test_a11y import _serious
from .test_profile_page import _authenticator


def _context(browser: Any, base: str, width: int) -> Any:
    return browser.new_context(
        viewport={"width": width, "height": 860}, base_url=base, bypass_csp=True
    )


def _sign_up(ctx: Any, handle: str, name: str, errors: list[str]) -> Any:
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    _authenticator(ctx, page)
    page.goto("/profile")
    page.fill("[data-testid=handle]", handle)
    page.fill("[data-testid=display-name]", name)
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=signed-in-as]")
    return page


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_rated_partnership_match_to_61_reaches_my_games_the_player_page_and_the_leaderboard(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="rated-partnership-server.log") as base:
        base = base.replace("127.0.0.1", "localhost")  # a domain for the passkeys' RP id
        errors: list[str] = []
        desk, phone, bea_ctx = (_context(browser, base, w) for w in (1280, 390, 390))
        try:
            ann_h, bea_h = "ann_" + secrets.token_hex(3), "bea_" + secrets.token_hex(3)
            ann = _sign_up(desk, ann_h, "Ann", errors)
            bea = _sign_up(bea_ctx, bea_h, "Bea", errors)
            ann.click("[data-testid=make-link]")  # Ann's phone signs in by a one-time link
            link = ann.wait_for_selector("[data-testid=link-text]").inner_text()
            ann_phone = phone.new_page()
            ann_phone.on("pageerror", lambda e: errors.append(str(e)))
            ann_phone.goto(link)
            ann_phone.wait_for_selector(f"[data-testid=signed-in-as]:has-text('@{ann_h}')")

            ann.goto("/")
            ann.wait_for_selector("[data-testid=create-rated-row]", state="visible")
            ann.fill("[data-testid=create-host-name]", "Ann")
            ann.select_option("[data-testid=create-players]", "4")
            ann.check("[data-testid=create-rated]")
            ann.click("[data-testid=create-submit]")
            ann.wait_for_selector("[data-testid=add-bot-1]")
            code = ann.url.rsplit("/", 1)[1]
            join_table(bea, code, name="Bea", seat=2)  # signed in: a rated seat is hers
            ann.wait_for_selector("[data-testid=seat-2][data-taken='1']")
            for seat in (1, 3):
                ann.select_option(f"[data-testid=bot-level-{seat}]", "medium")
                ann.click(f"[data-testid=add-bot-{seat}]")
                ann.wait_for_selector(f"[data-testid=bot-mark-{seat}][data-bot=medium]")
            ann.click("[data-testid=start-button]")
            for p in (ann, bea):
                p.wait_for_selector("[data-testid=play]")
            assert bea.inner_text("[data-testid=rated-badge]") == "Rated"
            _fits(bea)

            rng = random.Random(61)
            for _ in range(40):  # rounds until one partnership reaches 61 (R24)
                play_until_round_end([ann, bea], rng)
                if bea.query_selector("[data-testid=match-end]"):
                    break
                for p in (ann, bea):
                    p.click("[data-testid=next-round-button]")
                for p in (ann, bea):
                    p.wait_for_selector("[data-testid=play][data-phase=playing]")
            else:
                raise AssertionError("the match did not end")
            ann.wait_for_selector("[data-testid=match-end]")
            scores = [
                int(s)
                for s in bea.eval_on_selector_all(
                    "[data-testid^=score-side-]", "els => els.map(e => e.dataset.score)"
                )
            ]
            assert max(scores) >= 61, scores  # R24
            won = scores[0] > scores[1]  # Ann and Bea are side 0
            shot(bea, "rated-partnership-match-end-phone")

            # a live table of Ann's (waiting), then the finished match, on both devices
            ann.goto("/")
            ann.fill("[data-testid=create-host-name]", "Ann")
            ann.click("[data-testid=create-submit]")
            ann.wait_for_selector("[data-testid=add-bot-1]")
            live = ann.url.rsplit("/", 1)[1]
            for page in (ann, ann_phone):
                page.goto("/games")
                page.wait_for_selector(f"[data-testid=live-table][data-code='{live}']")
                first = page.wait_for_selector("[data-testid=finished-match]")
                assert first.get_attribute("data-code") == code
                text = first.inner_text()
                assert ("Won" if won else "Lost") in text and "Bea" in text, text
            _fits(ann_phone)
            assert _serious(ann_phone) == []

            ann_phone.goto(f"/p/{ann_h}")
            ann_phone.wait_for_selector(
                f"[data-testid=partners] [data-testid=pair][data-handle='{bea_h}']"
            )
            assert ann_phone.query_selector("[data-testid=rating][data-pool='4']") is not None
            _fits(ann_phone)
            ann_phone.goto("/leaderboard?pool=4")
            for h in (ann_h, bea_h):
                ann_phone.wait_for_selector(f"[data-testid=lb-row][data-handle='{h}']")
            shot(ann_phone, "leaderboard-after-partnership-phone")

            bea.goto("/profile")
            bea.on("dialog", lambda d: d.accept())
            bea.click("[data-testid=delete]")
            bea.wait_for_selector("[data-testid=profile-note]:has-text('deleted')")
            ann.goto("/games")
            first = ann.wait_for_selector("[data-testid=finished-match]")
            assert "deleted player" in first.inner_text() and "Bea" not in first.inner_text()
            ann.goto("/leaderboard?pool=4")
            ann.wait_for_selector(f"[data-testid=lb-row][data-handle='{ann_h}']")
            assert ann.query_selector(f"[data-testid=lb-row][data-handle='{bea_h}']") is None
        finally:
            for ctx in (desk, phone, bea_ctx):
                ctx.close()
        assert errors == []
