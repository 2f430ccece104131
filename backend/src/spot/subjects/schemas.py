from datetime import datetime
from typing import Literal

from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel, Id, MultilineText, Text
from spot.mapping.models import NodeStatus, SubjectType
from spot.mapping.schemas import ContextEntry

CriticityLevel = Literal["low", "medium", "high"]
# The bands of the score (spec 1 §4): low below LOW_BELOW, high above HIGH_ABOVE, medium between
# (both included). The client and the documents show the level the server computed.
LOW_BELOW = 33
HIGH_ABOVE = 66

Rating = Field(ge=0, le=5)


class LifetimeEvent(CamelModel):
    user_id: int | None
    user_name: str
    date: datetime


class LifetimeEvents(CamelModel):
    creation: LifetimeEvent | None
    last_update: LifetimeEvent | None
    followed: LifetimeEvent | None
    resolved: LifetimeEvent | None
    criticity: LifetimeEvent | None
    standardized: LifetimeEvent | None


class Ratings(CamelModel):
    frequency: StrictInt = Rating
    gravity: StrictInt = Rating
    detectability: StrictInt = Rating


class CriticityTable(CamelModel):
    """The level of every rating, as the server computes it: what the rating dialog shows before saving."""

    levels: list[list[CriticityLevel | None]] = Field(
        description="levels[frequency][gravity], each 0 ('not defined') to 5; null while either is 0"
    )


class MindMapItemOut(CamelModel):
    code: int
    name: str
    status: NodeStatus


class Contributor(CamelModel):
    id: int
    name: str


class SubjectCan(CamelModel):
    """What the signed-in user may do with this subject, from spot.subjects.policy."""

    edit: bool
    delete: bool
    duplicate: bool
    standardize: bool
    follow: bool
    resolve: bool
    rate: bool
    edit_mind_map: bool = Field(description="Add, edit, move and delete mind-map nodes (perm_EditNotHaute)")
    validate_mind_map: bool = Field(description="Set a node to or from validated (perm_ValidNotHaute)")
    edit_diagram: bool = Field(description="Set or remove the diagram (perm_EditNotBasse)")


class SubjectSummary(CamelModel):
    """A subject as shown in lists and tables."""

    id: int
    code: str
    name: str
    type: SubjectType
    cartography_id: int
    function_id: int
    activity_id: int
    lifetime_events: LifetimeEvents
    ratings: Ratings
    criticity: int | None = Field(description="0-100 from frequency × gravity; null while either is 0")
    criticity_level: CriticityLevel | None = Field(
        description=f"low < {LOW_BELOW} ≤ medium ≤ {HIGH_ABOVE} < high"
    )
    main_node_status: NodeStatus | None
    has_diagram: bool
    last_mindmap_update: datetime | None


class SubjectCard(SubjectSummary):
    """A subject of the list, with its contexts (site, cartography, function / activity)."""

    contexts: list[list[ContextEntry]]


class SubjectOut(SubjectSummary):
    contexts: list[list[ContextEntry]]
    ancestors: list[ContextEntry]
    standardized_comment: str
    prevention_measures: str = Field(description="What is done against the risk; printed in the DUERP")
    mind_map_items: list[MindMapItemOut]
    picture_url: str | None
    contributors: list[Contributor]
    discussion_id: int | None = Field(description="Its discussion (GET /discussion/{discussionId})")
    version: int
    can: SubjectCan


class SubjectSave(CamelModel):
    """The subject form. The links are checked by the service so that a missing one gives
    mustNotBeEmpty and one that does not belong gives invalidValue."""

    name: Text = Field(max_length=300)
    type: SubjectType = SubjectType.risk
    cartography_id: Id | None = None
    function_id: Id | None = None
    activity_id: Id | None = Field(
        default=None, description="The sub-activity if one is chosen, else the activity"
    )


class SubjectUpdate(SubjectSave):
    version: StrictInt = Field(description="The version read; a stale one answers 409")


class CreatedId(CamelModel):
    id: int


class PreventionMeasuresSave(CamelModel):
    prevention_measures: MultilineText = Field(max_length=5000, description="Empty: none written")
    version: StrictInt = Field(description="The version read; a stale one answers 409")


class StandardizeBody(CamelModel):
    comment: MultilineText = Field(default="", max_length=5000)


class Visit(CamelModel):
    subject_id: int
    date: datetime


class FunctionActivity(CamelModel):
    """One table of the function view: a top-level activity and the subjects of this function
    in it or in its sub-activities."""

    id: int
    code: str
    name: str
    subjects: list[SubjectSummary]


class FunctionCan(CamelModel):
    """What the signed-in user may do from a function's page, from spot.subjects.policy."""

    create: bool = Field(description="Add subjects to this function")


class FunctionView(CamelModel):
    id: int
    code: str
    name: str
    cartography_id: int
    context: list[ContextEntry]
    activities: list[FunctionActivity]
    discussion_id: int | None = Field(description="Its discussion (GET /discussion/{discussionId})")
    can: FunctionCan
