"""The coverage warnings of the day the demo is loaded (notifications.coverage, the daily scan's
coverageWarnings step): the machining workshop's forklift drivers fall under their minimum within 60 days
(demo.coverage), so its managers find the warning in their bell and in the outbox page after `make run`.
Idempotent: a fall is told once ever; the daily scan of `spot serve` finds it told."""

from sqlalchemy.orm import Session

from spot.core.time import today
from spot.notifications import coverage


def seed(db: Session) -> None:
    db.flush()
    coverage.warn(db, day=today())
