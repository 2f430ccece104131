import pytest
from sqlalchemy import select

from spot.core import history
from spot.core.history import Event
from spot.core.history_models import HistoryEntry


def test_record_a_read_and_a_write(db, make_user):
    user = make_user("historien")
    history.record(
        db,
        history.entry(
            user=user,
            item_type="subject",
            item_id=7,
            item_key="S7",
            item_name="Sujet",
            mode="R",
            cartography_id=3,
        ),
    )
    history.record(
        db,
        history.entry(
            user=user,
            item_type="subject",
            item_id=7,
            item_key="S7",
            item_name="Sujet",
            mode="W",
            event=Event.followed,
            cartography_id=3,
        ),
    )
    db.commit()
    rows = db.scalars(select(HistoryEntry).order_by(HistoryEntry.id)).all()
    assert [
        (r.user_id, r.item_type, r.item_id, r.item_key, r.item_name, r.mode, r.event, r.cartography_id)
        for r in rows
    ] == [
        (user.id, "subject", 7, "S7", "Sujet", "R", None, 3),
        (user.id, "subject", 7, "S7", "Sujet", "W", "followed", 3),
    ]
    assert rows[0].at.tzinfo is not None and rows[0].at <= rows[1].at


def test_a_write_needs_a_known_event_and_the_mode_is_r_or_w(db):
    with pytest.raises(ValueError):
        history.record(
            db, history.entry(user=None, item_type="subject", item_id=1, item_key="", item_name="", mode="W")
        )
    with pytest.raises(ValueError):
        history.record(
            db,
            history.entry(
                user=None,
                item_type="subject",
                item_id=1,
                item_key="",
                item_name="",
                mode="W",
                event="exploded",
            ),
        )  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        history.record(
            db, history.entry(user=None, item_type="subject", item_id=1, item_key="", item_name="", mode="X")
        )  # type: ignore[arg-type]


def test_the_spec_event_kinds_are_all_known():
    spec = (
        "created updated mindMapUpdated duplicatedFrom followed resolved criticity standardized "
        "statusChanged "
        "trackingPeriodsChanged mediationSigned resourceCreated resourceUpdated resourceDeleted"
    ).split()
    assert set(spec) <= {e.value for e in Event}


def test_entries_survive_their_user(db, make_user):
    user = make_user("parti")
    history.record(
        db,
        history.entry(
            user=user, item_type="cartography", item_id=1, item_key="C1", item_name="Carto", mode="R"
        ),
    )
    db.commit()
    db.delete(user)
    db.commit()
    db.expire_all()
    entry = db.scalar(select(HistoryEntry))
    assert entry is not None and entry.user_id is None
