from datetime import date
from enum import StrEnum
from typing import Literal

from pydantic import Field

from spot.alerts.schemas import Alert, AlertKind
from spot.core.schemas import CamelModel
from spot.history.schemas import ContributionPeriod
from spot.training.paths.completion import WithCompletion
from spot.training.paths.models import PathStatus

COMPLETION = (
    "round(done / total × 100) over the path's modules that are not disabled; "
    "-1 when there is nothing to count"
)


# Path progress levels (spec 2 §4), by the completion: high above HIGH_ABOVE %, medium from MEDIUM_FROM %
# to HIGH_ABOVE %, low below MEDIUM_FROM % (dashboards.service.level, and the counts below).
HIGH_ABOVE = 66
MEDIUM_FROM = 33


class Level(StrEnum):
    """Path progress state (spec 2 §4), from the completion by the bands that a group's counts state;
    none when the completion cannot be told (-1)."""

    high = "high"
    medium = "medium"
    low = "low"
    none = "none"


class CurrentPath(WithCompletion):
    """A current path (spec 2 §9): started on or before today, stopping on or after today, not canceled."""

    id: int
    title: str
    status: PathStatus
    start_date: date
    stop_date: date
    completion: int = Field(description=COMPLETION)


class AlertGroup(CamelModel):
    """The bell's alerts of one kind: the newest (at most 50), newest first, and how many in all."""

    kind: AlertKind
    count: int = Field(ge=1)
    alerts: list[Alert]


class PeriodicModule(CamelModel):
    """An assigned module of a periodic training module, graded, in one of the user's paths."""

    path_id: int
    path_title: str
    module_index: int = Field(description="The module's position in the path (0 first)")
    module_id: int
    module_name: str
    valid_until: date
    days: int = Field(
        description="Days of validity left, today included: validUntil - today + 1 (1 on the last "
        "valid day); 0 or less once expired (0: expired yesterday)"
    )
    color: Literal["green", "red", "grey"] = Field(
        description="green: valid until a month from today or later; red: valid today but for less "
        "than a month; grey: expired"
    )


class MyDashboard(CamelModel):
    current_paths: list[CurrentPath] = Field(description="The user's current paths as learner")
    alerts: list[AlertGroup] = Field(
        description="The bell's awaited actions, grouped by kind, in the bell's order"
    )
    contributions: list[ContributionPeriod] = Field(
        description="The user's own views and contributions per month, the 12 months ending with this one"
    )
    periodic_modules: list[PeriodicModule] = Field(
        description="Validity of the user's periodic modules, from those expired 2 months ago, soonest first"
    )


class GroupProgress(WithCompletion):
    id: int
    name: str
    users: int = Field(description="Members of the group")
    with_paths: int = Field(description="Members with at least one current path")
    completion: int = Field(
        description="The rounded average of the members' completions (those that can be told); -1 when none"
    )
    high: int = Field(description=f"Members whose completion is above {HIGH_ABOVE} %")
    medium: int = Field(description=f"Members whose completion is {MEDIUM_FROM} to {HIGH_ABOVE} %")
    low: int = Field(description=f"Members whose completion is below {MEDIUM_FROM} %")


class TrainingPathDashboard(CamelModel):
    groups: list[GroupProgress] = Field(description="Every group, by name")


class Named(CamelModel):
    id: int
    name: str


class UserProgress(WithCompletion):
    id: int
    name: str
    completion: int = Field(
        description="round(sum of done / sum of total × 100) over the user's current paths; -1 when there "
        "is no current path or nothing to count"
    )
    level: Level
    paths: list[CurrentPath] = Field(description="The user's current paths as learner")


class GroupTrainingPathDashboard(CamelModel):
    group: Named
    users: list[UserProgress] = Field(description="The group's members, by name")


class CoverageLevels(CamelModel):
    none: int = Field(description="Functions nobody is qualified for")
    single: int = Field(description="Functions a single person is qualified for (no backup)")
    covered: int = Field(description="Functions two people or more are qualified for")
    under_minimum: int = Field(
        description="Functions fewer people are qualified for than their minimum (any level)"
    )


class CartographySummary(CamelModel):
    """A cartography as the Dashboard manager lists it: the figures of its qualification dashboard."""

    id: int
    name: str
    site_name: str
    qualifications: int = Field(description="Qualifications naming the cartography")
    functions: CoverageLevels = Field(
        description="The cartography's functions the user sees, by coverage level (docs/qualifications.md)"
    )
