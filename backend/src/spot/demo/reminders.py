"""The expiry reminders of the day the demo is loaded (notifications.scan.remind, the daily scan's first
step): the holders of qualifications about to expire (demo.qualifications gives some 30 days or fewer)
and the managers of their group are told, so that the outbox page shows real reminders after `make
run`. Idempotent: a reminder is announced once ever; the daily scan of `spot serve` finds them told."""

from sqlalchemy.orm import Session

from spot.core.time import today
from spot.notifications import scan


def seed(db: Session) -> None:
    db.flush()
    scan.remind(db, day=today())
