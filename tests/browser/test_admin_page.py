"""The operator's page in real Chromium, at a phone's width (390 px) and under the
server's own CSP: signing in with the operator token, a report shown with its chat in
context, an action (a mute) written to the audit log on the page, the drain button
there, nothing wider than the screen."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect

from .conftest import running_server, shot

TOKEN = "browser-operator-token-0123456789abcdef"


def _reported_table(base: str) -> str:
    """A table where Bob wrote something rude and Ann reported it; its code."""
    with httpx.Client(base_url=base, timeout=20) as http:
        r = http.post(
            "/api/tables",
            json={"name": "Rude", "players": 2, "public": True, "host_name": "Ann"},
        )
        code, ann = r.json()["code"], r.json()["token"]
        bob = http.post(f"/api/tables/{code}/join", json={"name": "Bob", "seat": 1}).json()["token"]
        ws_url = base.replace("http://", "ws://") + f"/ws/tables/{code}?token={bob}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "chat", "text": "you play like a potato"}))
            seq = None
            while seq is None:
                frame = json.loads(ws.recv(timeout=20))
                if frame["type"] == "event" and frame["event"]["type"] == "chat":
                    seq = frame["seq"]
        r = http.post(
            f"/api/tables/{code}/reports",
            json={"kind": "message", "seq": seq, "reason": "abuse", "text": "insults"},
            headers={"Authorization": f"Bearer {ann}"},
        )
        assert r.status_code == 201, r.text
    return code


def test_the_operators_page_signs_in_shows_a_report_in_context_and_audits_a_mute_on_a_phone(
    browser,
    browser_db,  # type: ignore[no-untyped-def]
) -> None:
    settings = {"FIVEUP_OPERATOR_TOKEN": TOKEN}
    with running_server(browser_db, settings, log_name="admin-server.log") as base:
        code = _reported_table(base)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
        errors: list[str] = []
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "console",
            lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
        )
        try:
            page.goto("/admin")
            page.wait_for_selector("[data-testid=sign-in]:not([hidden])")
            page.fill("[data-testid=token]", "not the token")
            page.click("[data-testid=sign-in] button[type=submit]")
            page.wait_for_selector("[data-testid=sign-in-error]:has-text('not the operator')")
            page.fill("[data-testid=token]", TOKEN)
            page.click("[data-testid=sign-in] button[type=submit]")
            report = page.wait_for_selector("[data-testid=report]")
            assert "Bob" in report.inner_text() and code in report.inner_text()
            reported = page.inner_text(".admin-chat li.reported")
            assert reported == "Bob: you play like a potato"
            assert page.is_visible("[data-testid=drain]")  # (drains as SIGTERM: not pressed here)
            table = page.inner_text("[data-testid=tables]")
            assert code in table and "Ann" in table and "Bob" in table
            page.click("[data-testid=mute-report]")
            page.wait_for_selector("[data-testid=audit-entry]:has-text('mute')")
            page.wait_for_selector("[data-testid=mute]:has-text('by address')")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width
            shot(page, "admin-phone")
            page.reload()  # the session cookie keeps the page signed in
            page.wait_for_selector("[data-testid=audit-entry]")
            # lifted again (the mute is kept in the database the other browser tests use,
            # on this machine's one address)
            page.click("[data-testid=unmute]")
            page.wait_for_selector("[data-testid=audit-entry]:has-text('unmute')")
            page.wait_for_selector("[data-testid=mute]", state="detached")
            page.click("[data-testid=sign-out]")
            page.wait_for_selector("[data-testid=sign-in]:not([hidden])")
        finally:
            ctx.close()
        assert errors == []
