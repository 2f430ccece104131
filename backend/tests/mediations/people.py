"""The people of a mediation under test and the dates they schedule it at."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from spot.core.time import utcnow
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
