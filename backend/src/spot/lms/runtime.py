"""The cmi5 runtime (cmi5 §8–§10 over xAPI 1.0.3): the one-time fetch of the auth token, the statements
and activity state resources a launched unit talks to, and the unit's content, served under its
launch's key. Errors answer the uniform error body with a plain English message: the reader is the
course's author, not the learner."""

import base64
import json
import mimetypes
import re
import secrets
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from spot.core import files
from spot.core.errors import ApiError
from spot.core.time import utcnow
from spot.lms import package, satisfaction, service
from spot.lms.models import (
    ItemKind,
    LmsAttempt,
    LmsCompletion,
    LmsCourse,
    LmsItem,
    LmsLaunch,
    LmsState,
    LmsStatement,
)
from spot.lms.scorm import player

XAPI_VERSION = "1.0.3"
MAX_STATEMENTS = 100
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_VERSION = re.compile(r"^1\.0(\.\d+)?$")
# Statements Spot issues itself, or that no unit may send (cmi5 §6.3: no voiding).
_LMS_VERBS = {
    service.VERB + "launched",
    "https://w3id.org/xapi/adl/verbs/abandoned",
    "https://w3id.org/xapi/adl/verbs/waived",
    "https://w3id.org/xapi/adl/verbs/satisfied",
    service.VERB + "voided",
}
PASSED, FAILED, COMPLETED = service.VERB + "passed", service.VERB + "failed", service.VERB + "completed"


def bad(message: str) -> ApiError:
    return ApiError(400, message)


def check_version(header: str | None) -> None:
    if not header or not _VERSION.match(header.strip()):
        raise bad("X-Experience-API-Version: 1.0.x expected")


# Fetch (cmi5 §8.2) ---------------------------------------------------------------------------------


def fetch(db: Session, *, token: str) -> dict[str, str]:
    """The auth token, once: a second call, an unknown or an expired fetch address answer the cmi5
    error object (status 200, as §8.2.1 requires)."""
    launch = db.scalars(
        select(LmsLaunch).where(LmsLaunch.fetch_token_hash == service.token_hash(token))
    ).first()
    if launch is None:
        return {"error-code": "2", "error-text": "Unknown fetch address."}
    if launch.fetch_used or launch.expires_at <= utcnow():
        return {
            "error-code": "1",
            "error-text": "The authorization token has already been returned or has expired.",
        }
    secret = secrets.token_urlsafe(32)
    auth_token = base64.b64encode(f"spot:{secret}".encode()).decode()
    # One statement that only a first call can match: of two calls at once, one gets the token.
    taken = db.execute(
        update(LmsLaunch)
        .where(LmsLaunch.id == launch.id, LmsLaunch.fetch_used.is_(False))
        .values(fetch_used=True, auth_token_hash=service.token_hash(auth_token))
        .execution_options(synchronize_session=False)
    )
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        return {"error-code": "1", "error-text": "The authorization token has already been returned."}
    return {"auth-token": auth_token}


# Who is calling ------------------------------------------------------------------------------------


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


def authenticate(db: Session, *, authorization: str | None) -> Launched:
    """The launch whose auth token the request carries (`Authorization: Basic <auth-token>`)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "basic" or not token.strip():
        raise ApiError(401, "An Authorization: Basic header with the launch's auth token is required")
    row = db.execute(
        select(LmsLaunch, LmsItem, LmsCourse)
        .join(LmsItem, LmsItem.id == LmsLaunch.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(LmsLaunch.auth_token_hash == service.token_hash(token.strip()))
    ).first()
    if row is None:
        raise ApiError(401, "Unknown auth token")
    launch, item, course = row.tuple()
    if launch.expires_at <= utcnow():
        raise ApiError(401, "The launch session has expired")
    if course.removed_at is not None or item.removed_at is not None:
        raise ApiError(401, "The course of this launch was removed from the learning platform")
    return Launched(
        launch_id=launch.id,
        user_id=launch.user_id,
        item_id=item.id,
        item_kind=item.kind,
        registration=launch.registration,
        session_id=launch.session_id,
        activity_id=service.launch_activity_id(course, item),
        publisher_id=item.activity_id,
        mastery_score=item.mastery_score,
    )


# JSON ----------------------------------------------------------------------------------------------


def _refuse_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def parse_json(data: bytes, what: str) -> Any:
    try:
        return json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise bad(f"{what}: not valid JSON") from exc


def _same_agent(agent: Any, user_id: int) -> bool:
    expected = service.actor(user_id)["account"]
    return (
        isinstance(agent, dict)
        and agent.get("objectType", "Agent") == "Agent"
        and isinstance(agent.get("account"), dict)
        and agent["account"].get("homePage") == expected["homePage"]  # type: ignore[index]
        and agent["account"].get("name") == expected["name"]  # type: ignore[index]
    )


# Statements (xAPI statements resource, cmi5 §9) ----------------------------------------------------


def _is_iri(value: Any) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= 2000
        and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", value) is not None
    )


def _activities(context: dict[str, Any], kind: str) -> list[str]:
    activities = context.get("contextActivities")
    listed = activities.get(kind) if isinstance(activities, dict) else None
    listed = [listed] if isinstance(listed, dict) else listed
    if not isinstance(listed, list):
        return []
    return [a["id"] for a in listed if isinstance(a, dict) and isinstance(a.get("id"), str)]


def check_statement(statement: Any, launch: Launched, where: str) -> tuple[str, str]:
    """The statement's verb and whether it is a cmi5 defined one; refused (400) when it is malformed or
    not from the launch: actor, registration, session and, for cmi5 defined statements, object."""
    if not isinstance(statement, dict):
        raise bad(f"{where}: a statement is a JSON object")
    if not _UUID.match(str(statement.get("id", ""))):
        raise bad(f"{where}.id: a UUID is required")
    if not _same_agent(statement.get("actor"), launch.user_id):
        raise bad(f"{where}.actor: not the launched learner (the actor of the launch address is expected)")
    verb = statement.get("verb")
    if not isinstance(verb, dict) or not _is_iri(verb.get("id")):
        raise bad(f"{where}.verb.id: an IRI is required")
    verb_id: str = verb["id"]
    if verb_id in _LMS_VERBS:
        raise ApiError(403, f"{where}.verb: {verb_id} is issued by the LMS only")
    target = statement.get("object")
    if (
        not isinstance(target, dict)
        or target.get("objectType", "Activity") != "Activity"
        or not _is_iri(target.get("id"))
    ):
        raise bad(f"{where}.object: an activity with an IRI id is required")
    context = statement.get("context")
    if not isinstance(context, dict):
        raise bad(f"{where}.context: the context template of LMS.LaunchData is required")
    if context.get("registration") != launch.registration:
        raise bad(f"{where}.context.registration: not the launched registration")
    extensions = context.get("extensions")
    if not isinstance(extensions, dict) or extensions.get(service.SESSION_ID) != launch.session_id:
        raise bad(f"{where}.context.extensions: not the launched session")
    if launch.publisher_id not in _activities(context, "grouping"):
        raise bad(f"{where}.context.contextActivities.grouping: the unit's publisher id is required")
    defined = service.CMI5_CATEGORY in _activities(context, "category")
    result = statement.get("result")
    if result is not None and not isinstance(result, dict):
        raise bad(f"{where}.result: an object is expected")
    if defined:
        if target["id"] != launch.activity_id:
            raise bad(f"{where}.object.id: a cmi5 defined statement is about the launched activityId")
        _check_defined_result(verb_id, result or {}, launch, where)
    return verb_id, "defined" if defined else "allowed"


def _scaled(result: dict[str, Any], where: str) -> float | None:
    score = result.get("score")
    if score is None:
        return None
    scaled = score.get("scaled") if isinstance(score, dict) else None
    if isinstance(score, dict) and scaled is None:
        return None
    if isinstance(scaled, bool) or not isinstance(scaled, int | float) or not 0 <= scaled <= 1:
        raise bad(f"{where}.result.score.scaled: a number between 0 and 1 is expected")
    return float(scaled)


def _check_defined_result(verb_id: str, result: dict[str, Any], launch: Launched, where: str) -> None:
    """cmi5 §9.5: a score only in passed and failed, consistent with the mastery score; success true
    for passed, false for failed; completion true for completed."""
    scaled = _scaled(result, where)
    if verb_id not in (PASSED, FAILED) and "score" in result:
        raise bad(f"{where}.result.score: only passed and failed statements carry a score")
    if verb_id in (PASSED, FAILED):
        if result.get("success") is not (verb_id == PASSED):
            raise bad(f"{where}.result.success: {str(verb_id == PASSED).lower()} is required")
        if scaled is not None and launch.mastery_score is not None:
            if (verb_id == PASSED) != (scaled >= launch.mastery_score):
                raise bad(
                    f"{where}.result.score.scaled: inconsistent with the masteryScore {launch.mastery_score}"
                )
    elif "success" in result:
        raise bad(f"{where}.result.success: only passed and failed statements carry success")
    if verb_id == COMPLETED and result.get("completion") is not True:
        raise bad(f"{where}.result.completion: true is required")


def store_statements(
    db: Session, *, launch: Launched, statements: list[Any], statement_id: str | None = None
) -> list[str]:
    """Record statements as received, each idempotent by its id: the same id with the same content
    answers as stored, with another content 409. A passed or failed statement with a scaled score
    about a quiz becomes an attempt; a completed one marks the unit done."""
    if not statements or len(statements) > MAX_STATEMENTS:
        raise bad(f"statements: 1 to {MAX_STATEMENTS} statements are expected")
    ids: list[str] = []
    checked = []
    for index, statement in enumerate(statements):
        where = "statement" if statement_id is not None else f"statements[{index}]"
        if isinstance(statement, dict):
            if statement_id is not None:
                if "id" in statement and statement["id"] != statement_id:
                    raise bad("statement.id: differs from the statementId parameter")
                statement = {**statement, "id": statement_id}
            elif "id" not in statement:
                statement = {**statement, "id": str(uuid.uuid4())}
            if isinstance(statement.get("id"), str):
                statement["id"] = statement["id"].lower()
        verb_id, category = check_statement(statement, launch, where)
        checked.append((statement, verb_id, category))
    if len({s["id"] for s, _, _ in checked}) != len(checked):
        raise bad("statements: two statements have the same id")
    now = utcnow()
    insert = service.insert_for(db)
    for statement, verb_id, category in checked:
        ids.append(statement["id"])
        # One statement that only the first writer of the id can match: the same statement sent twice
        # at once (a unit retrying) is stored once, and the other finds it, as when sent again later.
        stored_id = db.scalar(
            insert(LmsStatement)
            .values(
                statement_id=statement["id"],
                launch_id=launch.launch_id,
                user_id=launch.user_id,
                item_id=launch.item_id,
                registration=launch.registration,
                verb=verb_id,
                # ASCII escapes: a lone surrogate a statement may carry ("\ud800") is valid JSON, not UTF-8.
                content=json.dumps(statement),
                stored_at=now,
            )
            .on_conflict_do_nothing(index_elements=[LmsStatement.statement_id])
            .returning(LmsStatement.id)
        )
        if stored_id is None:
            existing = db.scalar(
                select(LmsStatement.content).where(LmsStatement.statement_id == statement["id"])
            )
            if existing is None or json.loads(existing) != statement:
                raise ApiError(409, f"statement {statement['id']}: already stored with another content")
            continue
        if category == "defined":
            _record_outcome(db, launch=launch, statement=statement, verb_id=verb_id, row_id=stored_id, at=now)
            # moveOn met: the unit, then its blocks and course, satisfied in this session (H2).
            satisfaction.after_statement(db, launch=launch, verb_id=verb_id, statement=statement, at=now)
    return ids


# What other areas count of a learner's results (the training paths whose modules hold the unit).
ResultListener = Callable[[Session, int, int], None]
_RESULT_LISTENERS: list[ResultListener] = []


def on_result(listener: ResultListener) -> None:
    """`listener(db, learner_id, item_id)` runs in the transaction that recorded a new attempt or
    completion of the unit (training.paths.elements registers how a path counts it)."""
    _RESULT_LISTENERS.append(listener)


def _record_outcome(
    db: Session, *, launch: Launched, statement: dict[str, Any], verb_id: str, row_id: int, at: datetime
) -> None:
    """An attempt or a completion, and the training paths it counts for brought up to date in the
    same transaction: lists, dashboards and reports show it at once."""
    recorded = False
    if verb_id in (PASSED, FAILED) and launch.item_kind == ItemKind.quiz.value:
        scaled = _scaled(statement.get("result") or {}, "statement")
        if scaled is not None:
            db.execute(
                insert(LmsAttempt).values(
                    user_id=launch.user_id,
                    item_id=launch.item_id,
                    statement_id=row_id,
                    registration=launch.registration,
                    grade=service.grade_of(scaled),
                    success=verb_id == PASSED,
                    at=at,
                )
            )
            recorded = True
    if verb_id == COMPLETED:
        # The first completed statement counts; of two at once, the second finds the unit done.
        first = db.execute(
            service.insert_for(db)(LmsCompletion)
            .values(user_id=launch.user_id, item_id=launch.item_id, statement_id=row_id, completed_at=at)
            .on_conflict_do_nothing(index_elements=[LmsCompletion.user_id, LmsCompletion.item_id])
        )
        recorded = recorded or first.rowcount == 1  # type: ignore[attr-defined]
    if recorded:
        for listener in _RESULT_LISTENERS:
            listener(db, launch.user_id, launch.item_id)


def statement(db: Session, *, launch: Launched, statement_id: str) -> dict[str, Any]:
    row = db.scalars(
        select(LmsStatement).where(
            LmsStatement.statement_id == statement_id.lower(), LmsStatement.user_id == launch.user_id
        )
    ).first()
    if row is None:
        raise ApiError(404, f"statement {statement_id}: not found")
    stored: dict[str, Any] = json.loads(row.content)
    return stored


# Activity state (xAPI document resource; LMS.LaunchData, cmi5 §10) ---------------------------------


@dataclass(frozen=True)
class StateKey:
    activity_id: str
    registration: str
    state_id: str | None


def state_key(
    launch: Launched,
    *,
    activity_id: str | None,
    agent: str | None,
    registration: str | None,
    state_id: str | None,
) -> StateKey:
    """The document's address, which must be the launch's: its activity, learner and registration."""
    if activity_id != launch.activity_id:
        raise bad("activityId: not the launched activityId")
    if agent is None or not _same_agent(parse_json(agent.encode(), "agent"), launch.user_id):
        raise bad("agent: not the launched learner")
    if registration is not None and registration.lower() != launch.registration:
        raise bad("registration: not the launched registration")
    if state_id is not None and not 0 < len(state_id) <= 500:
        raise bad("stateId: 1 to 500 characters")
    return StateKey(activity_id=activity_id, registration=(registration or "").lower(), state_id=state_id)


def _states(launch: Launched, key: StateKey) -> Any:
    query = select(LmsState).where(
        LmsState.user_id == launch.user_id,
        LmsState.activity_id == key.activity_id,
        LmsState.registration == key.registration,
    )
    return query.where(LmsState.state_id == key.state_id) if key.state_id is not None else query


def get_state(db: Session, *, launch: Launched, key: StateKey) -> tuple[bytes, str]:
    """A document (its content and type), or the list of the state ids when no stateId is given."""
    if key.state_id is None:
        names = sorted(state.state_id for state in db.scalars(_states(launch, key)))
        return json.dumps(names).encode(), "application/json"
    state = db.scalars(_states(launch, key)).first()
    if state is None:
        raise ApiError(404, f"state {key.state_id}: not found")
    return state.content, state.content_type


def _writable(key: StateKey) -> str:
    if key.state_id is None:
        raise bad("stateId: required")
    if key.state_id == service.LAUNCH_DATA:
        raise ApiError(403, "LMS.LaunchData is written by the LMS only (cmi5 §10)")
    return key.state_id


def put_state(
    db: Session, *, launch: Launched, key: StateKey, content: bytes, content_type: str, merge: bool
) -> None:
    """Store a document; POST merges a JSON object into the stored one (xAPI document merging)."""
    state_id = _writable(key)
    state = db.scalars(_states(launch, key)).first()
    media_type = (content_type or "application/octet-stream").split(";")[0].strip().lower()[:255]
    if merge:
        incoming = parse_json(content, "document")
        if not isinstance(incoming, dict) or media_type != "application/json":
            raise bad("document: POST merges a JSON object (Content-Type: application/json)")
        if state is not None:
            stored = (
                parse_json(state.content, "stored document")
                if state.content_type == "application/json"
                else None
            )
            if not isinstance(stored, dict):
                raise bad("document: the stored document is not a JSON object")
            content = json.dumps({**stored, **incoming}).encode()
    if state is None:
        state = LmsState(
            user_id=launch.user_id,
            activity_id=key.activity_id,
            registration=key.registration,
            state_id=state_id,
        )
        db.add(state)
    state.content = content
    state.content_type = media_type
    state.updated_at = utcnow()


def delete_state(db: Session, *, launch: Launched, key: StateKey) -> None:
    """Delete a document, or every document of the activity but LMS.LaunchData when no stateId is given."""
    query = delete(LmsState).where(
        LmsState.user_id == launch.user_id,
        LmsState.activity_id == key.activity_id,
        LmsState.registration == key.registration,
        LmsState.state_id != service.LAUNCH_DATA,
    )
    if key.state_id is not None:
        query = query.where(LmsState.state_id == _writable(key))
    db.execute(query)


# Content -------------------------------------------------------------------------------------------


def content(db: Session, *, key: str, path: str) -> tuple[bytes, str]:
    """A file of the launched unit's package, while its launch lasts (404 otherwise: an unknown,
    expired or removed launch, or no such file)."""
    row = db.execute(
        select(LmsLaunch.expires_at, LmsCourse.content_key, LmsCourse.removed_at)
        .join(LmsItem, LmsItem.id == LmsLaunch.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(LmsLaunch.key == key)
    ).first()
    if row is None or row.expires_at <= utcnow() or row.removed_at is not None:
        raise ApiError(404, "notFound")
    if not path:  # the launch's root: the frame around a SCO, which holds its SCORM runtime
        return player.frame_page(db, key=key)
    if not package.safe_name(path):
        raise ApiError(404, "notFound")
    with files.get_file_store().open(row.content_key) as stored:
        data = package.member(zipfile.ZipFile(stored), path)
    if data is None:
        raise ApiError(404, "notFound")
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type in ("application/javascript", "application/json"):
        media_type += "; charset=utf-8"
    if media_type.startswith("text/html"):  # a SCO without a frame above it gets the runtime in its head
        data = player.with_runtime(db, key=key, path=path, data=data)
    return data, media_type
