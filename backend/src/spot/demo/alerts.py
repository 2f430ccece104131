"""Alerts for the bell: demo users follow subjects that someone else changes afterwards, so that the
administrator and a learner find "changed since your last visit" after `make run`. Idempotent: a
subject already followed is left as it is."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.mapping.models import Subject
from spot.subjects import service as subjects
from spot.users.models import User

# (subject code, follower, who changes it next, how); the change comes after the follower's visit.
FOLLOWED_THEN_CHANGED = [
    ("USI-003", "admin", "referent", "resolve"),
    ("ASM-004", "admin", "createur", "standardize"),
    ("USI-004", "operatrice", "createur", "resolve"),
]
COMMENT = "Revu avec l'équipe"


def seed(db: Session) -> None:
    users = {u.login: u.id for u in db.scalars(select(User))}
    codes = [code for code, *_rest in FOLLOWED_THEN_CHANGED]
    by_code = {s.code: s for s in db.scalars(select(Subject).where(Subject.code.in_(codes)))}
    for code, follower_login, changer_login, action in FOLLOWED_THEN_CHANGED:
        subject = by_code.get(code)
        follower_id, changer_id = users.get(follower_login), users.get(changer_login)
        if subject is None or follower_id is None or changer_id is None or subject.followed_at is not None:
            continue
        follower, changer = principal_of(db, user_id=follower_id), principal_of(db, user_id=changer_id)
        subject = subjects.follow(db, user=follower, subject=subject)
        if action == "resolve":
            subjects.resolve(db, user=changer, subject=subject)
        else:
            subjects.standardize(db, user=changer, subject=subject, comment=COMMENT)
    db.flush()
