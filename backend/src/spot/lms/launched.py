"""A launch as the runtime's resources see it (lms.runtime authenticates it; lms.satisfaction reads it)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Launched:
    """A launch as the xAPI resources see it."""

    launch_id: int
    user_id: int
    item_id: int
    item_kind: str
    registration: str
    session_id: str
    activity_id: str
    publisher_id: str
    mastery_score: float | None
    launch_mode: str = "Normal"
    course_id: int = 0
