"""The SCORM data model's values as Spot reads them (SCORM 1.2 RTE 3.4, SCORM 2004 RTE 4.2): the
vocabularies, the time formats of each edition, and a commit's CMI read into what Spot keeps, every value
checked (a wrong one is refused with the element it was found at)."""

import math
import re
from dataclasses import dataclass
from typing import Any

from spot.core.errors import ApiError

MAX_SUSPEND_DATA = 64_000
MAX_LOCATION = 1_000
MAX_INTERACTIONS = 1_000

LESSON_STATUS = ("passed", "completed", "failed", "incomplete", "browsed", "not attempted")
COMPLETION_STATUS = ("completed", "incomplete", "not attempted", "unknown")
SUCCESS_STATUS = ("passed", "failed", "unknown")
EXIT_12 = ("time-out", "suspend", "logout", "")
EXIT_2004 = ("time-out", "suspend", "logout", "normal", "")
# SCORM 1.2 lesson_status read in SCORM 2004's words (completion, success).
_LESSON = {
    "passed": ("completed", "passed"),
    "completed": ("completed", "unknown"),
    "failed": ("completed", "failed"),
    "incomplete": ("incomplete", "unknown"),
    "browsed": ("incomplete", "unknown"),
    "not attempted": ("not attempted", "unknown"),
}
_TIMESPAN_12 = re.compile(r"^(\d{2,4}):([0-5]\d):([0-5]\d)(\.\d{1,2})?$")
_N = r"(\d+(?:\.\d+)?)"
_INTERVAL_2004 = re.compile(rf"^P(?:{_N}Y)?(?:{_N}M)?(?:{_N}D)?(?:T(?:{_N}H)?(?:{_N}M)?(?:{_N}S)?)?$")


def refuse(message: str) -> ApiError:
    return ApiError(400, message)


# Times -----------------------------------------------------------------------------------------------


def timespan_12(value: str, where: str) -> float:
    """SCORM 1.2 CMITimespan (HHHH:MM:SS.SS) in seconds."""
    match = _TIMESPAN_12.match(value)
    if match is None:
        raise refuse(f"{where}: a time span HHHH:MM:SS.SS is expected")
    hours, minutes, seconds, fraction = match.groups()
    return int(hours) * 3600 + int(minutes) * 60 + int(seconds) + float(fraction or 0)


def interval_2004(value: str, where: str) -> float:
    """SCORM 2004 timeinterval (ISO 8601 duration, PnYnMnDTnHnMnS) in seconds (a year of 365 days, a
    month of 30)."""
    match = _INTERVAL_2004.match(value)
    if match is None or value in ("P", "PT") or value.endswith("T"):
        raise refuse(f"{where}: an ISO 8601 duration (PT1H2M3S) is expected")
    factors = (365 * 86400, 30 * 86400, 86400, 3600, 60, 1)
    return sum(float(part) * factor for part, factor in zip(match.groups(), factors, strict=True) if part)


def format_timespan_12(seconds: float) -> str:
    hundredths = round(seconds * 100)
    hours, rest = divmod(hundredths, 360_000)
    minutes, rest = divmod(rest, 6_000)
    return f"{min(hours, 9999):04d}:{minutes:02d}:{rest // 100:02d}.{rest % 100:02d}"


def format_interval_2004(seconds: float) -> str:
    hundredths = round(seconds * 100)
    hours, rest = divmod(hundredths, 360_000)
    minutes, rest = divmod(rest, 6_000)
    whole, fraction = divmod(rest, 100)
    second = f"{whole}.{fraction:02d}".rstrip("0").rstrip(".") if fraction else str(whole)
    return f"PT{hours}H{minutes}M{second}S"


# Reading a commit ------------------------------------------------------------------------------------


@dataclass
class Read:
    completion: str | None
    success: str | None
    lesson_status: str | None
    exit: str
    location: str
    suspend_data: str
    raw: float | None
    low: float | None
    high: float | None
    scaled: float | None
    session_seconds: float | None
    progress_measure: float | None
    interactions: Any


def _object(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise refuse(f"{where}: an object is expected")
    return value


def _text(container: dict[str, Any], name: str, where: str, limit: int) -> str | None:
    """A CMI value (scorm-again sends strings; a number is read as its text). None when absent."""
    value = container.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise refuse(f"{where}{name}: a string is expected")
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        raise refuse(f"{where}{name}: {limit} characters at most")
    return text


def _vocabulary(container: dict[str, Any], name: str, where: str, allowed: tuple[str, ...]) -> str | None:
    value = _text(container, name, where, 50)
    if value is not None and value not in allowed:
        raise refuse(f"{where}{name}: one of {', '.join(repr(a) for a in allowed)} is expected")
    return value


def _decimal(container: dict[str, Any], name: str, where: str, low: float, high: float) -> float | None:
    value = _text(container, name, where, 50)
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or not low <= number <= high:
        raise refuse(f"{where}{name}: a number from {low:g} to {high:g} is expected")
    return number


def _interactions(value: Any, where: str) -> Any:
    if value is None:
        return {}
    if not isinstance(value, dict | list):
        raise refuse(f"{where}: an object or a list is expected")
    if len(value) > MAX_INTERACTIONS:
        raise refuse(f"{where}: {MAX_INTERACTIONS} interactions at most")
    return value


def read_12(cmi_data: dict[str, Any]) -> Read:
    core = _object(cmi_data.get("core"), "cmi.core")
    score = _object(core.get("score"), "cmi.core.score")
    session = _text(core, "session_time", "cmi.core.", 20)
    status = _vocabulary(core, "lesson_status", "cmi.core.", LESSON_STATUS)
    completion, success = _LESSON[status] if status else (None, None)
    return Read(
        completion=completion,
        success=success,
        lesson_status=status,
        exit=_vocabulary(core, "exit", "cmi.core.", EXIT_12) or "",
        location=_text(core, "lesson_location", "cmi.core.", MAX_LOCATION) or "",
        suspend_data=_text(cmi_data, "suspend_data", "cmi.", MAX_SUSPEND_DATA) or "",
        raw=_decimal(score, "raw", "cmi.core.score.", -1e9, 1e9),
        low=_decimal(score, "min", "cmi.core.score.", -1e9, 1e9),
        high=_decimal(score, "max", "cmi.core.score.", -1e9, 1e9),
        scaled=None,
        session_seconds=timespan_12(session, "cmi.core.session_time") if session else None,
        progress_measure=None,
        interactions=_interactions(cmi_data.get("interactions"), "cmi.interactions"),
    )


def read_2004(cmi_data: dict[str, Any]) -> Read:
    score = _object(cmi_data.get("score"), "cmi.score")
    session = _text(cmi_data, "session_time", "cmi.", 60)
    return Read(
        completion=_vocabulary(cmi_data, "completion_status", "cmi.", COMPLETION_STATUS),
        success=_vocabulary(cmi_data, "success_status", "cmi.", SUCCESS_STATUS),
        lesson_status=None,
        exit=_vocabulary(cmi_data, "exit", "cmi.", EXIT_2004) or "",
        location=_text(cmi_data, "location", "cmi.", MAX_LOCATION) or "",
        suspend_data=_text(cmi_data, "suspend_data", "cmi.", MAX_SUSPEND_DATA) or "",
        raw=_decimal(score, "raw", "cmi.score.", -1e9, 1e9),
        low=_decimal(score, "min", "cmi.score.", -1e9, 1e9),
        high=_decimal(score, "max", "cmi.score.", -1e9, 1e9),
        scaled=_decimal(score, "scaled", "cmi.score.", -1, 1),
        session_seconds=interval_2004(session, "cmi.session_time") if session else None,
        progress_measure=_decimal(cmi_data, "progress_measure", "cmi.", 0, 1),
        interactions=_interactions(cmi_data.get("interactions"), "cmi.interactions"),
    )
