"""Names: invisible names, combining-mark towers and look-alikes.

A name with nothing visible gets the default name; invisible parts of a name are dropped
(through a real server); ``confusable_key`` is the pure function the table service
compares seat names with."""

from __future__ import annotations

import httpx
import pytest

from app.core.names import confusable_key, names_collide

INVISIBLE_ONLY = {
    "hangul filler only": "\u3164",
    "braille blank only": "\u2800",
    "hangul fillers around spaces": "\u3164 \u3164",
    "zero-width space only": "\u200b",
    "punctuation only": "-- .. --",
    "control characters only": "\x01\x02",
    "combining marks only": "\u0301\u0302",
}

#: what cannot be seen is dropped, what can stays: (sent, stored)
CLEANED = {
    "zero-width joiner inside": ("A\u200dnn", "Ann"),
    "letter and 23 combining marks": ("a" + "\u0301" * 23, "\u00e1\u0301"),
    "three marks on one letter": ("e\u0301\u0302\u0303", "\u00e9\u0302"),
    "starts with a combining mark": ("\u0301Ann", "Ann"),
    "no-break space": ("Ann\u00a0Lee", "Ann Lee"),
    "control character inside": ("An\x07n", "Ann"),
}

ACCEPTED = ["Ann", "Zoë", "Nguyễn Thị Ặ", "José María", "สมชาย", "李雷", "Ann-Marie", "R2D2"]


@pytest.mark.parametrize("name", INVISIBLE_ONLY.values(), ids=INVISIBLE_ONLY.keys())
async def test_a_name_showing_nothing_becomes_the_default_name(
    http: httpx.AsyncClient, name: str
) -> None:
    """Every stored name shows a letter or digit: one that shows none is replaced by the
    seat's default name (the table's by its host's), never stored as sent."""
    r = await http.post("/api/tables", json={"name": name, "players": 2, "host_name": name})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["seats"][0]["name"] == "Player 1" and table["name"] == "Player 1"
    r = await http.post("/api/tables", json={"name": name, "players": 2, "host_name": "Ann"})
    assert r.json()["table"]["name"] == "Ann"
    code = r.json()["code"]
    r = await http.post(f"/api/tables/{code}/join", json={"name": name, "seat": 1})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][1]["name"] == "Player 2"


@pytest.mark.parametrize(("sent", "stored"), CLEANED.values(), ids=CLEANED.keys())
async def test_invisible_parts_of_a_name_are_dropped(
    http: httpx.AsyncClient, sent: str, stored: str
) -> None:
    r = await http.post("/api/tables", json={"name": sent, "players": 2, "host_name": sent})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][0]["name"] == stored
    assert r.json()["table"]["name"] == stored


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
