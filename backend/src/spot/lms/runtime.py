"""The cmi5 runtime (cmi5 §8–§10 over xAPI 1.0.3): the one-time fetch of the auth token, the statements
and activity state resources a launched unit talks to, and the unit's content, served under its
launch's key. Errors answer the uniform error body with a plain English message: the reader is the
course's author, not the learner."""

import base64
import json
import mimetypes
import re
import secrets
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from spot.core import files
from spot.core.errors import ApiError
from spot.core.time import utcnow
from spot.lms import models, package, satisfaction, service
from spot.lms.launched import Launched
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


def closed() -> ApiError:
    return ApiError(403, "This session has ended (terminated or abandoned): it records nothing more")


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
    if launch.closed_at is not None:
        raise closed()
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
        launch_mode=launch.launch_mode,
        course_id=course.id,
    )


# JSON ----------------------------------------------------------------------------------------------


def _refuse_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def parse_json(data: bytes, what: str) -> Any:
    try:
        return json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise bad(f"{what}: not valid JSON") from exc


def same_agent(agent: Any, user_id: int) -> bool:
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


def refuse(message: str) -> ApiError:
    """A statement cmi5 does not allow: 403, as the cmi5 test suite expects of an LMS rejecting it."""
    return ApiError(403, message)


_DEFINED_VERBS = {
    service.VERB + verb for verb in ("initialized", "completed", "passed", "failed", "terminated")
}
_DURATION_VERBS = {service.VERB + verb for verb in ("completed", "passed", "failed", "terminated")}
INITIALIZED, TERMINATED = service.VERB + "initialized", service.VERB + "terminated"
MASTERY_SCORE = service.CMI5_EXTENSION + "masteryscore"


def _check_timestamp(statement: dict[str, Any], where: str) -> None:
    """cmi5 §9.7: every statement has a timestamp, in UTC."""
    stamp = statement.get("timestamp")
    if stamp is None:
        raise refuse(f"{where}.timestamp: required (cmi5 §9.7)")
    if not isinstance(stamp, str):
        raise bad(f"{where}.timestamp: an ISO 8601 time stamp is expected")
    try:
        parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as exc:
        raise bad(f"{where}.timestamp: an ISO 8601 time stamp is expected") from exc
    if parsed.utcoffset() != timedelta(0):
        raise refuse(f"{where}.timestamp: in UTC (cmi5 §9.7)")


def check_statement(statement: Any, launch: Launched, where: str) -> tuple[str, bool]:
    """The statement's verb and whether it is a cmi5 defined one. Refused with 400 when it is not a
    valid xAPI statement, 403 when cmi5 does not allow it: not from the launch (actor, registration,
    session, publisher id), or a cmi5 defined statement breaking §9 (object, result, categories)."""
    if not isinstance(statement, dict):
        raise bad(f"{where}: a statement is a JSON object")
    if "id" not in statement:
        raise refuse(f"{where}.id: required (cmi5 §9.1)")
    if not isinstance(statement["id"], str) or not _UUID.match(statement["id"]):
        raise bad(f"{where}.id: a UUID is required")
    verb = statement.get("verb")
    if not isinstance(verb, dict) or not _is_iri(verb.get("id")):
        raise bad(f"{where}.verb.id: an IRI is required")
    verb_id: str = verb["id"]
    target = statement.get("object")
    if (
        not isinstance(target, dict)
        or target.get("objectType", "Activity") != "Activity"
        or not _is_iri(target.get("id"))
    ):
        raise bad(f"{where}.object: an activity with an IRI id is required")
    result = statement.get("result")
    if result is not None and not isinstance(result, dict):
        raise bad(f"{where}.result: an object is expected")
    _check_timestamp(statement, where)
    if not same_agent(statement.get("actor"), launch.user_id):
        raise refuse(f"{where}.actor: not the launched learner (the actor of the launch address is expected)")
    if verb_id in _LMS_VERBS:
        raise refuse(f"{where}.verb: {verb_id} is issued by the LMS only")
    context = statement.get("context")
    if not isinstance(context, dict):
        raise refuse(f"{where}.context: the context template of LMS.LaunchData is required")
    if context.get("registration") != launch.registration:
        raise refuse(f"{where}.context.registration: not the launched registration")
    extensions = context.get("extensions")
    if not isinstance(extensions, dict) or extensions.get(service.SESSION_ID) != launch.session_id:
        raise refuse(f"{where}.context.extensions: not the launched session")
    if launch.publisher_id not in _activities(context, "grouping"):
        raise refuse(f"{where}.context.contextActivities.grouping: the unit's publisher id is required")
    categories = _activities(context, "category")
    # The cmi5 category on a verb cmi5 does not define (early cmi5 libraries put it on every statement):
    # taken as an allowed statement, which cmi5's rules do not count, rather than refused.
    defined = service.CMI5_CATEGORY in categories and verb_id in _DEFINED_VERBS
    move_on = service.MOVE_ON_CATEGORY in categories
    if not defined:
        if move_on:
            raise refuse(
                f"{where}.context.contextActivities.category: moveon only in cmi5 defined statements"
            )
        return verb_id, False
    if target["id"] != launch.activity_id:
        raise refuse(f"{where}.object.id: a cmi5 defined statement is about the launched activityId")
    result = result or {}
    _check_defined_result(verb_id, result, launch, where)
    judged = "success" in result or "completion" in result
    if judged != move_on:
        raise refuse(
            f"{where}.context.contextActivities.category: moveon "
            + ("is required with success or completion" if judged else "only with success or completion")
        )
    # §9.6.3.2: passed and failed judged on the mastery score (those with a scaled score) carry it as
    # LMS.LaunchData gives it; a passed or failed without a score need not, but one it gives is that one.
    if verb_id in (PASSED, FAILED) and launch.mastery_score is not None:
        evaluated = _scaled(result, where) is not None
        if (evaluated or MASTERY_SCORE in extensions) and extensions.get(
            MASTERY_SCORE
        ) != launch.mastery_score:
            raise refuse(f"{where}.context.extensions: the masteryscore of LMS.LaunchData is required")
    return verb_id, True


def _scaled(result: dict[str, Any], where: str) -> float | None:
    score = result.get("score")
    if score is None:
        return None
    scaled = score.get("scaled") if isinstance(score, dict) else None
    if isinstance(score, dict) and scaled is None:
        return None
    if isinstance(scaled, bool) or not isinstance(scaled, int | float) or not 0 <= scaled <= 1:
        raise refuse(f"{where}.result.score.scaled: a number between 0 and 1 is expected")
    return float(scaled)


def _check_defined_result(verb_id: str, result: dict[str, Any], launch: Launched, where: str) -> None:
    """cmi5 §9.5: a score only in passed and failed, consistent with the mastery score (a raw score
    with its min and max); success true for passed, false for failed, absent otherwise; completion
    true for completed, absent otherwise; a duration in completed, passed, failed and terminated."""
    scaled = _scaled(result, where)
    if verb_id not in (PASSED, FAILED) and "score" in result:
        raise refuse(f"{where}.result.score: only passed and failed statements carry a score")
    score = result.get("score")
    if isinstance(score, dict) and "raw" in score and ("min" not in score or "max" not in score):
        raise refuse(f"{where}.result.score: a raw score comes with its min and max (cmi5 §9.5.1)")
    if verb_id in (PASSED, FAILED):
        if result.get("success") is not (verb_id == PASSED):
            raise refuse(f"{where}.result.success: {str(verb_id == PASSED).lower()} is required")
        if scaled is not None and launch.mastery_score is not None:
            if (verb_id == PASSED) != (scaled >= launch.mastery_score):
                raise refuse(
                    f"{where}.result.score.scaled: inconsistent with the masteryScore {launch.mastery_score}"
                )
    elif "success" in result:
        raise refuse(f"{where}.result.success: only passed and failed statements carry success")
    if verb_id == COMPLETED:
        if result.get("completion") is not True:
            raise refuse(f"{where}.result.completion: true is required")
    elif "completion" in result:
        raise refuse(f"{where}.result.completion: only completed statements carry completion")
    if verb_id in _DURATION_VERBS and not isinstance(result.get("duration"), str):
        raise refuse(f"{where}.result.duration: required in {verb_id.rsplit('/', 1)[-1]} (cmi5 §9.5.4.1)")


@dataclass
class _Session:
    """What the session and the registration hold already, for the ordering rules of cmi5 §9.3."""

    verbs: set[str]
    in_registration: set[str]

    @classmethod
    def load(cls, db: Session, launch: Launched) -> "_Session":
        verbs = set(
            db.scalars(
                select(LmsStatement.verb).where(
                    LmsStatement.launch_id == launch.launch_id, LmsStatement.defined.is_(True)
                )
            )
        )
        in_registration = set(
            db.scalars(
                select(LmsStatement.verb).where(
                    LmsStatement.user_id == launch.user_id,
                    LmsStatement.item_id == launch.item_id,
                    LmsStatement.registration == launch.registration,
                    LmsStatement.defined.is_(True),
                    LmsStatement.verb.in_((COMPLETED, PASSED)),
                )
            )
        )
        return cls(verbs=verbs, in_registration=in_registration)

    def admit(self, verb_id: str, defined: bool, launch: Launched, where: str) -> None:
        """Refuse (403) what cmi5 §9.3 and §10.2.2 forbid at this point, else count the statement."""
        if TERMINATED in self.verbs:
            raise closed()
        if INITIALIZED not in self.verbs and not (defined and verb_id == INITIALIZED):
            raise refuse(f"{where}: the session's first statement is initialized (cmi5 §9.3.2)")
        if not defined:
            return
        name = verb_id.rsplit("/", 1)[-1]
        if verb_id in self.verbs:
            raise refuse(f"{where}.verb: {name} was already sent in this session (cmi5 §9.3)")
        if verb_id in (PASSED, FAILED) and {PASSED, FAILED} & self.verbs:
            raise refuse(f"{where}.verb: one passed or failed statement per session (cmi5 §9.3)")
        if launch.launch_mode != "Normal" and verb_id in (COMPLETED, PASSED, FAILED):
            raise refuse(f"{where}.verb: no {name} statement in {launch.launch_mode} mode (cmi5 §10.2.2)")
        if verb_id in (COMPLETED, PASSED) and verb_id in self.in_registration:
            raise refuse(f"{where}.verb: {name} was already sent in this registration (cmi5 §9.3)")
        if verb_id == FAILED and PASSED in self.in_registration:
            raise refuse(f"{where}.verb: no failed statement after passed in a registration (cmi5 §9.3)")
        self.verbs.add(verb_id)
        if verb_id in (COMPLETED, PASSED):
            self.in_registration.add(verb_id)


def store_statements(
    db: Session, *, launch: Launched, statements: list[Any], statement_id: str | None = None
) -> list[str]:
    """Record statements as received, each idempotent by its id: the same id with the same content
    answers as stored, with another content 409. New statements are checked (check_statement) and
    must keep cmi5's order in the session and registration (§9.3): the whole request is refused when
    one is not. A passed or failed statement with a scaled score about a quiz becomes an attempt; a
    completed one marks the unit done; a terminated one closes the session."""
    if not statements or len(statements) > MAX_STATEMENTS:
        raise bad(f"statements: 1 to {MAX_STATEMENTS} statements are expected")
    checked = []
    for index, statement in enumerate(statements):
        where = "statement" if statement_id is not None else f"statements[{index}]"
        if isinstance(statement, dict):
            if statement_id is not None:
                if "id" in statement and statement["id"] != statement_id:
                    raise bad("statement.id: differs from the statementId parameter")
                statement = {**statement, "id": statement_id}
            if isinstance(statement.get("id"), str):
                statement = {**statement, "id": statement["id"].lower()}
        verb_id, defined = check_statement(statement, launch, where)
        checked.append((statement, verb_id, defined, where))
    ids = [statement["id"] for statement, _, _, _ in checked]
    if len(set(ids)) != len(ids):
        raise bad("statements: two statements have the same id")
    # The session's statements one request at a time: the launch's row is locked (written) first,
    # then what the session holds is read, on PostgreSQL as on SQLite.
    db.execute(
        update(LmsLaunch)
        .where(LmsLaunch.id == launch.launch_id)
        .values(fetch_used=True)
        .execution_options(synchronize_session=False)
    )
    if db.scalar(select(LmsLaunch.closed_at).where(LmsLaunch.id == launch.launch_id)) is not None:
        raise closed()
    stored = {
        row.statement_id: row.content
        for row in db.execute(
            select(LmsStatement.statement_id, LmsStatement.content).where(LmsStatement.statement_id.in_(ids))
        )
    }
    session = _Session.load(db, launch)
    fresh = []
    for statement, verb_id, defined, where in checked:
        if statement["id"] in stored:
            if json.loads(stored[statement["id"]]) != statement:
                raise ApiError(409, f"statement {statement['id']}: already stored with another content")
            continue
        session.admit(verb_id, defined, launch, where)
        fresh.append((statement, verb_id, defined))
    now = utcnow()
    insert = service.insert_for(db)
    for statement, verb_id, defined in fresh:
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
                defined=defined,
                object_id=str(statement["object"]["id"])[: models.IRI_LENGTH],
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
        if defined:
            _record_outcome(db, launch=launch, statement=statement, verb_id=verb_id, row_id=stored_id, at=now)
            # moveOn met: the unit, then its blocks and course, satisfied in this session (H2).
            satisfaction.after_statement(db, launch=launch, verb_id=verb_id, statement=statement, at=now)
        if defined and verb_id == TERMINATED:
            db.execute(
                update(LmsLaunch)
                .where(LmsLaunch.id == launch.launch_id)
                .values(closed_at=now)
                .execution_options(synchronize_session=False)
            )
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
    # xAPI: the LRS gives the time it stored the statement.
    stored.setdefault("stored", row.stored_at.isoformat().replace("+00:00", "Z"))
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
    if agent is None or not same_agent(parse_json(agent.encode(), "agent"), launch.user_id):
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


# Agent profile (cmi5 §11) --------------------------------------------------------------------------


def agent_profile(launch: Launched, *, agent: str | None, write: bool) -> ApiError:
    """What the agent profile answers: Spot keeps no learner preferences, so reading the learner's
    finds none (404) and writing is ignored with 403, as §11 allows; 400 without an agent (xAPI), 403
    for another agent than the launch's."""
    if agent is None:
        return bad("agent: required")
    if not same_agent(parse_json(agent.encode(), "agent"), launch.user_id):
        return ApiError(403, "agent: not the launched learner")
    if write:
        return ApiError(403, "Learner preferences are kept by the LMS (cmi5 §11)")
    return ApiError(404, "No learner preferences: the unit uses its own defaults")


# Content -------------------------------------------------------------------------------------------


def content(db: Session, *, key: str, path: str) -> tuple[bytes | Iterator[bytes], str]:
    """A file of the launched unit's package, while its launch lasts (404 otherwise: an unknown,
    expired or removed launch, or no such file): a page whole (Spot may add the SCORM runtime to it),
    anything else in pieces as it is read from the package (a video is never whole in memory)."""
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
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type in ("application/javascript", "application/json"):
        media_type += "; charset=utf-8"
    if not media_type.startswith("text/html"):
        streamed = package.member_chunks(files.get_file_store().open(row.content_key), path)
        if streamed is None:
            raise ApiError(404, "notFound")
        return streamed[1], media_type
    with files.get_file_store().open(row.content_key) as stored:
        data = package.member(zipfile.ZipFile(stored), path)
    if data is None:
        raise ApiError(404, "notFound")
    # A SCO without a frame above it gets the runtime in its head.
    return player.with_runtime(db, key=key, path=path, data=data), media_type
