"""GET /history/mine: the user's own entries between two days, newest first, bounded."""

import pytest
from sqlalchemy import insert

from history.entries import add, at
from spot.core.history_models import HistoryEntry
from spot.history.service import MAX_MINE
from support import API, assert_error, field_codes


def mine(client, headers, **params):
    return client.get(f"{API}/history/mine", params=params, headers=headers)


def test_own_entries_of_the_days_asked_newest_first(client, db, make_user, login):
    me, other = make_user("moi"), make_user("autre")
    add(db, at("2025-03-09 23:59"), user_id=me.id, item_type="subject", item_id=1, mode="R")  # the day before
    add(
        db,
        at("2025-03-10 00:00"),
        user_id=me.id,
        item_type="subject",
        item_id=2,
        mode="W",
        key="S2",
        name="Deux",
    )
    add(db, at("2025-03-11 12:00"), user_id=other.id, item_type="subject", item_id=3, mode="R")
    add(db, at("2025-03-12 23:59"), user_id=me.id, item_type="cartography", item_id=4, mode="R")
    add(db, at("2025-03-13 00:00"), user_id=me.id, item_type="subject", item_id=5, mode="R")  # the day after
    response = mine(client, login(me), **{"from": "2025-03-10", "to": "2025-03-12"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [(e["itemType"], e["itemId"], e["mode"]) for e in body] == [
        ("cartography", 4, "R"),
        ("subject", 2, "W"),
    ]
    assert body[1] == {
        "date": "2025-03-09T23:00:00Z",
        "itemType": "subject",
        "itemId": 2,
        "itemKey": "S2",
        "itemName": "Deux",
        "mode": "W",
        "event": "updated",
    }
    assert body[0]["event"] is None


def test_one_day(client, db, make_user, login):
    me = make_user()
    add(db, at("2025-03-10 08:00"), user_id=me.id, item_type="subject", item_id=1)
    body = mine(client, login(me), **{"from": "2025-03-10", "to": "2025-03-10"}).json()
    assert [e["itemId"] for e in body] == [1]


def test_the_answer_is_capped_to_the_newest(client, db, make_user, login):
    me = make_user()
    rows = [
        {
            "at": at(f"2025-03-10 {h:02d}:{m:02d}"),
            "user_id": me.id,
            "item_type": "subject",
            "item_id": h * 60 + m,
            "item_key": "",
            "item_name": "",
            "mode": "R",
            "event": None,
            "cartography_id": None,
        }
        for h in range(24)
        for m in range(60)
    ][: MAX_MINE + 5]
    db.execute(insert(HistoryEntry), rows)
    db.commit()
    body = mine(client, login(me), **{"from": "2025-03-10", "to": "2025-03-10"}).json()
    assert len(body) == MAX_MINE
    assert body[0]["itemId"] == MAX_MINE + 4 and body[-1]["itemId"] == 5


@pytest.mark.parametrize(
    "params, code",
    [
        ({"to": "2025-03-10"}, ("from", "emptyFieldError")),
        ({"from": "2025-03-10"}, ("to", "emptyFieldError")),
        ({"from": "", "to": "2025-03-10"}, ("from", "emptyFieldError")),
        ({"from": "2025-13-01", "to": "2025-03-10"}, ("from", "invalidDate")),
        ({"from": "2025-3-1", "to": "2025-03-10"}, ("from", "invalidDate")),
        ({"from": "2025-03-01", "to": "1741600000"}, ("to", "invalidDate")),
        ({"from": "2025-03-01", "to": "2025-03-10T00:00:00"}, ("to", "invalidDate")),
        ({"from": "2025-03-11", "to": "2025-03-10"}, ("to", "dateRangeReversed")),
    ],
)
def test_a_missing_invalid_or_reversed_range_is_refused(client, make_user, login, params, code):
    response = mine(client, login(make_user()), **params)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {code}


def test_signed_in_only(client):
    assert_error(client.get(f"{API}/history/mine?from=2025-01-01&to=2025-01-02"), 401)
