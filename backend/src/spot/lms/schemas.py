from datetime import datetime
from typing import Literal, Union

from pydantic import Field

from spot.core.schemas import CamelModel, Id

ItemType = Literal["resource", "quiz"]


class ImportResult(CamelModel):
    id: int
    title: str
    created: bool
    items: int


class CourseCan(CamelModel):
    """What the reader may do with a course, as lms.policy decides it."""

    remove: bool = Field(description="May remove the course from the catalogue")
    waive: bool = Field(description="May waive one of its units for a learner (cmi5 §9.3.7)")
    read_statements: bool = Field(description="May read the statements its units sent (the statement log)")


class CourseCard(CamelModel):
    id: int
    title: str
    description: str
    resources: int
    quizzes: int
    imported_at: datetime
    # cmi5, scorm12 or scorm2004: a SCORM course opens in the player.
    standard: Literal["cmi5", "scorm12", "scorm2004"] = "cmi5"
    can: CourseCan


class TreeLeaf(CamelModel):
    """An assignable unit: a resource, or a quiz when it is assessed."""

    id: int
    type: ItemType
    name: str
    description: str
    mastery_score: float | None


class TreeGroup(CamelModel):
    """The course itself (its id is the course's) or one of its blocks."""

    id: int
    type: Literal["group"] = "group"
    name: str
    description: str
    children: list[Union["TreeGroup", TreeLeaf]]


class ItemName(CamelModel):
    id: int
    type: Literal["group", "resource", "quiz"]
    name: str
    course_id: int
    course_title: str


class LmsItemName(CamelModel):
    """A resource or quiz, as other areas show it (module elements)."""

    id: int
    type: ItemType
    name: str
    course_id: int
    course_title: str


class LaunchIn(CamelModel):
    """How to launch (cmi5 §10.2.2, SCORM's lesson mode): Browse to look around, Review to revisit,
    neither recording results; without it, Spot decides (a cmi5 unit the learner satisfied reopens in
    Review, else Normal)."""

    mode: Literal["Browse", "Review"] | None = None


class LaunchOut(CamelModel):
    url: str
    # The unit's standard: a cmi5 unit opens in a tab of its own, a SCORM one in the player.
    standard: Literal["cmi5", "scorm12", "scorm2004"] = "cmi5"
    # The unit's course (a SCORM unit's player is the course's).
    course_id: int


class QuizAttemptsQuery(CamelModel):
    learner_id: Id
    quiz_ids: list[Id] = Field(max_length=1000)


class AttemptOut(CamelModel):
    id: int
    quiz_id: int
    learner_id: int
    grade: float
    success: bool
    date: datetime
    link: str


class MyAttempt(CamelModel):
    id: int
    quiz_id: int
    quiz_name: str
    course_id: int
    course_title: str
    grade: float
    success: bool
    date: datetime


class AttemptDetail(AttemptOut):
    """An attempt with the learner's name and the statement it came from, as the unit sent it."""

    learner_name: str
    quiz_name: str
    course_id: int
    course_title: str
    statement: dict[str, object]


# H2 — satisfaction and waivers ---------------------------------------------------------------------

WaiveReason = Literal["Tested Out", "Equivalent AU", "Equivalent Outside Activity", "Administrative"]


class WaiveIn(CamelModel):
    learner_id: Id
    reason: WaiveReason = Field(description="cmi5 §9.5.5.2: why the unit is waived")


class ItemSatisfaction(CamelModel):
    """A unit or block the learner satisfied: how (moveOn, notApplicable, waived; units for a block)."""

    item_id: int
    method: Literal["moveOn", "notApplicable", "waived", "units"]
    satisfied_at: datetime
    reason: str | None


class CourseSatisfaction(CamelModel):
    """What a learner satisfied of a course: the course itself (when all its units are), its units and
    blocks (those satisfied only)."""

    course_id: int
    learner_id: int
    satisfied_at: datetime | None
    items: list[ItemSatisfaction]
    can_waive: bool
