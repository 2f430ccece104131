"""The JSON of qualifications and their dashboards (spec 2 §3 Qualification, Qualification status record,
Dashboard element)."""

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictInt
from pydantic_core import PydanticCustomError

from spot.core.schemas import CamelModel, Id, Text
from spot.qualifications.forecast_schemas import FunctionForecast
from spot.qualifications.history import GradingOutcome
from spot.qualifications.validity import State
from spot.training.modules.schemas import Creation
from spot.training.paths.models import PathStatus

MAX_LINKS = 1000
# The requalification window, in days (qualifications.requalification).
DEFAULT_WINDOW = 60
MAX_WINDOW = 3650
LinkType = Literal["qualification", "user", "module", "group", "cartography"]
CoverageLevel = Literal["none", "single", "covered"]


class NamedItem(CamelModel):
    id: int
    name: str


class CartographySite(CamelModel):
    id: int
    name: str
    site_name: str


class ModuleRef(CamelModel):
    id: int
    name: str
    periodicity: int = Field(description="Months between two validations; 0: not periodic")
    enabled: bool


class FunctionRef(CamelModel):
    id: int
    name: str
    cartography_id: int


def _window(value: int) -> int:
    if not 0 <= value <= MAX_WINDOW:
        raise PydanticCustomError("valueMustBeBetween", "The value must be between 0 and 3650")
    return value


class QualificationCan(CamelModel):
    """What the signed-in user may do with this qualification, from spot.qualifications.policy."""

    edit: bool
    delete: bool
    see_dashboard: bool


class QualificationCard(CamelModel):
    id: int
    name: str
    cartographies: list[NamedItem]
    qualifiable_groups: list[NamedItem]
    modules: list[NamedItem]


class QualificationOut(CamelModel):
    id: int
    name: str
    cartographies: list[CartographySite] = Field(description="By name")
    qualifiable_groups: list[NamedItem] = Field(description="By name")
    modules: list[ModuleRef] = Field(description="In the order of the form")
    functions: list[FunctionRef] = Field(
        description="The functions of its cartographies it qualifies its holders for, those the user sees, "
        "by cartography then name; none: the functions its modules' spot elements are on"
    )
    requalification_window_days: int = Field(
        description="Days before a periodic module's last valid day when Spot opens a requalification path "
        "for a concerned person; 0: never"
    )
    default_referents: list[NamedItem] = Field(
        description="The referents of the requalification paths Spot opens when the path that last "
        "validated the module names none; by name"
    )
    discussion_id: int | None = Field(description="Its discussion (GET /discussion/{discussionId})")
    creation: Creation
    version: int
    can: QualificationCan


class QualificationSave(CamelModel):
    """The qualification form. Groups and modules: at least one (emptyFieldError); unknown ids:
    invalidValue on the field."""

    name: Text = Field(max_length=300)
    cartographies: list[Id] = Field(default=[], max_length=MAX_LINKS)
    qualifiable_groups: list[Id] = Field(default=[], max_length=MAX_LINKS)
    modules: list[Id] = Field(default=[], max_length=MAX_LINKS, description="In the order shown")
    functions: list[Id] = Field(
        default=[],
        max_length=MAX_LINKS,
        description="Functions of its cartographies it qualifies for (another: invalidValue). Changed by "
        "perm_QualificationAdmin only",
    )
    requalification_window_days: Annotated[StrictInt, AfterValidator(_window)] = Field(
        default=DEFAULT_WINDOW,
        description=f"0 to {MAX_WINDOW} (valueMustBeBetween); 0: Spot opens no requalification path. "
        "Changed by perm_QualificationAdmin only",
    )
    default_referents: list[Id] = Field(
        default=[],
        max_length=MAX_LINKS,
        description="People (unknown: invalidValue). Changed by perm_QualificationAdmin only",
    )


class QualificationUpdate(QualificationSave):
    version: StrictInt | None = Field(
        default=None,
        ge=0,
        le=2**31 - 1,
        description="The version read: a stale one answers 409 staleVersion; without it (the spec's "
        "payload) the save applies over whatever came before",
    )


# Validity ------------------------------------------------------------------------------------------

_REMAINING = "Days from today to the last valid day (0: valid today); 10000 permanent, -10000 never validated"
_VALID_UNTIL = "The last valid day; null when permanent or never validated"


class QualificationModuleStatus(CamelModel):
    """A person's hold on one module of a qualification."""

    module: int
    module_name: str
    validation_training_path: int | None = Field(description="The path of the latest successful grading")
    requalification_training_path: int | None = Field(
        description="A path in progress where the module is not yet graded"
    )
    state: State
    remaining_days: int = Field(description=_REMAINING)
    valid_until: date | None = Field(description=_VALID_UNTIL)


class QualificationStatus(CamelModel):
    """A person concerned by a qualification (a member of one of its groups) and their hold on it: the
    earliest expiry of its modules."""

    qualification: int
    qualification_name: str
    user: int
    user_name: str
    remaining_days: int = Field(description=_REMAINING)
    state: State
    valid_until: date | None = Field(description=_VALID_UNTIL)
    modules: list[QualificationModuleStatus] = Field(description="In the order of the qualification's form")


class DashboardLink(CamelModel):
    """What an item or a child leads to; the client builds the address."""

    type: LinkType
    id: int


class StateCounts(CamelModel):
    """An item's children by validity state, all of them, whichever the answer shows."""

    good: int
    warn: int
    none: int


class DashboardItem(CamelModel):
    id: int
    name: str
    total: int = Field(description="Its children")
    obtained: int = Field(description="Its children valid today at least (remainingDays >= 0)")
    counts: StateCounts
    remaining_days: int = Field(description="The minimum of its children's; -10000 without child")
    state: State
    valid_until: date | None = Field(description="The day of that minimum, when it is a date")
    link: DashboardLink


class DashboardChild(CamelModel):
    id: int
    name: str
    remaining_days: int = Field(description=_REMAINING)
    state: State
    valid_until: date | None = Field(description=_VALID_UNTIL)
    validation_training_path: int | None
    requalification_training_path: int | None
    link: DashboardLink


class DashboardElement(CamelModel):
    item: DashboardItem
    children: list[DashboardChild] = Field(
        description="By remaining days, most first, then name: those in the states asked, the first `limit` "
        "unless the item is among the `expanded` (item.counts counts them all)"
    )


class QualifiedPerson(CamelModel):
    user: NamedItem
    remaining_days: int
    valid_until: date | None
    qualification_id: int = Field(description="The qualification that qualifies them longest")


class FunctionCoverage(CamelModel):
    """Who is qualified, today, for a function of the cartography (docs/qualifications.md)."""

    function: NamedItem
    qualified: list[QualifiedPerson] = Field(description="By remaining days, most first, then name")
    level: CoverageLevel = Field(description="none: nobody; single: exactly one person; covered: more")
    minimum: int = Field(description="The function's minimum of qualified people (0 to 1000)")
    under_minimum: bool = Field(description="Fewer people qualified than the minimum")


class CartographyDashboard(CamelModel):
    cartography: CartographySite
    elements: list[DashboardElement]
    coverage: list[FunctionCoverage] = Field(
        description="Functions none first, then single, covered; by name"
    )
    forecast: list[FunctionForecast] = Field(
        description="Tomorrow's coverage: each function's qualified people today and at +30, +60 and +90 "
        "days against its minimum; nobody, under, falling, then enough; the soonest fall first; by name"
    )


class GroupDashboard(CamelModel):
    group: NamedItem
    elements: list[DashboardElement]


class GradingPath(CamelModel):
    id: int
    title: str
    status: PathStatus


class ValidationGrading(CamelModel):
    """One grading of a module for the person (docs/qualifications.md 'The history of each validation')."""

    id: int
    graded_at: datetime
    grade: float = Field(description="Out of 10")
    is_success: bool = Field(description="The grade reaches the module's pass threshold")
    valid_until: date | None = Field(
        description="The last valid day; null for a failure or a permanent success"
    )
    permanent: bool = Field(description="A success of a module that is not periodic")
    referent: NamedItem | None = Field(description="Who graded it; null once their account is gone")
    training_path: GradingPath
    outcome: GradingOutcome = Field(
        description="What it counts for today: valid (the validation held, valid today at least), expired "
        "(the validation held, past its last valid day), renewed (a later success replaced it), failed, "
        "regraded (its grade was changed afterwards), canceled (its path canceled or its module disabled)"
    )


class ModuleHistory(CamelModel):
    module: NamedItem
    gradings: list[ValidationGrading] = Field(description="Newest first")


class UserDashboard(CamelModel):
    user: NamedItem
    elements: list[DashboardElement]
    history: list[ModuleHistory] = Field(
        description="The history of each module of the qualifications concerning the person that they "
        "were graded in: every grading, successful or failed, of every path of theirs; by module name",
    )
