"""The JSON of tomorrow's coverage (qualifications.forecast): on the cartography qualification
dashboard, the skills matrix and the cartography's plan."""

from datetime import date
from enum import StrEnum

from pydantic import Field

from spot.core.schemas import CamelModel


class Outlook(StrEnum):
    """What the plan colours a function's zone by (qualifications.forecast)."""

    nobody = "nobody"
    under = "under"
    falling = "falling"
    enough = "enough"


class ForecastFunction(CamelModel):
    id: int
    name: str


class ForecastPoint(CamelModel):
    days: int = Field(description="Days after today: 0, 30, 60 or 90")
    date: date
    valid: int = Field(description="People qualified that day: a valid hold lasting until that day at least")
    requalifying: int = Field(
        description="Of the people qualified today and no longer that day, those with a requalification path "
        "not graded yet (not counted in valid)"
    )
    under_minimum: bool = Field(description="valid < the function's minimum")


class FunctionForecast(CamelModel):
    """A function's qualified people today and at +30, +60 and +90 days against its minimum
    (docs/qualifications.md, "Tomorrow's coverage")."""

    function: ForecastFunction
    cartography_id: int
    minimum: int = Field(description="The people the function needs qualified (0: none)")
    outlook: Outlook = Field(
        description="nobody: a minimum above 0 and nobody qualified today; under: under its minimum today; "
        "falling: under it on a day within 90 days; enough: not within 90 days"
    )
    falls_on: date | None = Field(
        description="The first day within 90 days on which it is under its minimum, when it is not today"
    )
    points: list[ForecastPoint] = Field(description="Today, +30, +60 and +90 days")


class CoverageCartography(CamelModel):
    id: int
    name: str


class CartographyCoverage(CamelModel):
    """The coverage outlook of each function of a cartography that the user sees, for its plan."""

    cartography: CoverageCartography
    warn_days: int = Field(description="Managers are warned of a fall within this many days")
    functions: list[FunctionForecast] = Field(
        description="nobody, under, falling, then enough; the soonest fall first; then by name"
    )
