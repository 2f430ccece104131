"""The cartography counters are kept entry by entry by a trigger on the history: they must always
equal a count of the history itself, whoever writes the entries."""

from sqlalchemy import case, func, insert, select

from spot.core import history
from spot.core.history import Event
from spot.core.history_models import CartographyCounter, HistoryEntry
from spot.core.time import utcnow
from support import API

EDIT, REM = "perm_EditPdv", "perm_RemPdv"


def counted_from_history(db) -> dict[int, tuple[int, int]]:
    reads = func.sum(case((HistoryEntry.mode == "R", 1), else_=0))
    writes = func.sum(case((HistoryEntry.mode == "W", 1), else_=0))
    rows = db.execute(
        select(HistoryEntry.cartography_id, reads, writes)
        .where(HistoryEntry.cartography_id.is_not(None))
        .group_by(HistoryEntry.cartography_id)
    )
    return {cartography_id: (r, w) for cartography_id, r, w in rows}


def kept(db) -> dict[int, tuple[int, int]]:
    db.expire_all()
    rows = db.scalars(select(CartographyCounter))
    return {c.cartography_id: (c.reads, c.writes) for c in rows}


def test_record_counts_entries_of_a_cartography_only(db, make_user):
    user = make_user()
    for mode, event in (("R", None), ("R", None), ("W", Event.followed)):
        history.record(
            db,
            history.entry(
                user=user,
                item_type="subject",
                item_id=1,
                item_key="S1",
                item_name="",
                mode=mode,
                event=event,
                cartography_id=42,
            ),
        )
    history.record(
        db, history.entry(user=user, item_type="user", item_id=1, item_key="u", item_name="", mode="R")
    )
    db.commit()
    assert kept(db) == {42: (2, 1)} == counted_from_history(db)


def test_counters_equal_the_history_after_reads_and_writes(client, db, test_map, make_user, login):
    assert kept(db) == counted_from_history(db)  # the import's writes
    headers = login(make_user(permissions=[EDIT, REM]))
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    client.get(f"{API}/cartography/{c1}", headers=headers)
    client.get(f"{API}/cartography/{c2}", headers=headers)
    client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers)
    client.get(f"{API}/function/{test_map.function('F1')}", headers=headers)
    client.post(f"{API}/subject/{test_map.subject('S2')}/follow", headers=headers)
    client.post(f"{API}/subject/{test_map.subject('T1')}/duplicate", headers=headers)
    client.delete(f"{API}/subject/{test_map.subject('S3')}", headers=headers)
    counts = kept(db)
    assert counts == counted_from_history(db)
    page = client.get(f"{API}/cartography/{c1}", headers=headers).json()
    assert (page["stats"]["reads"], page["stats"]["writes"]) == (counts[c1][0] + 1, counts[c1][1])


def test_entries_written_without_history_record_count_too(db, make_user):
    user = make_user()
    rows = [
        {
            "at": utcnow(),
            "user_id": user.id,
            "item_type": "subject",
            "item_id": 1,
            "item_key": "S1",
            "item_name": "",
            "mode": mode,
            "event": event,
            "cartography_id": cartography_id,
        }
        for mode, event, cartography_id in (
            ("R", None, 7),
            ("W", "updated", 7),
            ("R", None, 8),
            ("R", None, None),
        )
    ]
    db.execute(insert(HistoryEntry), rows)
    db.commit()
    assert kept(db) == {7: (1, 1), 8: (1, 0)} == counted_from_history(db)
