from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from spot.config import get_settings


def utcnow() -> datetime:
    return datetime.now(UTC)


def today() -> date:
    """Today in the organisation's time zone."""
    return datetime.now(ZoneInfo(get_settings().timezone)).date()
