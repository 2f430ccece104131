"""The JSON of training paths (spec 2 §3 Training path, Assigned module, Result per item, Path creation
payload, Path update payload)."""

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field, StrictFloat, StrictInt

from spot.core.schemas import CamelModel, Id, MultilineText, Str, Text
from spot.core.signatures import SignatureOut
from spot.lms.models import LaunchMode
from spot.mapping.schemas import ContextEntry
from spot.references.schemas import ReferenceSummary
from spot.training.modules.models import ModuleType, SpotItemType
from spot.training.paths.completion import WithCompletion
from spot.training.paths.models import ModuleStatus, PathEvent, PathStatus

MAX_LEARNERS = 500
MAX_MODULES = 100
MAX_PEOPLE = 1000


class Person(CamelModel):
    id: int
    name: str = Field(description="Display name: first and last name (external id)")


class Group(CamelModel):
    id: int
    name: str


# Writing ---------------------------------------------------------------------------------------


class AssignedModuleIn(CamelModel):
    """An assigned module of the form. Dates default to the path's."""

    module_id: Id | None = Field(default=None, description="Null: emptyFieldError (no module chosen)")
    referents: list[Id] = Field(default=[], max_length=MAX_PEOPLE, description="User ids; at least one")
    start_date: date | None = None
    stop_date: date | None = None


class PathSave(CamelModel):
    """What the path form sends, for a new path as for an edited one."""

    title: Text = Field(max_length=300)
    reference: Str | None = Field(default=None, max_length=100, description="A path reference's code")
    start_date: date
    stop_date: date
    pass_threshold: StrictInt = Field(default=10, ge=0, le=10, description="Out of 10")
    visible_by_persons: list[Id] = Field(default=[], max_length=MAX_PEOPLE)
    visible_by_groups: list[Id] = Field(default=[], max_length=MAX_PEOPLE)
    assigned_modules: list[AssignedModuleIn] = Field(max_length=MAX_MODULES)


class PathCreate(PathSave):
    """Path creation payload: one path per learner, the learners chosen and the members of the groups
    chosen."""

    learner_ids: list[Id] = Field(max_length=MAX_LEARNERS)
    learner_group_ids: list[Id] = Field(
        default=[],
        max_length=MAX_PEOPLE,
        description="Groups whose members are learners too, after learnerIds; the creator, a member, is "
        "left out (creatorOnlyMemberOfGroups when no one else is left). The spec's client sends the members "
        "in learnerIds instead.",
    )


class PathUpdate(PathSave):
    """Path update payload. Title, dates, threshold and the modules (which, in which order, with which
    dates) change only while notAccepted; referents and visibility while the path is not archived or
    canceled."""

    version: StrictInt | None = Field(
        default=None,
        description="The version read; a stale one answers 409 staleVersion. Without it (the spec's "
        "payload) the save applies over the current path.",
    )


class GradeBody(CamelModel):
    grade: StrictFloat | None = Field(
        default=None, description="0 to 10, rounded to one decimal; null: not set"
    )
    comment: MultilineText = Field(default="", max_length=5000, description="Required")
    version: StrictInt | None = Field(
        default=None, description="The path's version read; a stale one answers 409 staleVersion"
    )


class SignBody(CamelModel):
    comment: MultilineText = Field(default="", max_length=5000)
    satisfaction: StrictInt = Field(default=1, ge=1, le=5, description="Stars, 1 to 5")


class ValidateBody(CamelModel):
    comment: MultilineText = Field(default="", max_length=5000)


# Reading ---------------------------------------------------------------------------------------


class Creation(CamelModel):
    user_id: int | None
    user_name: str
    date: datetime


class Validation(CamelModel):
    validator: Person | None
    comment: str
    date: datetime


class LearnerSignature(CamelModel):
    """The learner's sign-off: what they wrote and how satisfied they were (the signature itself, with
    its printed name, meaning and hash, is in `signatures`)."""

    comment: str
    satisfaction: int
    date: datetime


class Grading(CamelModel):
    grade: float
    comment: str
    is_success: bool = Field(description="The grade reaches the module's pass threshold")
    referent: Person | None
    valid_until: date | None = Field(
        description="Grading date + the module's periodicity; null: permanent, or a failure (valid for "
        "nothing)"
    )
    date: datetime


class ModuleSummary(CamelModel):
    id: int
    name: str
    reference: ReferenceSummary | None
    goals: str
    module_type: ModuleType
    estimated_duration: int
    pass_threshold: int
    periodicity: int


class ResultBase(CamelModel):
    index: int = Field(description="The element's position in the module: the resultIndex of the calls")
    title: str
    description: str
    done_at: datetime | None


class UrlResult(ResultBase):
    type: Literal["url"]
    url: str


class SpotResult(ResultBase):
    type: Literal["spot"]
    spot_item_type: SpotItemType
    spot_item_id: int
    readable: bool = Field(description="False: show insufficientRightsToView")
    context: list[ContextEntry]
    subjects: list[int] = Field(
        description="Subjects under the item the learner read since the module started"
    )


class AttachedMediation(CamelModel):
    id: int
    title: str | None = Field(description="Null when the reader may not see it: insufficientRightsToView")
    status: str | None
    readable: bool
    signed_by_learner: bool


class MediationResult(ResultBase):
    type: Literal["mediation"]
    mediation_ids: list[int]
    mediations: list[AttachedMediation]


class LmsResource(CamelModel):
    resource_id: int
    done_at: datetime | None


class LmsQuiz(CamelModel):
    quiz_id: int
    result: float | None = Field(description="Out of 10, the best attempt; null before any")
    attempts_ids: list[int]


class LmsResult(ResultBase):
    type: Literal["lms"]
    lms_item_id: int | None
    lms_type: Literal["resource", "quiz"] | None
    course_id: int | None
    found: bool = Field(description="False: show lmsElementNotFound")
    launch_mode: LaunchMode = Field(description="The mode the element launches its unit in")
    resources: list[LmsResource]
    quizes: list[LmsQuiz]


Result = Annotated[UrlResult | SpotResult | MediationResult | LmsResult, Field(discriminator="type")]


class AssignedModuleCan(CamelModel):
    """What the signed-in user may do with this assigned module (spec 2 §4 Rules seen for path actions).
    Named apart from training.modules' ModuleCan: one name per schema in the OpenAPI document."""

    start: bool
    disable: bool
    grade: bool = Field(description="Grade and close, or change the grade")
    sign: bool
    manage_mediations: bool
    open_elements: bool = Field(description="The learner, module started: url and spot elements active")


class AssignedModule(WithCompletion):
    index: int
    module: ModuleSummary
    referents: list[Person]
    start_date: date
    stop_date: date
    status: ModuleStatus
    disabled: bool
    started_at: datetime | None
    total_items: int
    done_items: int
    results: list[Result]
    grading: Grading | None = Field(description="The current grading; null when none or not seeGrading")
    gradings: list[Grading] = Field(description="Every grading, oldest first; empty when not seeGrading")
    signature: LearnerSignature | None
    signatures: list[SignatureOut]
    can: AssignedModuleCan


# The short name the paths' service uses; the OpenAPI document keeps AssignedModuleCan.
ModuleCan = AssignedModuleCan


class HistoryEntry(CamelModel):
    at: datetime
    user: Person | None
    user_name: str = Field(description="The printed name at the time")
    event: PathEvent
    module_index: int | None
    grade: float | None
    comment: str | None


class PathFieldsCan(CamelModel):
    """Which fields of the form the user may still change (false for every field without can.edit).
    `assignedModules` is which modules, in which order, with which dates; `referents` the referents of
    each."""

    title: bool
    reference: bool
    start_date: bool
    stop_date: bool
    pass_threshold: bool
    assigned_modules: bool
    referents: bool
    visible_by_persons: bool
    visible_by_groups: bool


class PathCan(CamelModel):
    """What the signed-in user may do with this path, from spot.training.paths.policy and the tables of
    spot.training.paths.transitions."""

    edit: bool
    create_from: bool
    delete: bool
    accept: bool
    start: bool
    validate_: bool = Field(alias="validate")
    sign: bool
    cancel: bool
    see_grading: bool
    fields: PathFieldsCan


ClosingWarning = Literal[
    "atLeastOneModuleNotPassed", "atLeastOneModuleNotSignedByLearner", "atLeastOneModuleNotSigned"
]


class PathOut(WithCompletion):
    id: int
    title: str
    inactive_people: list[int] = Field(
        description="The ids of the people named on this path (learner, creator, validator, referents, "
        "graders, signers, history, visibility) who left (deactivated): shown marked as inactive"
    )
    reference: ReferenceSummary | None
    learner: Person | None
    start_date: date
    stop_date: date
    status: PathStatus
    pass_threshold: int
    visible_by_persons: list[Person]
    visible_by_groups: list[Group]
    opened_by_spot: bool = Field(
        description="Opened by Spot itself (a requalification): no creator; creation.userName is 'Spot'"
    )
    creation: Creation
    total_estimated_duration: int = Field(description="Minutes, over the modules not disabled")
    total_sub_module_items: int
    done_sub_module_items: int
    total_assigned_modules: int
    average_grade: float | None = Field(
        description="Over the graded modules; null when none or not seeGrading"
    )
    acceptance_date: datetime | None
    validation: Validation | None
    signature: LearnerSignature | None
    signatures: list[SignatureOut] = Field(
        description="The validator's approval, the learner's acknowledgement"
    )
    closing_warnings: list[ClosingWarning] = Field(description="What closing it now would warn about")
    assigned_modules: list[AssignedModule]
    history: list[HistoryEntry] = Field(description="Oldest first")
    can: PathCan
    version: int


class PathCard(WithCompletion):
    """A path of the list (and of POST /training/path/infos, POST /training/path)."""

    id: int
    title: str
    reference: ReferenceSummary | None
    learner: Person | None
    creator: Person | None
    opened_by_spot: bool = Field(description="Opened by Spot itself (a requalification): no creator")
    status: PathStatus
    start_date: date
    stop_date: date
    created_at: datetime
    acceptance_date: datetime | None
    validation_date: datetime | None
    signature_date: datetime | None
    total_assigned_modules: int


class AssignedModuleCard(CamelModel):
    """An assigned module of POST /training/path/modules/query, with its validity (periodic modules)."""

    path_id: int
    path_title: str
    path_status: PathStatus
    index: int
    learner: Person | None
    module: ModuleSummary
    status: ModuleStatus
    start_date: date
    stop_date: date
    grading: Grading | None
