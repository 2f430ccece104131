"""The JSON of training modules (spec 2 §3 Training module, Module item types)."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, StrictInt
from pydantic_core import PydanticCustomError

from spot.core.schemas import CamelModel, Id, Str, Text, TextRule
from spot.lms.models import LaunchMode
from spot.mapping.schemas import ContextEntry
from spot.references.schemas import ReferenceSummary
from spot.training.modules.models import ModuleType, SpotItemType

# The longest duration and periodicity accepted. The form only asks for digits (spec 2 §5: no leading
# zero, at least 1 when given, 0 meaning "not defined" or "not periodic"); beyond these bounds a number
# is a typing mistake, and it would overflow the database's 32-bit integers a little further on.
MAX_DURATION_MINUTES = 60 * 1000  # a thousand hours
MAX_PERIODICITY_MONTHS = 1200  # a hundred years
MAX_ITEMS = 200


def _whole_count(maximum: int) -> AfterValidator:
    """nonZeroNumericValueExpected (the form's key for a bad count) for a negative number or one
    above `maximum`; 0 stays allowed (not defined)."""

    def check(value: int) -> int:
        if not 0 <= value <= maximum:
            raise PydanticCustomError(
                "nonZeroNumericValueExpected", "Integer, non-zero numeric value expected"
            )
        return value

    return AfterValidator(check)


def _threshold(value: int) -> int:
    if not 0 <= value <= 10:
        raise PydanticCustomError("valueMustBeBetween", "The value must be between 0 and 10")
    return value


def _some_items(value: list) -> list:
    if not value:
        raise PydanticCustomError("emptyFieldError", "A module needs at least one element")
    return value


# A required multi-line text (the goals): the general text rule, line breaks and tabs kept.
RequiredMultilineText = Annotated[str, BeforeValidator(TextRule(required=True, multiline=True))]


# Elements as the form sends them. Their texts are checked by the service (the general text rule,
# http(s) addresses), which names each faulty field `moduleItems[i].title` for the form to show.
class SpotItemIn(CamelModel):
    type: Literal["spot"]
    spot_item_type: SpotItemType
    spot_item_id: Id


class MediationItemIn(CamelModel):
    type: Literal["mediation"]
    title: str = Field(default="", max_length=300)
    description: str = Field(default="", max_length=5000, description="Multi-line")


class UrlItemIn(CamelModel):
    type: Literal["url"]
    url: str = Field(default="", max_length=2000, description="An http or https address")
    label: str = Field(default="", max_length=300)


class LmsItemIn(CamelModel):
    type: Literal["lms"]
    lms_course_id: Id = Field(description="A resource or a quiz of the learning platform (an item id)")
    launch_mode: LaunchMode = Field(
        default=LaunchMode.normal,
        description="Normal: results recorded (a unit the learner satisfied reopens in Review); Browse or "
        "Review: opened without recording results, the element done once opened",
    )


ModuleItemIn = Annotated[SpotItemIn | MediationItemIn | UrlItemIn | LmsItemIn, Field(discriminator="type")]


class ModuleSave(CamelModel):
    """The module form (create, and create from another module)."""

    name: Text = Field(max_length=300)
    module_type: ModuleType
    goals: RequiredMultilineText = Field(max_length=5000)
    estimated_duration: Annotated[StrictInt, _whole_count(MAX_DURATION_MINUTES)] = Field(
        default=0, description=f"Minutes, 0 to {MAX_DURATION_MINUTES}; 0: not defined"
    )
    reference: Str | None = Field(default=None, max_length=100, description="A module reference's code")
    periodicity: Annotated[StrictInt, _whole_count(MAX_PERIODICITY_MONTHS)] = Field(
        default=0, description=f"Months, 0 to {MAX_PERIODICITY_MONTHS}; 0: not periodic"
    )
    pass_threshold: Annotated[StrictInt, AfterValidator(_threshold)] = Field(
        default=10, description="0 to 10"
    )
    module_items: Annotated[list[ModuleItemIn], AfterValidator(_some_items)] = Field(max_length=MAX_ITEMS)


class ModuleUpdate(ModuleSave):
    version: StrictInt | None = Field(
        default=None,
        description="The version read; a stale one answers 409 staleVersion. Without it (the spec's "
        "payload) the save applies over the current module.",
    )


class EnabledBody(CamelModel):
    enabled: bool


# Elements as modules show them, resolved for the reader.
class SpotItemOut(CamelModel):
    type: Literal["spot"]
    spot_item_type: SpotItemType
    spot_item_id: int
    name: str | None = Field(description="Null when the reader may not see the item, or it is gone")
    context: list[ContextEntry] = Field(description="From the site down to the item's parent")
    readable: bool = Field(description="False: show insufficientRightsToView")


class MediationItemOut(CamelModel):
    type: Literal["mediation"]
    title: str
    description: str


class UrlItemOut(CamelModel):
    type: Literal["url"]
    url: str
    label: str


class LmsItemOut(CamelModel):
    type: Literal["lms"]
    lms_course_id: int | None = Field(description="The item id; null once the platform deleted the item")
    lms_type: Literal["resource", "quiz"] | None
    name: str | None
    course_id: int | None
    found: bool = Field(description="False (the item or its course was removed): show lmsElementNotFound")
    launch_mode: LaunchMode


ModuleItemOut = Annotated[
    SpotItemOut | MediationItemOut | UrlItemOut | LmsItemOut, Field(discriminator="type")
]


class Creation(CamelModel):
    user_id: int | None
    user_name: str
    date: datetime


class ModuleUsage(CamelModel):
    training_path: int = Field(description="How many paths assign the module")
    has_accepted_training_path: bool = Field(description="Some path using it left notAccepted")


class ModuleCan(CamelModel):
    """What the signed-in user may do with this module, from spot.training.modules.policy."""

    edit: bool
    delete: bool
    set_enabled: bool


class ModuleCard(CamelModel):
    """A module of the list."""

    id: int
    name: str
    module_type: ModuleType
    reference: ReferenceSummary | None
    goals: str
    estimated_duration: int
    periodicity: int
    pass_threshold: int
    enabled: bool
    creation: Creation
    item_count: int


class ModuleOut(CamelModel):
    id: int
    name: str
    module_type: ModuleType
    reference: ReferenceSummary | None
    goals: str
    estimated_duration: int
    periodicity: int
    pass_threshold: int
    enabled: bool
    creation: Creation
    version: int
    usage: ModuleUsage
    can: ModuleCan
    module_items: list[ModuleItemOut]


class CreatedId(CamelModel):
    id: int


class ModuleName(CamelModel):
    id: int
    name: str


class ModuleFound(CamelModel):
    """A module of the search (path forms pick modules with it)."""

    id: int
    name: str
    module_type: ModuleType
    enabled: bool
    reference: ReferenceSummary | None
