"""History entries at known instants, written as core.history writes them."""

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from spot.core import history
from spot.core.history import Event

PARIS = ZoneInfo("Europe/Paris")


def at(text: str) -> datetime:
    """An instant of the organisation's time zone (Europe/Paris in the tests): '2025-01-06 12:00'."""
    return datetime.fromisoformat(text).replace(tzinfo=PARIS)


def add(
    db: Session,
    when: datetime,
    *,
    user_id: int | None,
    item_type: str,
    item_id: int,
    mode: str = "R",
    cartography_id: int | None = None,
    key: str = "K",
    name: str = "Nom",
) -> None:
    values = history.entry(
        user=None,
        item_type=item_type,
        item_id=item_id,
        item_key=key,
        item_name=name,
        mode=mode,  # type: ignore[arg-type]
        event=Event.updated if mode == "W" else None,
        cartography_id=cartography_id,
    )
    history.record(db, {**values, "at": when, "user_id": user_id})
    db.commit()
