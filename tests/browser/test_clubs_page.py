"""The clubs page in real Chromium: two phone-width contexts (390 px) each sign up with
Chromium's virtual authenticator (no ceremony mocked); one creates a club from the
profile page's link, copies its invite link (shown with its QR code); the other opens
it, which joins; both see both members; a table made for the club is listed live; from
the waiting room of a table of her own, the owner invites the club and the other member
(not her friend) gets the invitation's toast and takes the seat from it. A guest opening
the link is told to make a profile first. Ukrainian strings, nothing wider
than the phone, targets at least 44 px, no serious axe-core violation."""

from __future__ import annotations

from .conftest import running_server, shot
from .test_a11y import _serious
from .test_friends_page import _fits, _sign_up

_SMALL = """() => [...document.querySelectorAll(
  'main button, main a.club-link, main select, main input:not([type=checkbox])')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.dataset.testid || e.textContent, e.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44).map(([n]) => n)"""


def _checked(page) -> None:  # type: ignore[no-untyped-def]
    _fits(page)
    assert page.evaluate(_SMALL) == []
    assert _serious(page) == []


def test_a_club_is_made_and_joined_by_its_link_on_phones(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="clubs-server.log") as base:
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
            ann.click("[data-testid=clubs-page]")  # the profile page links to it
            ann.wait_for_url("**/clubs")
            ann.wait_for_selector("[data-testid=my-clubs] >> text=None yet.")
            _checked(ann)
            ann.fill("[data-testid=club-name]", "Thursday Dominoes")
            ann.click("[data-testid=create-club]")
            ann.wait_for_selector("[data-testid=club-title]:has-text('Thursday Dominoes')")
            link = ann.wait_for_selector("[data-testid=invite-link]").inner_text()
            assert link.startswith(base + "/c/")
            qr = ann.wait_for_selector("[data-testid=invite-qr]")
            ann.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=qr)
            ann.click("[data-testid=copy-link]")
            ann.wait_for_selector("[data-testid=copied]:has-text('Copied')")
            assert ann.evaluate("navigator.clipboard.readText()") == link
            _checked(ann)

            guest = guest_ctx.new_page()
            guest.goto(link)
            guest.wait_for_selector("[data-testid=guest-note]:has-text('create a profile first')")
            assert guest.get_attribute("[data-testid=make-profile]", "href") == "/profile"
            _checked(guest)

            bob.goto(link)  # signed in: the link joins
            bob.wait_for_selector("[data-testid=clubs-note]:has-text('member of Thursday')")
            bob.wait_for_url("**/clubs/*")
            for p in (bob, ann):
                p.reload()
                for handle in (ann_handle, bob_handle):
                    p.wait_for_selector(f"[data-testid=member-row][data-handle='{handle}']")
                assert len(p.query_selector_all("[data-testid=standings-row]")) == 2
            assert ann.query_selector("[data-testid=remove-member]") is not None  # the owner
            assert bob.query_selector("[data-testid=remove-member]") is None
            assert bob.query_selector("[data-testid=leave-club]") is not None
            _checked(ann)
            shot(ann, "club-phone")

            bob.click("[data-testid=make-table]")  # a table for the club: its seat page
            bob.wait_for_url("**/t/*")
            code = bob.url.rsplit("/", 1)[1]
            ann.reload()
            row = ann.wait_for_selector("[data-testid=table-row]")
            assert code in row.inner_text() and "1/2" in row.inner_text()
            assert row.query_selector("a").get_attribute("href") == f"/t/{code}"
            # the table made for the club invited Ann: its toast, dismissed here
            ann.wait_for_selector("[data-testid=invitation]:has-text('Bob invites you')")
            ann.click("[data-testid=invitation-dismiss]")
            ann.wait_for_selector("[data-testid=invitation]", state="detached")

            # Ann's own public table: from its waiting room she invites the club, and Bob
            # (a member, not a friend) gets the invitation on the page he has open
            made = ann.evaluate(
                """async () => {
                  const r = await fetch('/api/tables', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({name: 'Club night', players: 4, public: true,
                                          host_name: 'Ann'})});
                  const b = await r.json();
                  localStorage.setItem('fiveup.seat.' + b.code,
                                       JSON.stringify({token: b.token, seat: b.seat}));
                  return b.code;
                }"""
            )
            ann.goto(f"/t/{made}")
            invite = ann.wait_for_selector("[data-testid=invite-club]")
            box = invite.bounding_box()
            assert box and box["height"] >= 44, box
            add_bots = ann.locator("[data-testid^=add-bot-]")
            assert add_bots.count() == 3  # the host's small controls: a finger's target too
            for i in range(3):
                box = add_bots.nth(i).bounding_box()
                assert box and box["height"] >= 44, box
            _fits(ann)
            invite.click()
            ann.wait_for_selector("[data-testid=invite-club]:has-text('1 invited')")
            toast = bob.wait_for_selector("[data-testid=invitation]:has-text('Club night')")
            assert "Ann invites you" in toast.inner_text()
            take = bob.wait_for_selector("[data-testid=invitation-take]")
            assert take.get_attribute("href") == f"/t/{made}"
            _fits(bob)
            take.click()
            bob.wait_for_url(f"**/t/{made}")
            bob.wait_for_selector("[data-testid=join-name]")

            ann.goto("/clubs")
            ann.wait_for_selector("[data-testid=club-row]:has-text('Thursday Dominoes')")
            ann.select_option("[data-testid=lang]", "uk")  # Ukrainian
            ann.wait_for_selector("[data-testid=my-clubs] h2:has-text('Ваші клуби')")
            _checked(ann)
        finally:
            for ctx in (ann_ctx, bob_ctx, guest_ctx):
                ctx.close()
        assert errors == []
