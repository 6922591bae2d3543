"""The friends page in real Chromium: two phone-width contexts (390 px) each sign up
with Chromium's virtual authenticator (no ceremony mocked); one opens the other's
friend link (shown with its QR code, copied with the copy button), which sends the
request; the other accepts, and both see each other as friends; a block from the list
ends the friendship, unblock, and a request by handle makes it again. A guest opening the
link is told to make a profile first. Ukrainian strings, nothing wider than the phone,
no serious axe-core violation."""

from __future__ import annotations

import secrets

from .conftest import running_server, shot
from .test_a11y import _serious
from .test_profile_page import _authenticator


def _sign_up(ctx, name: str):  # type: ignore[no-untyped-def]
    page = ctx.new_page()
    _authenticator(ctx, page)
    page.goto("/profile")
    handle = name.lower() + "_" + secrets.token_hex(3)
    page.fill("[data-testid=handle]", handle)
    page.fill("[data-testid=display-name]", name)
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=signed-in-as]")
    return page, handle


def _fits(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_two_profiles_become_friends_by_link_on_phones(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="friends-server.log") as base:
        base = base.replace("127.0.0.1", "localhost")  # WebAuthn wants a domain
        errors: list[str] = []
        phone = {"viewport": {"width": 390, "height": 844}, "base_url": base}
        ann_ctx = browser.new_context(**phone, permissions=["clipboard-read", "clipboard-write"])
        bob_ctx = browser.new_context(**phone)
        guest_ctx = browser.new_context(**phone)
        try:
            ann, ann_handle = _sign_up(ann_ctx, "Ann")
            bob, bob_handle = _sign_up(bob_ctx, "Bob")
            for p in (ann, bob):
                p.on("pageerror", lambda e: errors.append(str(e)))
            ann.click("[data-testid=friends-page]")  # the profile page links to it
            ann.wait_for_url("**/friends")
            link = ann.wait_for_selector("[data-testid=friend-link-text]").inner_text()
            assert link.startswith(base + "/f/")
            qr = ann.wait_for_selector("[data-testid=friend-qr]")
            ann.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=qr)
            ann.click("[data-testid=copy-link]")
            ann.wait_for_selector("[data-testid=copied]:has-text('Copied')")
            assert ann.evaluate("navigator.clipboard.readText()") == link
            _fits(ann)
            assert _serious(ann) == []

            guest = guest_ctx.new_page()
            guest.goto(link)
            guest.wait_for_selector("[data-testid=guest-note]:has-text('create a profile first')")
            assert guest.get_attribute("[data-testid=make-profile]", "href") == "/profile"
            _fits(guest)
            assert _serious(guest) == []

            bob.goto(link)  # signed in: the link sends the request
            bob.wait_for_selector(
                f"[data-testid=friends-note]:has-text('Request sent to Ann (@{ann_handle})')"
            )
            bob.wait_for_url("**/friends")
            bob.wait_for_selector(f"[data-testid=outgoing-row][data-handle='{ann_handle}']")

            ann.reload()
            row = ann.wait_for_selector(f"[data-testid=incoming-row][data-handle='{bob_handle}']")
            assert f"Bob (@{bob_handle})" in row.inner_text()
            _fits(ann)
            row.query_selector("[data-testid=accept]").click()
            ann.wait_for_selector(f"[data-testid=friends-row][data-handle='{bob_handle}']")
            assert ann.query_selector("[data-testid=incoming-row]") is None
            assert _serious(ann) == []
            shot(ann, "friends-phone")

            bob.reload()
            bob.wait_for_selector(f"[data-testid=friends-row][data-handle='{ann_handle}']")
            assert bob.query_selector("[data-testid=outgoing-row]") is None
            _fits(bob)

            bob.on("dialog", lambda d: d.accept())  # the block's confirmation
            bob.click(f"[data-testid=friends-row][data-handle='{ann_handle}'] [data-testid=block]")
            bob.wait_for_selector(f"[data-testid=blocked-row][data-handle='{ann_handle}']")
            assert bob.query_selector("[data-testid=friends-row]") is None  # the block ended it
            ann.reload()
            ann.wait_for_selector("[data-testid=friends] >> text=Nobody yet.")
            bob.click(
                f"[data-testid=blocked-row][data-handle='{ann_handle}'] [data-testid=unblock]"
            )
            bob.wait_for_selector("[data-testid=blocked] >> text=Nobody yet.")
            bob.fill("[data-testid=friend-handle]", ann_handle.upper())  # by handle this time
            bob.click("[data-testid=send-request]")
            bob.wait_for_selector(f"[data-testid=outgoing-row][data-handle='{ann_handle}']")
            ann.reload()
            ann.click(
                f"[data-testid=incoming-row][data-handle='{bob_handle}'] [data-testid=accept]"
            )
            ann.wait_for_selector(f"[data-testid=friends-row][data-handle='{bob_handle}']")
            bob.reload()

            bob.select_option("[data-testid=lang]", "uk")  # Ukrainian
            bob.wait_for_selector("[data-testid=friends] h2:has-text('Ваші друзі')")
            bob.wait_for_selector("[data-testid=remove]:has-text('Видалити')")
            _fits(bob)
            assert _serious(bob) == []
        finally:
            for ctx in (ann_ctx, bob_ctx, guest_ctx):
                ctx.close()
        assert errors == []
