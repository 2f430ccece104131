from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from spot.config import get_settings


def utcnow() -> datetime:
    return datetime.now(UTC)


def today() -> date:
    """Today in the organisation's time zone."""
    return datetime.now(ZoneInfo(get_settings().timezone)).date()


def midnight(day: date) -> datetime:
    """The instant (UTC) a calendar day of the organisation's time zone begins (DESIGN §4)."""
    return datetime.combine(day, time(0), tzinfo=ZoneInfo(get_settings().timezone)).astimezone(UTC)
