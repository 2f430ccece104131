"""SCORM on the learning platform: the run-time a launched SCO's scorm-again talks to (authenticated by the
launch's key in the path, as its content is; called by the content, never by Spot's client, so out of the
OpenAPI document), and the learner's progress through a course, which the player's table of contents reads
(docs/learning-platform.md, "SCORM")."""

import json
from typing import Annotated, Any

from fastapi import Depends, Request, Response

from spot.core import files
from spot.core.auth import DB, CurrentUser
from spot.core.errors import ErrorBody
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.lms import runtime
from spot.lms.scorm import service
from spot.lms.scorm.schemas import CourseProgress

router = api_router(tags=["lms"])

# A commit carries the whole CMI: suspend data (64,000 characters), interactions, objectives.
MAX_COMMIT_BYTES = 2_000_000
HEADERS = {"Cache-Control": "no-store"}


async def commit_body(request: Request) -> bytes:
    return await files.bounded_body(request, MAX_COMMIT_BYTES)


def _json(content: Any) -> Response:
    return Response(json.dumps(content), media_type="application/json", headers=HEADERS)


@router.get("/lms/scorm/{key}/cmi", include_in_schema=False)
async def cmi(db: DB, key: str) -> Response:
    """The CMI the launched SCO starts from: `{"version": "1.2"|"2004", "cmi": {...}}` (a suspended
    attempt resumed, else a new one)."""
    return _json(service.cmi(db, key=key))


@router.post(
    "/lms/scorm/{key}/commit",
    include_in_schema=False,
    responses={413: {"model": ErrorBody, "description": "Content Too Large"}},
)
async def commit(db: DB, key: str, data: Annotated[bytes, Depends(commit_body)]) -> Response:
    """A commit of the launched SCO's attempt (scorm-again's `{"cmi": {...}}`, `terminate: true` from
    LMSFinish/Terminate), whatever its Content-Type (a beacon sends text/plain): `{"result": true,
    "errorCode": 0}`."""
    return _json(service.commit(db, key=key, body=runtime.parse_json(data, "commit")))


@router.get("/lms/courses/{courseId}/progress")
async def progress(db: DB, user: CurrentUser, courseId: Id) -> CourseProgress:
    """The signed-in learner's progress through the course's units (status, grade, whether a suspended
    attempt resumes) and the navigation each unit's block allows. 404 lmsElementNotFound for an unknown
    or removed course."""
    return service.progress(db, user=user, course_id=courseId)
