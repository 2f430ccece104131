"""The JSON of mediations (spec 1 §3)."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StrictInt

from spot.core.errors import FieldError
from spot.core.schemas import CamelModel, Id, Instant, MultilineText, Text
from spot.core.signatures import SignatureOut
from spot.mediations.models import MediationStatus

ReportModeValue = Literal["R", "W"]
# The version a change was made from: a stale one answers 409 staleVersion; without it (the spec's client
# sends none) the change applies to the stored mediation.
ReadVersion = Annotated[
    StrictInt | None,
    Field(description="The version read; a stale one answers 409, none applies to the stored one"),
]
ActionKind = Literal["start", "report", "validate", "sign"]


class Person(CamelModel):
    id: int
    name: str = Field(description="Display name: first and last name (external id)")


class Group(CamelModel):
    id: int
    name: str


class Period(CamelModel):
    """A tracking period: from the start of its start minute to the end of its stop minute."""

    start: Instant
    stop: Instant | None = Field(default=None, description="Null while the period runs")


class LastUpdate(CamelModel):
    user_id: int | None
    user_name: str
    date: datetime


class RelatedEntity(CamelModel):
    entity_type: str
    id: StrictInt


class ReportedEntity(CamelModel):
    entity_type: str
    id: int
    name: str | None = Field(
        description="Its name when the action was tracked; null when the reader may not read the item "
        "(or it no longer exists): the line then does not name it"
    )


class ReportItem(CamelModel):
    """An action of the report, for the reader's client to word in the reader's language (date, read or
    what the write did, the item's type and name)."""

    item_type: Literal["Tracking"] = "Tracking"
    tracking_id: int = Field(description="The history entry of the tracked action")
    related_entity: ReportedEntity
    date: datetime
    mode: ReportModeValue
    event: str | None = Field(description="What the write did (an event kind of spec 1 §3); null for a read")


class ReportItemIn(CamelModel):
    """An action chosen for the report; entity, date, mode and event come from the history entry."""

    item_type: Literal["Tracking"] = "Tracking"
    tracking_id: Id
    content: MultilineText | None = Field(
        default=None,
        max_length=1000,
        description="Accepted, ignored: each reader's client words the line in the reader's language",
    )
    related_entity: RelatedEntity | None = Field(default=None, description="Accepted, ignored")
    date: datetime | None = Field(default=None, description="Accepted, ignored")


class Reporting(CamelModel):
    comment: str
    items: list[ReportItem]
    date: datetime | None = Field(description="When the report was saved")


class TrackedAction(CamelModel):
    """A history entry of the mediator or a participant during the periods, selectable for the report."""

    id: int
    entity_type: str
    entity_key: str
    entity_name: str
    date: datetime
    mode: ReportModeValue
    event: str | None = Field(description="What the write did (an event kind of spec 1 §3); null for a read")


class FieldsCan(CamelModel):
    title: bool
    description: bool
    scheduling_date: bool
    mediator: bool
    participants: bool
    visible_by_groups: bool
    visible_by_persons: bool


class MediationCan(CamelModel):
    """What the signed-in user may do with this mediation, from spot.mediations.policy."""

    edit: bool
    start: bool
    pause: bool
    resume: bool
    stop: bool
    edit_report: bool
    validate_: bool = Field(alias="validate", serialization_alias="validate")
    invalidate: bool
    sign: bool
    cancel: bool
    attendance_sheet: bool = Field(
        description="Whether the attendance sheet (a PDF, GET /mediation/{mediationId}/attendanceSheet) "
        "may be had: once the mediation is validated"
    )
    fields: FieldsCan
    report_needs: list[Literal["participants"]] = Field(
        description="What the mediation lacks before its mediator may write the report, told to the mediator "
        "while it runs or once stopped: participants (added with the form, POST /mediation/{mediationId})"
    )


class MediationCard(CamelModel):
    id: int
    title: str
    description: str
    status: MediationStatus
    scheduling_date: datetime | None
    execution_start: datetime | None
    execution_stop: datetime | None
    creator: Person | None
    mediator: Person | None
    last_update: LastUpdate | None


class ActionableMediation(MediationCard):
    action: ActionKind = Field(description="What the mediation awaits from the signed-in user")


class MediationOut(MediationCard):
    inactive_people: list[int] = Field(
        description="The ids of the people named on this mediation (creator, mediator, participants, "
        "visibility, last change, signers) who left (deactivated): shown marked as inactive"
    )
    participants: list[Person]
    visible_by_groups: list[Group]
    visible_by_persons: list[Person]
    tracking_periods: list[Period]
    duration_minutes: int = Field(description="Sum of the periods in whole minutes (a running one to now)")
    discussion_id: int | None = Field(description="Its discussion (GET /discussion/{discussionId})")
    reporting: Reporting | None
    signatures: list[SignatureOut] = Field(description="Every signature, revoked ones included, oldest first")
    version: int
    can: MediationCan


class MediationSave(CamelModel):
    """The mediation form. Ids are checked by the service (mustNotBeEmpty, invalidValue...)."""

    title: Text = Field(max_length=300)
    description: MultilineText = Field(default="", max_length=5000)
    scheduling_date: Instant | None = None
    mediator: Id | None = None
    participants: list[Id] = Field(default_factory=list, max_length=1000)
    visible_by_groups: list[Id] = Field(default_factory=list, max_length=1000)
    visible_by_persons: list[Id] = Field(default_factory=list, max_length=1000)


class MediationUpdate(MediationSave):
    version: ReadVersion = None


class UnplannedMediation(CamelModel):
    """'Create and start': the current user as mediator, no participant, started at once."""

    title: Text = Field(max_length=300)


class StatusChange(CamelModel):
    status: MediationStatus


class TrackingSave(CamelModel):
    periods: list[Period] = Field(max_length=1000)
    version: ReadVersion = None


class TrackingCheck(CamelModel):
    periods: list[Period] = Field(max_length=1000)


class TrackingCheckResult(CamelModel):
    """The periods being edited, checked: the errors saving them would answer (a 400's errors), none
    when they may be saved. A refusal is what checking expects, not a failed call."""

    errors: list[FieldError]


class ReportSave(CamelModel):
    comment: MultilineText = Field(default="", max_length=5000)
    items: list[ReportItemIn] = Field(default_factory=list, max_length=1000)
    version: ReadVersion = None
