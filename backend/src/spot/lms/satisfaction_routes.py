"""Satisfaction of a course's units by a learner, and waivers (docs/learning-platform.md,
"Satisfaction"): the rules are in lms.satisfaction."""

from typing import Annotated

from fastapi import Query

from spot.core.auth import DB, CurrentUser
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.lms import satisfaction
from spot.lms.schemas import CourseSatisfaction, ItemSatisfaction, WaiveIn

router = api_router(tags=["lms"])


@router.get("/lms/courses/{courseId}/satisfaction")
async def course_satisfaction(
    db: DB, user: CurrentUser, courseId: Id, learnerId: Annotated[Id, Query()]
) -> CourseSatisfaction:
    """What the learner satisfied of the course (the course, its units and blocks), for the learner,
    training managers, path administrators and the learner's referents; `canWaive` for those who may
    waive a unit (perm_TrainingManagement)."""
    return satisfaction.course_satisfaction(db, user=user, course_id=courseId, learner_id=learnerId)


@router.post("/lms/items/{itemId}/waive")
async def waive(db: DB, user: CurrentUser, itemId: Id, data: WaiveIn) -> ItemSatisfaction:
    """Waive a unit for a learner (cmi5 §9.3.7, perm_TrainingManagement): Spot issues `waived` with the
    reason, the unit is satisfied and its blocks and course follow; 409 lmsUnitAlreadySatisfied."""
    return satisfaction.waive(db, user=user, item_id=itemId, learner_id=data.learner_id, reason=data.reason)
