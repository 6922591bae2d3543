"""The profile page in real Chromium with Chromium's own virtual authenticator (CDP
``WebAuthn``: ctap2, internal transport, resident keys, user verification) — no ceremony
is mocked: the browser makes and uses the passkey, the server checks it with py_webauthn.
Sign up on a desktop, a one-time link (with its QR code) signs a phone-width context in,
the link works once, the phone sees and opens the desktop's table, sign out and sign in with the passkey, sign out everywhere signs the
phone out, delete erases the profile; nothing wider than the phone's screen, no serious axe-core violation."""

from __future__ import annotations

import secrets

from .conftest import running_server, shot
from .test_a11y import _serious


def _authenticator(ctx, page) -> None:  # type: ignore[no-untyped-def]
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )


def test_a_passkey_profile_signs_up_signs_a_phone_in_by_link_signs_out_everywhere_and_is_deleted(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="profile-server.log") as base:
        # WebAuthn needs a domain as RP id (not an IP address): localhost is one
        base = base.replace("127.0.0.1", "localhost")
        errors: list[str] = []
        desk = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=base)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
        try:
            page = desk.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            _authenticator(desk, page)
            page.goto("/")  # the home page's top bar leads to the profile page
            page.click("[data-testid=profile-top]")
            page.wait_for_url("**/profile")
            handle = "ann_" + secrets.token_hex(3)
            page.fill("[data-testid=handle]", handle)
            page.fill("[data-testid=display-name]", "Ann Lee")
            page.click("[data-testid=create]")
            who = page.wait_for_selector("[data-testid=signed-in-as]")
            assert who.inner_text() == f"Signed in as Ann Lee (@{handle})"
            page.click("[data-testid=make-link]")
            link = page.wait_for_selector("[data-testid=link-text]").inner_text()
            assert link.startswith(base + "/profile#signin=")
            qr = page.wait_for_selector("[data-testid=link-qr]")
            for _ in range(100):  # the image decodes: an SVG document of its own
                if qr.evaluate("img => img.complete && img.naturalWidth > 0"):
                    break
                page.wait_for_timeout(50)
            assert qr.evaluate("img => img.naturalWidth") > 100
            assert _serious(page) == []  # axe-core: the signed-in page with its link

            mobile = phone.new_page()
            mobile.on("pageerror", lambda e: errors.append(str(e)))
            mobile.goto(link)
            who = mobile.wait_for_selector("[data-testid=signed-in-as]")
            assert handle in who.inner_text()
            assert "#" not in mobile.url  # the secret left the address bar
            assert mobile.inner_text("[data-testid=sessions]") == "Signed in on 2 devices"
            width = mobile.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width
            shot(mobile, "profile-phone")

            # a table the desktop takes while signed in is the phone's to open
            code = page.evaluate(
                """async () => {
                  const r = await fetch("/api/practice", {method: "POST",
                    headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({players: 2, level: "easy", name: "Ann", clock: "none"})});
                  return (await r.json()).code;
                }"""
            )
            mobile.reload()
            row = mobile.wait_for_selector(f"[data-testid=my-table][data-code='{code}']")
            assert code in row.inner_text()
            assert mobile.evaluate("document.documentElement.scrollWidth") <= 390
            row.query_selector("[data-testid=open-table]").click()
            mobile.wait_for_url(f"**/t/{code}")
            mobile.wait_for_selector("[data-testid=play]")  # seated: its own hand to play
            mobile.goto("/profile")
            mobile.wait_for_selector("[data-testid=signed-in-as]")

            other = browser.new_context(base_url=base)
            try:  # the link worked once
                again = other.new_page()
                again.goto(link)
                again.wait_for_selector("[data-testid=profile-note]:has-text('used')")
            finally:
                other.close()

            page.click("[data-testid=sign-out]")
            page.wait_for_selector("[data-testid=sign-in-passkey]")
            page.click("[data-testid=sign-in-passkey]")  # the virtual authenticator's passkey
            page.wait_for_selector(f"[data-testid=signed-in-as]:has-text('@{handle}')")
            page.click("[data-testid=sign-out-all]")
            page.wait_for_selector("[data-testid=sign-in-passkey]")
            mobile.reload()
            mobile.wait_for_selector("[data-testid=sign-up]")
            assert _serious(mobile) == []  # axe-core: the guest's page on a phone
            assert mobile.evaluate("document.documentElement.scrollWidth") <= 390

            page.click("[data-testid=sign-in-passkey]")
            page.wait_for_selector("[data-testid=signed-in-as]")
            page.on("dialog", lambda d: d.accept())
            page.click("[data-testid=delete]")
            page.wait_for_selector("[data-testid=profile-note]:has-text('deleted')")
            page.click("[data-testid=sign-in-passkey]")  # the passkey is of no profile now
            page.wait_for_selector("[data-testid=sign-in-error]:has-text('no profile')")
        finally:
            desk.close()
            phone.close()
        assert errors == []
