"""The demo's notification preferences: Hélène Fournier, an operator on the shop floor, reads her
mediation invitations in her daily digest rather than one by one, and wants no e-mail about the subjects
she follows (the bell shows them when she is at a desk). Her page "Messages I receive" shows both; the
outbox shows her invitation kept for the digest. Seeded before the mediations, whose invitations then
follow it."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.notifications.kinds import MEDIATION_INVITATION, Mode
from spot.notifications.models import NotificationPreference
from spot.users.models import User

PREFERENCES: dict[str, dict[str, Mode]] = {
    "operatrice": {MEDIATION_INVITATION: Mode.digest, "subjectChanged": Mode.never},
}


def seed(db: Session) -> None:
    for login, modes in PREFERENCES.items():
        user_id = db.scalar(select(User.id).where(User.login == login))
        if user_id is None:
            continue
        for kind, mode in modes.items():
            if db.get(NotificationPreference, (user_id, kind)) is None:
                db.add(NotificationPreference(user_id=user_id, kind=kind, mode=mode))
    db.flush()
