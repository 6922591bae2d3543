"""Names (issue 10, finding 10): invisible names, combining-mark towers and look-alikes.

Refusals go through a real server; ``confusable_key`` is the pure function the table
service compares seat names with."""

from __future__ import annotations

import httpx
import pytest

from app.core.names import confusable_key, names_collide

REFUSED = {
    "hangul filler only": "\u3164",
    "braille blank only": "\u2800",
    "hangul fillers around spaces": "\u3164 \u3164",
    "zero-width space only": "\u200b",
    "zero-width joiner inside": "A\u200dnn",
    "letter and 23 combining marks": "a" + "\u0301" * 23,
    "three marks on one letter": "e\u0301\u0302\u0303",
    "starts with a combining mark": "\u0301Ann",
    "punctuation only": "-- .. --",
    "no-break space": "Ann\u00a0Lee",
}

ACCEPTED = ["Ann", "Zoë", "Nguyễn Thị Ặ", "José María", "สมชาย", "李雷", "Ann-Marie", "R2D2"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
async def test_invisible_or_stacked_host_names_are_refused(
    http: httpx.AsyncClient, name: str
) -> None:
    r = await http.post("/api/tables", json={"name": "T", "players": 2, "host_name": name})
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["code"] == "invalid_name"


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
async def test_invisible_or_stacked_join_and_table_names_are_refused(
    http: httpx.AsyncClient, name: str
) -> None:
    r = await http.post("/api/tables", json={"name": name, "players": 2, "host_name": "Ann"})
    assert r.status_code == 422, r.text
    r = await http.post("/api/tables", json={"name": "T", "players": 2, "host_name": "Ann"})
    code = r.json()["code"]
    r = await http.post(f"/api/tables/{code}/join", json={"name": name, "seat": 1})
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["code"] == "invalid_name"


@pytest.mark.parametrize("name", ACCEPTED)
async def test_real_names_in_many_scripts_are_accepted(http: httpx.AsyncClient, name: str) -> None:
    r = await http.post("/api/tables", json={"name": name, "players": 2, "host_name": name})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][0]["name"] == name


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bob", "ВОВ"),  # Cyrillic capitals
        ("Bob", "bob"),
        ("Alice", "Аlice"),  # Cyrillic а
        ("Olga", "0lga"),
        ("Bill", "BiII"),  # capital i for l
        ("Bill", "Bi11"),
        ("Kim", "Κim"),  # Greek Kappa
        ("Paypal", "Ρаураl"),
        ("Ann", "𝐀𝐧𝐧"),  # mathematical bold
        ("Ann", "Ａｎｎ"),  # fullwidth
        ("Ann", "A n n"),
        ("Ann", "Ann."),
        ("Mia", "rnia"),
        ("José", "Jose"),
    ],
)
def test_look_alike_names_have_the_same_confusable_key(a: str, b: str) -> None:
    assert confusable_key(a) == confusable_key(b)
    assert names_collide(a, b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anna"), ("Bob", "Rob"), ("Li", "Lu"), ("Ed", "Ted")])
def test_different_names_have_different_keys(a: str, b: str) -> None:
    assert not names_collide(a, b)
