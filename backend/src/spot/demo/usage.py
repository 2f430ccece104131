"""Usage for the chart of the cartography, function and subject pages: the demo users' reads and writes
of the demo site, spread over the 78 weeks before the demo was loaded (busier on weekdays, growing as
the site adopted Spot). Written once: a site that already has entries older than a week is left as
it is. The cartography counters follow, as for any entry (trigger history_entry_counted)."""

import random
from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from spot.core import history
from spot.core.history import Event
from spot.core.history_models import HistoryEntry
from spot.core.time import utcnow
from spot.demo.mapping import SITE_CODE
from spot.mapping.models import Cartography, Function, Site, Subject
from spot.users.models import User

WEEKS = 78
WRITE_EVENTS = [Event.updated, Event.mindMapUpdated, Event.followed, Event.criticity, Event.resourceCreated]


def seed(db: Session) -> None:
    now = utcnow()
    cartographies = db.scalars(
        select(Cartography).join(Site, Site.id == Cartography.site_id).where(Site.code == SITE_CODE)
    ).all()
    ids = [c.id for c in cartographies]
    if not ids or db.scalar(
        select(HistoryEntry.id)
        .where(HistoryEntry.cartography_id.in_(ids), HistoryEntry.at < now - timedelta(days=7))
        .limit(1)
    ):
        return
    users = db.scalars(select(User.id).order_by(User.id)).all()
    rng = random.Random(13)
    rows = []
    for cartography in cartographies:
        items = [("cartography", cartography.id, cartography.code, cartography.name)]
        items += [
            ("function", f.id, f.code, f.name)
            for f in db.scalars(select(Function).where(Function.cartography_id == cartography.id))
        ]
        items += [
            ("subject", s.id, s.code, s.name)
            for s in db.scalars(select(Subject).where(Subject.cartography_id == cartography.id))
        ]
        for week in range(WEEKS, 0, -1):
            adoption = (WEEKS - week + 10) / (WEEKS + 10)
            for _ in range(int(rng.randint(4, 14) * adoption * len(items) ** 0.5)):
                item_type, item_id, code, name = rng.choice(items)
                write = item_type != "cartography" and rng.random() < 0.18
                day = rng.choice([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6])
                at = now - timedelta(
                    weeks=week, days=-day, hours=rng.randint(-4, 4), minutes=rng.randint(0, 59)
                )
                entry = history.entry(
                    user=None,
                    item_type=item_type,
                    item_id=item_id,
                    item_key=code,
                    item_name=name,
                    mode="W" if write else "R",
                    event=rng.choice(WRITE_EVENTS) if write else None,
                    cartography_id=cartography.id,
                )
                rows.append({**entry, "at": at, "user_id": rng.choice(users) if users else None})
    if rows:
        db.execute(insert(HistoryEntry), rows)
    db.flush()
