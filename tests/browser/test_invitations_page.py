"""Invitations in real Chromium: two phone-width contexts (390 px) sign up with
Chromium's virtual authenticator and become friends; Bob's friends page shows Ann
online (a green dot) while her page is open, and the public table she sits at (a
"Watch" link); Ann creates a table and invites Bob, who,
on the home page, sees the toast (role=status, a "Take the seat" link, a "Dismiss"
button, 44 px targets, the toast within the phone's width, no serious axe-core
violation) and one click takes him to the table's join form; in Ukrainian, "Dismiss"
deletes the next one. After Bob blocks Ann, her invitation is refused."""

from __future__ import annotations

from typing import Any

from .conftest import running_server
from .test_a11y import _serious
from .test_friends_page import _fits, _sign_up

_FETCH = """async ([method, path, body, token]) => {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  return {status: r.status, body: await r.json()};
}"""


def _call(page: Any, method: str, path: str, body: Any = None, token: str = "") -> Any:
    return page.evaluate(_FETCH, [method, path, body, token])


def test_a_friend_invited_to_a_table_takes_the_seat_from_the_toast_on_a_phone(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    with running_server(browser_db, log_name="invitations-server.log") as base:
        base = base.replace("127.0.0.1", "localhost")  # WebAuthn wants a domain
        errors: list[str] = []
        phone = {"viewport": {"width": 390, "height": 844}, "base_url": base}
        ann_ctx, bob_ctx = browser.new_context(**phone), browser.new_context(**phone)
        try:
            ann, ann_handle = _sign_up(ann_ctx, "Ann")
            bob, bob_handle = _sign_up(bob_ctx, "Bob")
            for p in (ann, bob):
                p.on("pageerror", lambda e: errors.append(str(e)))
            got = _call(bob, "POST", "/api/friends/requests", {"handle": ann_handle})
            assert got["status"] == 200, got
            got = _call(ann, "POST", f"/api/friends/requests/{bob_handle}/accept")
            assert got["body"]["state"] == "friends", got

            ann.goto("/profile")  # Ann's page is open: she is online
            bob.goto("/friends")
            row = f"[data-testid=friends-row][data-handle='{ann_handle}']"
            bob.wait_for_selector(f"{row}[data-online=yes] [data-testid=online-state]")
            assert bob.inner_text(f"{row} [data-testid=online-state]") == "online"
            assert bob.query_selector(f"{row} .inv-dot.online") is not None
            _fits(bob)
            assert _serious(bob) == []
            public = _call(  # Ann sits at a public table: Bob's list names it, to watch
                ann,
                "POST",
                "/api/tables",
                {"name": "Open one", "players": 4, "public": True, "host_name": "Ann"},
            )
            assert public["status"] == 201, public
            watch = bob.wait_for_selector(f"{row} [data-testid=friend-table]")
            assert watch.get_attribute("href") == f"/t/{public['body']['code']}"
            assert bob.inner_text(f"{row} [data-testid=online-state]") == (
                "online · at table Open one"
            )
            box = watch.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, box
            _fits(bob)
            assert _serious(bob) == []

            bob.goto("/")
            bob.wait_for_selector("[data-testid=create-submit]")
            made = _call(
                ann,
                "POST",
                "/api/tables",
                {"name": "Ann's table", "players": 2, "public": False, "host_name": "Ann"},
            )
            assert made["status"] == 201, made
            code, token = made["body"]["code"], made["body"]["token"]
            # Ann's waiting room offers her friends: one click invites Bob
            ann.evaluate(
                "([code, token]) => localStorage.setItem('fiveup.seat.' + code,"
                " JSON.stringify({token, seat: 0}))",
                [code, token],
            )
            ann.goto(f"/t/{code}")
            button = ann.wait_for_selector(
                f"[data-testid=invite-friend][data-handle='{bob_handle}']"
            )
            box = button.bounding_box()
            assert box and box["height"] >= 44, box
            assert ann.evaluate("document.documentElement.scrollWidth") <= 390
            button.click()
            ann.wait_for_selector(
                f"[data-testid=invite-friend][data-handle='{bob_handle}']:has-text('Invited')"
            )

            toast = bob.wait_for_selector("[data-testid=invitation]", timeout=5000)
            assert "Ann invites you" in toast.inner_text()
            assert "Ann's table" in toast.inner_text()
            assert bob.get_attribute("[data-testid=invitations]", "role") == "status"
            take = bob.wait_for_selector("[data-testid=invitation-take]")
            assert take.get_attribute("href") == f"/t/{code}"
            for target in (take, bob.query_selector("[data-testid=invitation-dismiss]")):
                box = target.bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, box
            take.focus()
            assert bob.evaluate("document.activeElement.dataset.testid") == "invitation-take"
            box = toast.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
            assert bob.evaluate("document.documentElement.scrollWidth") <= 390
            assert _serious(bob) == []
            take.click()
            bob.wait_for_url(f"**/t/{code}")
            bob.wait_for_selector("[data-testid=join-name]")
            bob.wait_for_selector("[data-testid=sit-1]")
            listed = _call(bob, "GET", "/api/profile/invitations")
            assert listed["body"] == {"invitations": []}  # taken: gone from the list

            bob.select_option("[data-testid=lang]", "uk")  # Ukrainian, on the table's page
            got = _call(
                ann, "POST", f"/api/tables/{code}/invitations", {"handles": [bob_handle]}, token
            )
            assert got["status"] == 200, got
            bob.wait_for_selector("[data-testid=invitation] >> text=Ann запрошує вас")
            bob.wait_for_selector("[data-testid=invitation-take]:has-text('Сісти за стіл')")
            bob.click("[data-testid=invitation-dismiss]:has-text('Відхилити')")
            bob.wait_for_selector("[data-testid=invitation]", state="detached")
            bob.wait_for_function(
                "fetch('/api/profile/invitations').then(r => r.json())"
                ".then(b => b.invitations.length === 0)"
            )

            got = _call(bob, "POST", "/api/friends/blocks", {"handle": ann_handle})
            assert got["status"] == 200, got
            got = _call(
                ann, "POST", f"/api/tables/{code}/invitations", {"handles": [bob_handle]}, token
            )
            assert got["status"] == 403 and got["body"]["detail"]["code"] == "blocked", got
        finally:
            for ctx in (ann_ctx, bob_ctx):
                ctx.close()
        assert errors == []
