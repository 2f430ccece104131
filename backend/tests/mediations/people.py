"""The people of a mediation under test and the dates they schedule it at."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from spot.config import get_settings
from spot.core.history_models import HistoryEntry
from spot.core.time import today
from spot.discussions.models import DiscussionMessage
from spot.users.models import User


def tomorrow(hour: int = 12) -> str:
    """A scheduling date always accepted and never today's: tomorrow at `hour` (noon) in the organisation's
    time zone (the day the server counts in, core.time.today), in UTC. Tomorrow in UTC is today in Paris
    from 23:00 UTC, when a mediation scheduled then is already one to start."""
    at = datetime.combine(today() + timedelta(days=1), time(hour), tzinfo=ZoneInfo(get_settings().timezone))
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


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
