from typing import Literal

from spot.core.schemas import CamelModel

Standard = Literal["cmi5", "scorm12", "scorm2004"]
UnitStatus = Literal["notAttempted", "incomplete", "completed", "passed", "failed"]


class UnitProgress(CamelModel):
    """A unit of the course as the signed-in learner left it (the player's table of contents)."""

    item_id: int
    # The item's identifier in the manifest (a SCORM 2004 navigation request `{target=ID}choice` names
    # it), the au's id for cmi5.
    identifier: str
    status: UnitStatus
    # The grade out of 10 of the learner's latest attempt with a score.
    grade: float | None
    # A SCORM attempt suspended: the next launch resumes it where the learner stopped.
    resumable: bool
    # False for a SCORM asset (launched, not tracked).
    tracked: bool
    # What the unit's block (or the course, at the top) allows: a unit picked in the table of contents
    # (choice), Previous and Next among the block's units (flow).
    choice: bool
    flow: bool


class CourseProgress(CamelModel):
    course_id: int
    standard: Standard
    units: list[UnitProgress]
