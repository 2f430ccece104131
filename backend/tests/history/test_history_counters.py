"""The reads and writes counters of the cartography page count every tracked read and write of the
cartography's items, including the writes recorded on a parent (a resource or a message added to a
subject is a write of the subject, in its cartography)."""

import pytest

from spot.account.service import principal_of
from spot.core import history, parents
from spot.core.history import Event
from support import API


def counters(client, headers, cartography_id):
    """The page's counters, less the read of the page itself (which they include)."""
    stats = client.get(f"{API}/cartography/{cartography_id}", headers=headers).json()["stats"]
    return stats["reads"] - 1, stats["writes"]


def test_a_rating_is_one_write_and_a_read_one_read(client, test_map, make_user, login):
    headers = login(make_user())
    c1, s1 = test_map.cartography("C1"), test_map.subject("S1")
    reads, writes = counters(client, headers, c1)
    response = client.post(
        f"{API}/subject/{s1}/rate", json={"frequency": 2, "gravity": 3, "detectability": 0}, headers=headers
    )
    assert response.status_code == 200, response.text
    # The page's own read, then the rating.
    assert counters(client, headers, c1) == (reads + 1, writes + 1)
    assert client.get(f"{API}/subject/{s1}", headers=headers).status_code == 200
    assert counters(client, headers, c1) == (reads + 3, writes + 1)
    assert client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).status_code == 200
    assert counters(client, headers, c1) == (reads + 5, writes + 1)


def test_another_cartography_does_not_move(client, test_map, make_user, login):
    headers = login(make_user())
    c2 = test_map.cartography("C2")
    before = counters(client, headers, c2)
    client.post(f"{API}/subject/{test_map.subject('S1')}/follow", headers=headers)
    assert counters(client, headers, c2) == (before[0] + 1, before[1])


@pytest.mark.parametrize("parent_type", ["subject", "function", "cartography"])
def test_a_write_on_a_parent_counts_in_its_cartography(client, db, test_map, make_user, login, parent_type):
    user = make_user()
    headers = login(user)
    c1 = test_map.cartography("C1")
    parent_id = {"subject": test_map.subject("S2"), "function": test_map.function("F2"), "cartography": c1}
    reads, writes = counters(client, headers, c1)
    parent = parents.get(
        db, user=principal_of(db, user_id=user.id), parent_type=parent_type, parent_id=parent_id[parent_type]
    )
    history.record(db, parents.history_entry(parent, user=None, mode="W", event=Event.resourceCreated))
    db.commit()
    assert counters(client, headers, c1) == (reads + 1, writes + 1)
