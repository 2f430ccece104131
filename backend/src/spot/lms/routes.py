"""The learning platform: the catalogue (spec 2 §7 Learning platform) and the cmi5 runtime a launched
unit talks to (docs/learning-platform.md). The runtime's routes are a protocol of their own (cmi5 and
xAPI), authenticated by the launch's tokens rather than the session: the course's pages call them, never
Spot's client, so they stay out of the OpenAPI document (docs/learning-platform.md describes them)."""

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from spot.core import files
from spot.core.auth import DB, CurrentUser, current_principal, require
from spot.core.errors import ApiError, ErrorBody
from spot.core.routing import api_router, work
from spot.core.schemas import Id, UserName
from spot.core.time import utcnow
from spot.jobs import runner
from spot.jobs import service as jobs_service
from spot.jobs.schemas import JobOut
from spot.lms import jobs, package, policy, runtime, service, statements
from spot.lms.schemas import (
    AttemptDetail,
    AttemptOut,
    CourseCard,
    ItemName,
    LaunchIn,
    LaunchOut,
    MyAttempt,
    QuizAttemptsQuery,
    TreeGroup,
)
from spot.resources import upload

router = api_router(tags=["lms"])

MAX_DOCUMENT_BYTES = 1_000_000


async def package_file(request: Request) -> AsyncIterator[Path | None]:
    """The course package, streamed to a file as it comes in (SPOT_COURSE_MAX_BYTES at most)."""
    async with upload.body_file(request, package.max_package_bytes()) as path:
        yield path


async def document_body(request: Request) -> bytes:
    return await files.bounded_body(request, MAX_DOCUMENT_BYTES)


TOO_LARGE: dict[int | str, dict[str, Any]] = {413: {"model": ErrorBody, "description": "Content Too Large"}}
ZIP_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
    }
}


# Catalogue ---------------------------------------------------------------------------------------


@router.get("/lms/courses")
async def courses(db: DB, user: CurrentUser) -> list[CourseCard]:
    """The courses of the platform, with their numbers of resources and quizzes, and what the reader may
    do with them (`can`)."""
    return service.courses(db, user)


@router.post(
    "/lms/courses",
    # Before the package is read: a refused user's upload is not stored.
    dependencies=[require(policy.COURSE_MANAGERS)],
    openapi_extra=ZIP_BODY,
    status_code=202,
    responses=TOO_LARGE,
)
@work
def import_course(db: DB, user: CurrentUser, path: Annotated[Path | None, Depends(package_file)]) -> JobOut:
    """Needs perm_TrainingManagement. Import a course package (a zip with cmi5.xml, or imsmanifest.xml), or
    update the course of the same id. The whole package is checked first: a bad one answers 400
    invalidCoursePackage at once, naming the faulty entry or element, one over SPOT_COURSE_MAX_BYTES 413
    fileTooBig. Then a job imports it, and the request answers at once with the job (202): GET /jobs/{id}
    tells when it ended, its summary the course ({id, title, created, items})."""
    if path is None:
        raise package.refuse("package", "notAZipFile")
    package.read(path)
    job = runner.enqueue(
        db,
        owner_id=user.id,
        kind=jobs.IMPORT,
        parameters={},
        language="fr",
        input=path,
        input_extension="zip",
    )
    return jobs_service.out(user, job)


@router.get("/lms/courses/{courseId}")
async def course(db: DB, user: CurrentUser, courseId: Id) -> TreeGroup:
    """A course as a tree: the course, its blocks (groups), resources and quizzes. 404 lmsElementNotFound
    for an unknown or removed course."""
    return service.tree(db, course_id=courseId)


@router.delete("/lms/courses/{courseId}", status_code=204, dependencies=[require(policy.COURSE_MANAGERS)])
async def remove_course(db: DB, user: CurrentUser, courseId: Id) -> None:
    """Needs perm_TrainingManagement. Remove a course from the catalogue (module elements pointing at it
    show lmsElementNotFound)."""
    service.remove(db, course_id=courseId, by=user)


@router.post("/lms/items/names")
async def item_names(
    db: DB, user: CurrentUser, ids: Annotated[list[Id], Body(max_length=1000)]
) -> list[ItemName]:
    """The items among these ids that the platform still has, with their course."""
    return service.item_names(db, ids=ids)


@router.post("/lms/items/{itemId}/launch")
async def launch(db: DB, user: CurrentUser, itemId: Id, body: LaunchIn | None = None) -> LaunchOut:
    """The cmi5 launch address of a resource or quiz for the signed-in learner, to open in a new tab
    (on SPOT_PUBLIC_URL); `mode` Browse or Review to open it without recording results."""
    return service.launch(db, user=user, item_id=itemId, mode=body.mode if body else None)


@router.get("/lms/statements")
async def statement_log(
    db: DB,
    user: CurrentUser,
    learnerId: Annotated[Id | None, Query()] = None,
    itemId: Annotated[Id | None, Query()] = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> statements.StatementLog:
    """The statements recorded for a learner and/or a unit, newest first, 50 a page: for training
    managers."""
    return statements.log(db, user=user, learner_id=learnerId, item_id=itemId, page=page)


@router.get("/lms/items/{itemId}/learners")
async def statement_learners(db: DB, user: CurrentUser, itemId: Id) -> list[UserName]:
    """The learners with statements in a unit (whom the statement log shows): for training managers."""
    return statements.learners(db, user=user, item_id=itemId)


@router.post("/lms/quiz-attempts")
async def quiz_attempts(db: DB, user: CurrentUser, query: QuizAttemptsQuery) -> list[AttemptOut]:
    """A learner's attempts at these quizzes, oldest first: for the learner themself, training managers
    and path administrators."""
    return service.quiz_attempts(db, user=user, learner_id=query.learner_id, quiz_ids=query.quiz_ids)


@router.get("/lms/attempts/mine")
async def my_attempts(db: DB, user: CurrentUser) -> list[MyAttempt]:
    """The signed-in user's attempts, newest first, with quiz and course names."""
    return service.my_attempts(db, user=user)


@router.get("/lms/attempts/{attemptId}")
async def attempt(db: DB, user: CurrentUser, attemptId: Id) -> AttemptDetail:
    """One attempt (the link of an attempt) with the statement it came from."""
    return service.attempt(db, user=user, attempt_id=attemptId)


# cmi5 runtime ------------------------------------------------------------------------------------

XAPI_HEADERS = {"X-Experience-API-Version": runtime.XAPI_VERSION, "Cache-Control": "no-store"}


def _json(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    # ASCII escapes, as statements are stored: one may carry a lone surrogate ("\ud800"), valid JSON but
    # not UTF-8.
    return Response(
        json.dumps(content),
        status_code=status,
        media_type="application/json",
        headers={**XAPI_HEADERS, **(headers or {})},
    )


@router.post("/lms/fetch/{token}", include_in_schema=False)
async def fetch(db: DB, token: str) -> Response:
    """cmi5 §8.2: the auth token, once."""
    return _json(runtime.fetch(db, token=token))


@router.get("/lms/xapi/about", include_in_schema=False)
@router.get("/lms/xapi//about", include_in_schema=False)
async def about() -> Response:
    """xAPI about: the version the runtime speaks."""
    return _json({"version": [runtime.XAPI_VERSION]})


def _launched(db: DB, request: Request) -> runtime.Launched:
    """The launch whose auth token the request carries (xAPI requests carry their version too)."""
    runtime.check_version(request.headers.get("x-experience-api-version"))
    return runtime.authenticate(db, authorization=request.headers.get("authorization"))


@router.put("/lms/xapi/statements", status_code=204, include_in_schema=False, responses=TOO_LARGE)
@router.put("/lms/xapi//statements", status_code=204, include_in_schema=False, responses=TOO_LARGE)
async def put_statement(
    db: DB,
    request: Request,
    data: Annotated[bytes, Depends(document_body)],
    statementId: Annotated[str, Query()],
) -> Response:
    """xAPI: store one statement under its id (headers Authorization: Basic <auth-token> and
    X-Experience-API-Version)."""
    launched = _launched(db, request)
    statement = runtime.parse_json(data, "statement")
    runtime.store_statements(db, launch=launched, statements=[statement], statement_id=statementId.lower())
    return Response(status_code=204, headers=XAPI_HEADERS)


@router.post("/lms/xapi/statements", include_in_schema=False, responses=TOO_LARGE)
@router.post("/lms/xapi//statements", include_in_schema=False, responses=TOO_LARGE)
async def post_statements(
    db: DB, request: Request, data: Annotated[bytes, Depends(document_body)]
) -> Response:
    """xAPI: store one statement or a list of them; answers their ids."""
    launched = _launched(db, request)
    body = runtime.parse_json(data, "statements")
    statements = body if isinstance(body, list) else [body]
    return _json(runtime.store_statements(db, launch=launched, statements=statements))


@router.get("/lms/xapi/statements", include_in_schema=False)
@router.get("/lms/xapi//statements", include_in_schema=False)
async def get_statements(db: DB, request: Request) -> Response:
    """xAPI: one of the learner's statements (statementId), or those matching the query's filters
    (registration, activity, agent, verb, since, until, limit, ascending), with `more` to page on. With
    a training manager's Spot token (`Authorization: Bearer`), every learner's."""
    params = dict(request.query_params)
    # xAPI §7.2.3: statements stored up to now are all in the answers (Spot stores them as it answers).
    consistent = {"X-Experience-API-Consistent-Through": utcnow().isoformat().replace("+00:00", "Z")}
    scheme, _, bearer = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and bearer.strip():
        runtime.check_version(request.headers.get("x-experience-api-version"))
        manager = await current_principal(request, bearer.strip())
        return _json(statements.read_as_manager(db, user=manager, params=params), headers=consistent)
    launched = _launched(db, request)
    if "voidedStatementId" in params:
        raise ApiError(404, "Spot voids no statement")
    if "statementId" in params:
        if set(params) - {"statementId", "format", "attachments"}:
            raise runtime.bad("statementId: no other filter goes with it")
        return _json(
            runtime.statement(db, launch=launched, statement_id=params["statementId"]), headers=consistent
        )
    return _json(statements.query(db, learner_id=launched.user_id, params=params), headers=consistent)


StateQuery = Annotated[str | None, Query()]


def _state_key(
    launched: runtime.Launched,
    activityId: str | None,
    agent: str | None,
    registration: str | None,
    stateId: str | None,
) -> runtime.StateKey:
    return runtime.state_key(
        launched, activity_id=activityId, agent=agent, registration=registration, state_id=stateId
    )


@router.get("/lms/xapi/activities/state", include_in_schema=False)
@router.get("/lms/xapi//activities/state", include_in_schema=False)
async def get_state(
    db: DB,
    request: Request,
    activityId: StateQuery = None,
    agent: StateQuery = None,
    registration: StateQuery = None,
    stateId: StateQuery = None,
) -> Response:
    """xAPI activity state: a document of the launch's activity, learner and registration (LMS.LaunchData
    among them), or the list of their state ids without stateId."""
    launched = _launched(db, request)
    key = _state_key(launched, activityId, agent, registration, stateId)
    content, media_type = runtime.get_state(db, launch=launched, key=key)
    return Response(content, media_type=media_type, headers=XAPI_HEADERS)


async def _write_state(request: Request, db: DB, data: bytes, *, merge: bool) -> Response:
    launched = _launched(db, request)
    q = request.query_params
    key = _state_key(launched, q.get("activityId"), q.get("agent"), q.get("registration"), q.get("stateId"))
    content_type = request.headers.get("content-type", "")
    runtime.put_state(db, launch=launched, key=key, content=data, content_type=content_type, merge=merge)
    return Response(status_code=204, headers=XAPI_HEADERS)


@router.put("/lms/xapi/activities/state", status_code=204, include_in_schema=False, responses=TOO_LARGE)
@router.put("/lms/xapi//activities/state", status_code=204, include_in_schema=False, responses=TOO_LARGE)
async def put_state(request: Request, db: DB, data: Annotated[bytes, Depends(document_body)]) -> Response:
    """xAPI activity state: store a document (same parameters as GET)."""
    return await _write_state(request, db, data, merge=False)


@router.post("/lms/xapi/activities/state", status_code=204, include_in_schema=False, responses=TOO_LARGE)
@router.post("/lms/xapi//activities/state", status_code=204, include_in_schema=False, responses=TOO_LARGE)
async def post_state(request: Request, db: DB, data: Annotated[bytes, Depends(document_body)]) -> Response:
    """xAPI activity state: merge a JSON object into the stored document."""
    return await _write_state(request, db, data, merge=True)


@router.delete("/lms/xapi/activities/state", status_code=204, include_in_schema=False)
@router.delete("/lms/xapi//activities/state", status_code=204, include_in_schema=False)
async def delete_state(
    db: DB,
    request: Request,
    activityId: StateQuery = None,
    agent: StateQuery = None,
    registration: StateQuery = None,
    stateId: StateQuery = None,
) -> Response:
    """xAPI activity state: delete a document, or all of the activity's but LMS.LaunchData."""
    launched = _launched(db, request)
    key = _state_key(launched, activityId, agent, registration, stateId)
    runtime.delete_state(db, launch=launched, key=key)
    return Response(status_code=204, headers=XAPI_HEADERS)


@router.get("/lms/xapi/agents/profile", include_in_schema=False)
@router.get("/lms/xapi//agents/profile", include_in_schema=False)
async def get_agent_profile(db: DB, request: Request) -> Response:
    """xAPI agent profile: Spot keeps no learner preferences (cmi5 §11), so the learner's
    cmi5LearnerPreferences is not found, and the unit uses its own defaults."""
    launched = _launched(db, request)
    raise runtime.agent_profile(launched, agent=request.query_params.get("agent"), write=False)


@router.put("/lms/xapi/agents/profile", include_in_schema=False)
@router.put("/lms/xapi//agents/profile", include_in_schema=False)
@router.post("/lms/xapi/agents/profile", include_in_schema=False)
@router.post("/lms/xapi//agents/profile", include_in_schema=False)
@router.delete("/lms/xapi/agents/profile", include_in_schema=False)
@router.delete("/lms/xapi//agents/profile", include_in_schema=False)
async def write_agent_profile(db: DB, request: Request) -> Response:
    """xAPI agent profile: the LMS ignores the unit's changes to learner preferences with 403, as
    cmi5 §11 allows."""
    launched = _launched(db, request)
    raise runtime.agent_profile(launched, agent=request.query_params.get("agent"), write=True)


@router.get("/lms/play/{key}/{path:path}", include_in_schema=False)
@work
def play(db: DB, key: str, path: str) -> Response:
    """A file of the launched unit's package (the unit opens in a tab of its own, which cannot send the
    session header: the launch's random key, valid while the launch lasts, is the credential). Served
    sandboxed (core.security_headers): the course's scripts cannot reach Spot's storage."""
    content, media_type = runtime.content(db, key=key, path=path)
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=300"}
    if isinstance(content, bytes):
        return Response(content, media_type=media_type, headers=headers)
    return StreamingResponse(content, media_type=media_type, headers=headers)
