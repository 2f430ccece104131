from datetime import date, datetime
from enum import StrEnum

from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel, Id

# Bounds of a contributions request: the chart asks for 78 weeks or 18 months; 200 periods leave room
# for a dashboard's longer view without letting one request build an unbounded statement.
MAX_PERIODS = 200
MAX_START = 5200
MAX_IDS = 1000


class Granularity(StrEnum):
    week = "week"
    month = "month"


class HistoryItem(CamelModel):
    """One entry of the user's own history: what they read ('R') or wrote ('W'), and when."""

    date: datetime
    item_type: str
    item_id: int
    item_key: str = Field(description="The item's code at the time (it may since have changed)")
    item_name: str = Field(description="The item's name at the time")
    mode: str = Field(description="'R' a read, 'W' a write")
    event: str | None = Field(description="What the write did (spec 1 §3 event kinds); null for a read")


class ContributionsQuery(CamelModel):
    """Views (reads) and contributions (writes) per period, of the entries the caller may read.

    Periods are calendar weeks (Monday to Sunday) or months of the organisation's time zone. Period 0
    is the week that contains 1 January of `fromYear` (granularity week) or January of `fromYear`
    (month); `start` is the index of the first period answered, `count` how many follow it.
    So 78 weeks ending with the current one are `start` = (the current week's index) - 77."""

    user_ids: list[Id] = Field(
        default=[],
        max_length=MAX_IDS,
        description="Only these users' entries, and those of the members of groupIds; both empty: everyone's",
    )
    group_ids: list[Id] = Field(
        default=[],
        max_length=MAX_IDS,
        description="The members of these groups count as named users (an unknown group: 404 groupNotFound)",
    )
    item_ids: list[Id] = Field(
        default=[],
        max_length=MAX_IDS,
        description="Items of the hierarchy (ids shared by sites, cartographies, activities, functions "
        "and subjects): a site or a cartography counts everything recorded in it (the entries of "
        "its cartographies, functions and subjects, resources and discussions included); a function "
        "its own entries and its subjects'; an activity the subjects of it and of its sub-activities; "
        "a subject its own. Empty, with no subjectIds: the whole map.",
    )
    subject_ids: list[Id] = Field(
        default=[],
        max_length=MAX_IDS,
        description="Subjects: their entries (as in itemIds; also names a subject made before "
        "subjects shared the map items' ids, whose id another item has)",
    )
    from_year: int = Field(ge=2000, le=2100)
    granularity: Granularity = Granularity.week
    start: StrictInt = Field(default=0, ge=0, le=MAX_START)
    count: StrictInt = Field(ge=1, le=MAX_PERIODS)


class ContributionPeriod(CamelModel):
    start: date = Field(description="The period's first day (a Monday, or the 1st of a month)")
    views: int = Field(description="Reads in the period")
    contributions: int = Field(description="Writes in the period")


# The longest contributions export (spec 2 §5, §9): 78 weeks or 18 months.
MAX_EXPORT_PERIODS = {Granularity.week: 78, Granularity.month: 18}


class Contributions(CamelModel):
    granularity: Granularity
    periods: list[ContributionPeriod]
