"""The people of a mediation under test and the dates they schedule it at."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from spot.core.history_models import HistoryEntry
from spot.core.time import utcnow
from spot.discussions.models import DiscussionMessage
from spot.users.models import User


def tomorrow() -> str:
    """A scheduling date always accepted: tomorrow at noon UTC."""
    day = utcnow() + timedelta(days=1)
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC).isoformat().replace("+00:00", "Z")


@dataclass
class Cast:
    """Users in every role of one mediation and their session headers."""

    users: dict[str, User] = field(default_factory=dict)
    headers: dict[str, dict[str, str]] = field(default_factory=dict)

    def id(self, role: str) -> int:
        return self.users[role].id

    def group(self, role: str) -> int:
        return self.users[role].groups[0].id


ROLES = ("creator", "mediator", "participant", "other", "visiblePerson", "groupMember")


def history(db, mediation_id: int) -> list[tuple[str, str | None, int | None]]:
    db.expire_all()
    return [
        (e.mode, e.event, e.user_id)
        for e in db.scalars(
            select(HistoryEntry)
            .where(HistoryEntry.item_type == "mediation", HistoryEntry.item_id == mediation_id)
            .order_by(HistoryEntry.id)
        )
    ]


def system_messages(db, discussion_id: int) -> list[tuple[str, dict, int | None]]:
    db.expire_all()
    return [
        (m.system_type, m.system_args, m.author_id)
        for m in db.scalars(
            select(DiscussionMessage)
            .where(
                DiscussionMessage.discussion_id == discussion_id, DiscussionMessage.system_type.is_not(None)
            )
            .order_by(DiscussionMessage.id)
        )
    ]
