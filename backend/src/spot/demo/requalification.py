"""The requalification Spot opens by itself (qualifications.requalification), so that the demo shows one
after `make run`: `apprenant`'s forklift licence runs out within a month (demo.qualifications), within
the 60 days of 'Cariste en atelier', so Spot opens his path "Requalification — <module>", created by
Spot, followed by `referent` who validated the licence, from today to its last valid day; he finds it in
his bell and his e-mail. 'Cariste en atelier' names `formation` as its default referent, for a hold
whose validating path has no referent left.

Run as the daily scan's first step would be on the day the demo is loaded (its plan, then its
openings); idempotent: a hold is opened once ever (requalification_opening), so a second seed and the
scan of `spot serve` that day open nothing more."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.time import today
from spot.qualifications import requalification
from spot.qualifications.models import Qualification, QualificationReferent
from spot.users.models import User

FORKLIFT_QUALIFICATION = "Cariste en atelier"
DEFAULT_REFERENT = "formation"


def seed(db: Session) -> None:
    qualification_id = db.scalar(select(Qualification.id).where(Qualification.name == FORKLIFT_QUALIFICATION))
    referent_id = db.scalar(select(User.id).where(User.login == DEFAULT_REFERENT))
    if qualification_id is not None and referent_id is not None:
        named = db.scalar(
            select(QualificationReferent.user_id).where(
                QualificationReferent.qualification_id == qualification_id
            )
        )
        if named is None:
            db.add(QualificationReferent(qualification_id=qualification_id, user_id=referent_id))
    db.flush()
    day = today()
    requalification.open_planned(db, requalification.plan(db, day=day), day=day)
    db.flush()
