"""``POST /api/records/check``: the rules engine's verdict on a record sent in either
form, the same verdict ``fiveup record check`` prints, with the record's JSON form for
the browser's own deal check; what is not a record is a verdict too, never a 500."""

from __future__ import annotations

import secrets

import httpx
from records.matches import recorded_match

from app.records import parse_text, to_json, write_text
from app.records.check import check

from .hardening_support import HardenedServer

CHECK = "/api/records/check"


async def test_a_whole_match_record_is_valid_in_both_forms(http: httpx.AsyncClient) -> None:
    _match, record = recorded_match(2, 1)
    text = write_text(record)
    r = await http.post(CHECK, content=text, headers={"content-type": "text/plain"})
    assert r.status_code == 200
    body = r.json()
    assert (body["valid"], body["line"], body["problem"]) == (True, 0, "valid")
    assert body["record"]["table"] == record.table
    assert len(body["record"]["rounds"]) == len(record.rounds)
    assert all(round_["seed"] for round_ in body["record"]["rounds"])
    as_json = await http.post(
        CHECK, content=to_json(record), headers={"content-type": "application/json"}
    )
    assert as_json.status_code == 200, as_json.text[:300]
    assert as_json.json()["valid"] is True and as_json.json()["record"] == body["record"]


async def test_a_tampered_record_gets_the_first_problem_with_its_line_and_rule(
    http: httpx.AsyncClient,
) -> None:
    _match, record = recorded_match(2, 1)
    text = write_text(record).replace('[Target "61"]', '[Target "50"]')
    expected = check(parse_text(text))
    body = (await http.post(CHECK, content=text)).json()
    assert body["valid"] is False
    assert (body["line"], body["problem"]) == (expected.line, expected.problem)
    assert "R4" in body["problem"]


async def test_what_is_not_a_record_is_a_verdict_not_an_error(http: httpx.AsyncClient) -> None:
    for junk in (b"hello", b"{", b"[1, 2]", b'{"format": 5}', b"\xff\xfe\x00", b"[" * 100_000):
        r = await http.post(CHECK, content=junk)
        assert r.status_code == 200, (junk[:10], r.text[:200])
        body = r.json()
        assert body["valid"] is False and body["record"] is None and body["line"] >= 1


async def test_no_body_or_a_json_body_that_is_no_object_is_invalid_request(
    http: httpx.AsyncClient,
) -> None:
    for body, kind in ((b"", "text/plain"), (b"  ", "text/plain"), (b"[1]", "application/json")):
        r = await http.post(CHECK, content=body, headers={"content-type": kind})
        assert r.status_code == 422, (body, r.text)
        assert r.json()["detail"]["code"] == "invalid_request"


async def test_a_body_over_the_limit_is_refused_with_413(http: httpx.AsyncClient) -> None:
    r = await http.post(CHECK, content=b"x" * (1024 * 1024 + 1))
    assert r.status_code == 413


async def test_openapi_documents_the_check_with_both_bodies(http: httpx.AsyncClient) -> None:
    spec = (await http.get("/openapi.json")).json()
    operation = spec["paths"][CHECK]["post"]
    assert set(operation["requestBody"]["content"]) == {"text/plain", "application/json"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RecordVerdict"
    }
    assert {"413", "429"} <= set(operation["responses"])


def test_record_checks_are_refused_with_429_past_their_own_quota(pg_url: str) -> None:
    """Each check replays a whole match: an address gets FIVEUP_RATE_LIMIT_RECORD_CHECK
    of them, while its other requests and other addresses' checks go on."""
    server = HardenedServer(
        pg_url,
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_FORWARDED_ALLOW_IPS="127.0.0.1",
        FIVEUP_RATE_LIMIT_RECORD_CHECK="2/minute",
    ).start()
    try:
        me = {"X-Forwarded-For": f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}
        other = {"X-Forwarded-For": f"10.8.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}
        with httpx.Client(base_url=server.http) as client:
            for _ in range(2):
                assert client.post(CHECK, content=b"x", headers=me).status_code == 200
            refused = client.post(CHECK, content=b"x", headers=me)
            assert refused.status_code == 429, refused.text
            assert refused.json()["detail"]["code"] == "rate_limited"
            assert int(refused.headers["Retry-After"]) >= 1
            assert client.get("/api/tables", headers=me).status_code == 200
            assert client.post(CHECK, content=b"x", headers=other).status_code == 200
    finally:
        server.stop()
