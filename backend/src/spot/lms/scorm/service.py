"""The SCORM run-time on the learning platform (docs/learning-platform.md, "SCORM"): launching a SCORM unit,
the CMI a SCO starts from, its commits stored per learner, unit and attempt, what they give Spot (a quiz
attempt, a completion, a satisfied unit) and the learner's progress through a course.

The SCO talks to scorm-again in its own document (the player, lms-runtime), which loads the CMI from
`GET /lms/scorm/{key}/cmi` and posts its commits to `POST /lms/scorm/{key}/commit`: the launch's random key
in the path is the credential, as for the content under `/lms/play/{key}/`. Spot checks what it reads of
a commit (statuses, scores, times, sizes) and keeps the whole CMI as the SCO left it."""

import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.errors import ApiError, not_found
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.lms import runtime, satisfaction
from spot.lms import service as lms
from spot.lms.models import (
    ItemKind,
    LaunchMode,
    LmsAttempt,
    LmsCompletion,
    LmsCourse,
    LmsItem,
    LmsLaunch,
    LmsStatement,
)
from spot.lms.schemas import LaunchOut
from spot.lms.scorm import datamodel, player
from spot.lms.scorm.manifest import SCORM12, SCORM2004
from spot.lms.scorm.models import ScormAttempt, ScormCourse, ScormItem
from spot.lms.scorm.schemas import CourseProgress, UnitProgress
from spot.users.models import User

# The extension naming the SCORM attempt in Spot's statement of its result: an IRI of this Spot.
SCORM_ATTEMPT = "/xapi/extensions/scorm-attempt"
# What a resumed attempt gets back of its last commit (the rest is the LMS's to give, or of the session).
_KEPT_12 = ("suspend_data", "objectives", "interactions", "student_preference", "comments")
_KEPT_12_CORE = ("lesson_location", "lesson_status", "score")
_KEPT_2004 = (
    "location",
    "suspend_data",
    "completion_status",
    "success_status",
    "score",
    "progress_measure",
    "interactions",
    "objectives",
    "comments_from_learner",
    "learner_preference",
)


# Launch --------------------------------------------------------------------------------------------


def content_url(key: str, url: str) -> str:
    """The absolute address of a unit's file under its launch's key (an external asset stays where it is)."""
    parts = urlsplit(url)
    if parts.scheme:
        return url
    base = get_settings().public_url.rstrip("/")
    path = f"{base}{API_PREFIX}/lms/play/{key}/{quote(unquote(parts.path))}"
    return urlunsplit((*urlsplit(path)[:3], parts.query, parts.fragment))


def launch(
    db: Session, *, user: Principal, item: LmsItem, course: LmsCourse, mode: str | None = None
) -> LaunchOut:
    """A launch of a SCORM unit: its key opens the content and, for a SCO, its run-time data. An asset is
    launched untracked: the launch itself completes it. `mode` Browse or Review opens it recording
    nothing (the SCO's lesson mode, with no credit); otherwise it is Normal."""
    registration = lms._registration(db, user_id=user.id, course_id=course.id)
    launch_mode = mode if mode in (LaunchMode.browse, LaunchMode.review) else LaunchMode.normal
    now = utcnow()
    started = LmsLaunch(
        key=secrets.token_urlsafe(32),
        user_id=user.id,
        item_id=item.id,
        registration=registration,
        session_id=str(uuid.uuid4()),
        # No cmi5 fetch: a token nobody holds, already spent.
        fetch_token_hash=lms.token_hash(secrets.token_urlsafe(32)),
        fetch_used=True,
        created_at=now,
        expires_at=now + lms.LAUNCH_LIFETIME,
        launch_mode=launch_mode,
    )
    db.add(started)
    db.flush()
    details = db.get(ScormItem, item.id)
    asset = details is not None and details.scorm_type == "asset"
    if launch_mode != LaunchMode.normal or (asset and _completed(db, launch=started, item=item, at=now)):
        # Opened in Browse or Review (a training path counts it as opened), or an asset completed.
        _tell(db, user_id=user.id, item_id=item.id)
    # A SCO opens where its runtime is (player.launch_url: the frame page on the content origin, or the
    # SCO itself); an asset, untracked, as it is.
    url = (
        content_url(started.key, item.url) if asset else player.launch_url(key=started.key, item_url=item.url)
    )
    return LaunchOut(url=url, standard=course.standard, course_id=course.id)  # type: ignore[arg-type]


# The launch behind a key -----------------------------------------------------------------------------


@dataclass
class _Launched:
    launch: LmsLaunch
    item: LmsItem
    course: LmsCourse
    details: ScormItem


def _launched(db: Session, key: str) -> _Launched:
    """The SCO launch of this key (404 for an unknown or expired key, a removed course, an asset)."""
    row = db.execute(
        select(LmsLaunch, LmsItem, LmsCourse, ScormItem)
        .join(LmsItem, LmsItem.id == LmsLaunch.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .join(ScormItem, ScormItem.item_id == LmsItem.id)
        .where(LmsLaunch.key == key)
    ).first()
    if row is None:
        raise ApiError(404, "notFound")
    launch, item, course, details = row.tuple()
    if (
        launch.expires_at <= utcnow()
        or course.removed_at is not None
        or item.removed_at is not None
        or details.scorm_type != "sco"
    ):
        raise ApiError(404, "notFound")
    return _Launched(launch=launch, item=item, course=course, details=details)


def _resumable(attempt: ScormAttempt, standard: str) -> bool:
    """Suspended (exit suspend), or a SCORM 1.2 lesson left incomplete: the next launch resumes it."""
    if attempt.ended:
        return False
    return attempt.exit == "suspend" or (standard == SCORM12 and attempt.lesson_status == "incomplete")


def _latest(db: Session, *, user_id: int, item_id: int) -> ScormAttempt | None:
    return db.scalars(
        select(ScormAttempt)
        .where(ScormAttempt.user_id == user_id, ScormAttempt.item_id == item_id)
        .order_by(ScormAttempt.number.desc())
        .limit(1)
    ).first()


# CMI -------------------------------------------------------------------------------------------------


def cmi(db: Session, *, key: str) -> dict[str, Any]:
    """The CMI the SCO starts from, `{"version": "1.2"|"2004", "cmi": {...}}`: the launch's attempt; at a
    launch's first load, the learner's last attempt when it is suspended (entry resume), else a new
    attempt (entry ab-initio). A launch whose attempt was terminated answers 403. A Browse or Review
    launch binds no attempt: it starts blank (Browse) or from the learner's last attempt (Review)."""
    found = _launched(db, key)
    launch, item = found.launch, found.item
    if launch.launch_mode != LaunchMode.normal:
        attempt = _unrecorded(db, launch=launch, item=item)
    else:
        attempt = _recorded(db, launch=launch, item=item, standard=found.course.standard)
    name = db.scalar(select(User.display_name).where(User.id == launch.user_id)) or ""
    if found.course.standard == SCORM12:
        return {"version": "1.2", "cmi": _cmi_12(attempt, found, name)}
    return {"version": "2004", "cmi": _cmi_2004(attempt, found, name)}


def _unrecorded(db: Session, *, launch: LmsLaunch, item: LmsItem) -> ScormAttempt:
    """What a Browse or Review launch shows, never stored: in Review, the learner's last attempt as it
    stands; in Browse, a blank one."""
    latest = _latest(db, user_id=launch.user_id, item_id=item.id)
    shown = ScormAttempt(
        user_id=launch.user_id,
        entry="",
        cmi="{}",
        total_seconds=0,
    )
    if launch.launch_mode == LaunchMode.review and latest is not None:
        shown.cmi, shown.total_seconds = latest.cmi, latest.total_seconds
    return shown


def _recorded(db: Session, *, launch: LmsLaunch, item: LmsItem, standard: str) -> ScormAttempt:
    attempt = db.scalars(select(ScormAttempt).where(ScormAttempt.launch_id == launch.id)).first()
    if attempt is not None and attempt.terminated_at is not None:
        raise ApiError(403, "This launch's attempt is finished: launch the unit again")
    if attempt is None:
        return _bind(db, launch=launch, item=item, standard=standard)
    if attempt.commits:
        # The SCO loaded again within its launch (its page reloaded): it goes on from its last commit, in
        # a session of its own.
        attempt.earlier_seconds, attempt.session_seconds = attempt.total_seconds, 0
    return attempt


def _bind(db: Session, *, launch: LmsLaunch, item: LmsItem, standard: str) -> ScormAttempt:
    """The attempt a launch's first load binds: the learner's last one when suspended (resumed), else a
    new one. Of two launches starting a new attempt at once, the second to insert its number finds it
    taken and starts the next one."""
    for _ in range(5):
        now = utcnow()
        latest = _latest(db, user_id=launch.user_id, item_id=item.id)
        if latest is not None and latest.launch_id == launch.id:
            # The same launch loading twice at once: the other load bound it already.
            return latest
        if latest is not None and _resumable(latest, standard):
            latest.launch_id = launch.id
            latest.terminated_at = None
            latest.entry = "resume"
            latest.earlier_seconds = latest.total_seconds
            latest.session_seconds = 0
            latest.updated_at = now
            db.flush()
            return latest
        number = (latest.number + 1) if latest is not None else 1
        inserted = db.execute(
            lms.insert_for(db)(ScormAttempt)
            .values(
                user_id=launch.user_id,
                item_id=item.id,
                number=number,
                launch_id=launch.id,
                started_at=now,
                updated_at=now,
                ended=False,
                commits=0,
                entry="ab-initio",
                exit="",
                completion_status="not attempted",
                success_status="unknown",
                location="",
                suspend_data="",
                session_seconds=0,
                total_seconds=0,
                earlier_seconds=0,
                interactions="{}",
                cmi="{}",
            )
            .on_conflict_do_nothing(index_elements=["user_id", "item_id", "number"])
            .returning(ScormAttempt.id)
        ).scalar()
        if inserted is not None:
            if latest is not None:
                latest.ended = True
            attempt = db.get(ScormAttempt, inserted)
            assert attempt is not None
            return attempt
        db.expire_all()
    raise ApiError(409, "Attempts of this unit are being started at once: load again")


def _stored(attempt: ScormAttempt) -> dict[str, Any]:
    """The attempt's last commit ({} for a new attempt)."""
    stored = json.loads(attempt.cmi)
    return stored if isinstance(stored, dict) else {}


def _number_text(value: float) -> str:
    return f"{value:.7f}".rstrip("0").rstrip(".")


def _credit(launch: LmsLaunch) -> str:
    """A Normal launch is for credit; Browse and Review are not (SCORM 1.2 RTE 3.4.4, 2004 RTE 4.2.6)."""
    return "credit" if launch.launch_mode == LaunchMode.normal else "no-credit"


def _cmi_12(attempt: ScormAttempt, found: _Launched, name: str) -> dict[str, Any]:
    stored = _stored(attempt)
    core_value = stored.get("core")
    core_stored: dict[str, Any] = core_value if isinstance(core_value, dict) else {}
    document: dict[str, Any] = {key: stored[key] for key in _KEPT_12 if key in stored}
    core: dict[str, Any] = {key: core_stored[key] for key in _KEPT_12_CORE if key in core_stored}
    core |= {
        "student_id": str(attempt.user_id),
        "student_name": name,
        "entry": attempt.entry,
        "credit": _credit(found.launch),
        "lesson_mode": found.launch.launch_mode.lower(),
        "total_time": datamodel.format_timespan_12(attempt.total_seconds),
    }
    document["core"] = core
    document["launch_data"] = found.item.launch_parameters or ""
    mastery = found.item.mastery_score
    document["student_data"] = {
        "mastery_score": _number_text(mastery * 100) if mastery is not None else "",
        "max_time_allowed": found.details.max_time_allowed or "",
        "time_limit_action": found.details.time_limit_action or "",
    }
    return document


def _cmi_2004(attempt: ScormAttempt, found: _Launched, name: str) -> dict[str, Any]:
    stored = _stored(attempt)
    document: dict[str, Any] = {key: stored[key] for key in _KEPT_2004 if key in stored}
    document |= {
        "learner_id": str(attempt.user_id),
        "learner_name": name,
        "entry": attempt.entry,
        "credit": _credit(found.launch),
        "mode": found.launch.launch_mode.lower(),
        "launch_data": found.item.launch_parameters or "",
        "total_time": datamodel.format_interval_2004(attempt.total_seconds),
    }
    if found.item.mastery_score is not None:
        document["scaled_passing_score"] = _number_text(found.item.mastery_score)
    if found.details.completion_threshold is not None:
        document["completion_threshold"] = _number_text(found.details.completion_threshold)
    if found.details.max_time_allowed:
        document["max_time_allowed"] = found.details.max_time_allowed
    if found.details.time_limit_action:
        document["time_limit_action"] = found.details.time_limit_action
    return document


def commit(db: Session, *, key: str, body: Any) -> dict[str, Any]:
    """Store a commit of the launch's attempt (scorm-again's commit object: `{"cmi": {...}}`, with
    `terminate: true` from LMSFinish/Terminate) and what it gives Spot. 403 once the launch's attempt
    was terminated, 409 before the launch loaded its CMI."""
    found = _launched(db, key)
    if not isinstance(body, dict):
        raise datamodel.refuse("commit: a JSON object is expected")
    terminate = body.get("terminate", False)
    if not isinstance(terminate, bool):
        raise datamodel.refuse("terminate: true or false is expected")
    cmi_data = body.get("cmi")
    if not isinstance(cmi_data, dict):
        raise datamodel.refuse("cmi: an object is expected")
    if found.launch.launch_mode != LaunchMode.normal:
        # Browse and Review record nothing: the commit is read (a malformed one is still refused), not kept.
        (datamodel.read_12 if found.course.standard == SCORM12 else datamodel.read_2004)(cmi_data)
        return {"result": True, "errorCode": 0}
    # The attempt's row written first: of two commits at once (an autocommit and the terminate beacon),
    # the second waits for the first (its row lock on PostgreSQL, the database's on SQLite), then reads
    # what it stored (its quiz attempt among it).
    db.execute(
        update(ScormAttempt)
        .where(ScormAttempt.launch_id == found.launch.id)
        .values(updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    attempt = db.scalars(
        select(ScormAttempt)
        .where(ScormAttempt.launch_id == found.launch.id)
        .execution_options(populate_existing=True)
    ).first()
    if attempt is None:
        raise ApiError(409, "No attempt was loaded by this launch: GET its cmi first")
    if attempt.terminated_at is not None:
        raise ApiError(403, "This launch's attempt is finished: launch the unit again")
    read = datamodel.read_12(cmi_data) if found.course.standard == SCORM12 else datamodel.read_2004(cmi_data)
    now = utcnow()
    _apply(attempt, read, found, terminate=terminate)
    attempt.cmi = json.dumps(cmi_data)
    attempt.commits += 1
    attempt.updated_at = now
    if terminate:
        attempt.terminated_at = now
    db.flush()
    _outcome(db, attempt=attempt, found=found, at=now)
    return {"result": True, "errorCode": 0}


def _apply(attempt: ScormAttempt, read: datamodel.Read, found: _Launched, *, terminate: bool) -> None:
    """What Spot reads of the commit, with the evaluations the LMS owns: SCORM 2004 success against the
    scaled passing score and completion against the completion threshold (RTE 4.2.4, 4.2.22); a 1.2
    lesson completed with a score against the mastery score (RTE 3.4.4); a SCO ending its attempt
    (terminated, not suspended) without reporting its completion is completed (2004 SN
    completionSetByContent false, its default; 1.2 a lesson status left unset)."""
    mastery = found.item.mastery_score
    attempt.exit = read.exit
    attempt.location = read.location
    attempt.suspend_data = read.suspend_data
    attempt.score_raw, attempt.score_min, attempt.score_max = read.raw, read.low, read.high
    attempt.score_scaled = read.scaled
    attempt.interactions = json.dumps(read.interactions)
    if read.session_seconds is not None:
        attempt.session_seconds = read.session_seconds
    attempt.total_seconds = attempt.earlier_seconds + attempt.session_seconds
    completion, success = read.completion, read.success
    if found.course.standard == SCORM12:
        attempt.lesson_status = read.lesson_status or attempt.lesson_status
        if mastery is not None and read.raw is not None and read.lesson_status == "completed":
            success = "passed" if read.raw >= mastery * 100 else "failed"
            attempt.lesson_status = success
    else:
        if mastery is not None and read.scaled is not None:
            success = "passed" if read.scaled >= mastery else "failed"
        threshold = found.details.completion_threshold
        if threshold is not None and read.progress_measure is not None:
            completion = "completed" if read.progress_measure >= threshold else "incomplete"
    unreported = (completion or attempt.completion_status) in ("unknown", "not attempted")
    if terminate and read.exit != "suspend" and unreported and not found.details.completion_set_by_content:
        completion = "completed"
        if found.course.standard == SCORM12:
            attempt.lesson_status = "completed"
    if completion is not None:
        attempt.completion_status = completion
    if success is not None:
        attempt.success_status = success


# Outcomes --------------------------------------------------------------------------------------------


def grade(attempt: ScormAttempt) -> float | None:
    """The attempt's score as a grade out of 10 (one decimal, service.grade_of): the scaled score, else
    the raw score within min and max (0 and 100 when not given)."""
    if attempt.score_scaled is not None:
        scaled = attempt.score_scaled
    elif attempt.score_raw is not None:
        low = attempt.score_min if attempt.score_min is not None else 0.0
        high = attempt.score_max if attempt.score_max is not None else 100.0
        if high <= low:
            return None
        scaled = (attempt.score_raw - low) / (high - low)
    else:
        return None
    return lms.grade_of(round(min(1.0, max(0.0, scaled)), 6))


def _statement(
    db: Session, *, found: _Launched, attempt: ScormAttempt, verb: str, at: datetime, result: dict[str, Any]
) -> LmsStatement:
    """Spot's record of a SCORM result in xAPI's form (the attempt's statement, which an attempt's page
    shows): issued by the LMS about the unit's launch activity."""
    statement = {
        "id": str(uuid.uuid4()),
        "actor": lms.actor(attempt.user_id),
        "verb": {"id": lms.VERB + verb, "display": {"en-US": verb}},
        "object": {
            "objectType": "Activity",
            "id": lms.launch_activity_id(found.course, found.item),
            "definition": {"name": {"und": found.item.name}},
        },
        "result": result,
        "context": {
            "registration": found.launch.registration,
            "extensions": {get_settings().public_url.rstrip("/") + SCORM_ATTEMPT: attempt.number},
        },
        "timestamp": at.isoformat().replace("+00:00", "Z"),
    }
    row = LmsStatement(
        statement_id=statement["id"],
        launch_id=found.launch.id,
        user_id=attempt.user_id,
        item_id=found.item.id,
        registration=found.launch.registration,
        verb=lms.VERB + verb,
        content=json.dumps(statement),
        stored_at=at,
    )
    db.add(row)
    db.flush()
    return row


def _result(attempt: ScormAttempt, success: bool) -> dict[str, Any]:
    score = {
        name: value
        for name, value in (
            ("scaled", attempt.score_scaled),
            ("raw", attempt.score_raw),
            ("min", attempt.score_min),
            ("max", attempt.score_max),
        )
        if value is not None
    }
    return {
        "score": score,
        "success": success,
        "completion": attempt.completion_status == "completed",
        "duration": datamodel.format_interval_2004(attempt.total_seconds),
    }


def _quiz_attempt(
    db: Session, *, attempt: ScormAttempt, found: _Launched, graded: float, at: datetime
) -> bool:
    """The SCORM attempt's quiz attempt, made at its first result and kept up to date by its later
    commits: True when it was made or changed."""
    success = attempt.success_status == "passed"
    verb = "passed" if success else "failed"
    if attempt.lms_attempt_id is not None:
        existing = db.get(LmsAttempt, attempt.lms_attempt_id)
        if existing is not None:
            if (existing.grade, existing.success) == (graded, success):
                return False
            existing.grade, existing.success, existing.at = graded, success, at
            statement = db.get(LmsStatement, existing.statement_id)
            if statement is not None:
                content = json.loads(statement.content)
                content["verb"] = {"id": lms.VERB + verb, "display": {"en-US": verb}}
                content["result"] = _result(attempt, success)
                statement.content, statement.verb = json.dumps(content), lms.VERB + verb
            return True
    result = _result(attempt, success)
    statement = _statement(db, found=found, attempt=attempt, verb=verb, at=at, result=result)
    row = LmsAttempt(
        user_id=attempt.user_id,
        item_id=found.item.id,
        statement_id=statement.id,
        registration=found.launch.registration,
        grade=graded,
        success=success,
        at=at,
    )
    db.add(row)
    db.flush()
    attempt.lms_attempt_id = row.id
    return True


def _completed(db: Session, *, launch: LmsLaunch, item: LmsItem, at: datetime) -> bool:
    """The unit done for the learner (its first completion) and satisfied: True when it was not yet done."""
    first = db.scalar(
        lms.insert_for(db)(LmsCompletion)
        .values(user_id=launch.user_id, item_id=item.id, statement_id=None, completed_at=at)
        .on_conflict_do_nothing(index_elements=[LmsCompletion.user_id, LmsCompletion.item_id])
        .returning(LmsCompletion.id)
    )
    satisfaction.satisfy(
        db, user_id=launch.user_id, item_id=item.id, at=at, session_id=launch.session_id, launch_id=launch.id
    )
    return first is not None


def _tell(db: Session, *, user_id: int, item_id: int) -> None:
    """The areas counting the learner's results (training paths) learn of a new one, as from cmi5."""
    for listener in runtime._RESULT_LISTENERS:
        listener(db, user_id, item_id)


def _outcome(db: Session, *, attempt: ScormAttempt, found: _Launched, at: datetime) -> None:
    """What the attempt gives Spot, as a cmi5 unit's statements do: a score with a result (passed or
    failed, or the session terminated) is a quiz attempt; a unit is satisfied when passed, or, unless it
    is a quiz, completed (docs/learning-platform.md)."""
    graded = grade(attempt)
    told = False
    if graded is not None and (attempt.success_status in ("passed", "failed") or attempt.terminated_at):
        told = _quiz_attempt(db, attempt=attempt, found=found, graded=graded, at=at)
    passed = attempt.success_status == "passed"
    completed = attempt.completion_status == "completed"
    if passed or (completed and found.item.kind != ItemKind.quiz.value):
        told = _completed(db, launch=found.launch, item=found.item, at=at) or told
    if told:
        _tell(db, user_id=attempt.user_id, item_id=found.item.id)


# Progress --------------------------------------------------------------------------------------------


def _status(attempt: ScormAttempt | None) -> str:
    if attempt is None:
        return "notAttempted"
    if attempt.success_status in ("passed", "failed"):
        return attempt.success_status
    if attempt.completion_status == "completed":
        return "completed"
    if attempt.completion_status == "not attempted" and attempt.commits == 0:
        return "notAttempted"
    return "incomplete"


def progress(db: Session, *, user: Principal, course_id: int) -> CourseProgress:
    """The signed-in learner's progress through a course's units, in the course's order: the status of
    their latest attempt (a unit once passed or completed stays so), its grade, whether it resumes, and
    the navigation its block allows (SCORM controlMode; a cmi5 course allows choice)."""
    course = db.get(LmsCourse, course_id)
    if course is None or course.removed_at is not None:
        raise not_found("lmsElementNotFound")
    items = list(
        db.scalars(
            select(LmsItem)
            .where(LmsItem.course_id == course.id, LmsItem.removed_at.is_(None))
            .order_by(LmsItem.position, LmsItem.id)
        )
    )
    ids = [item.id for item in items]
    details = {d.item_id: d for d in db.scalars(select(ScormItem).where(ScormItem.item_id.in_(ids)))}
    top = db.get(ScormCourse, course.id)
    latest_numbers = (
        select(ScormAttempt.item_id, func.max(ScormAttempt.number).label("number"))
        .where(ScormAttempt.user_id == user.id, ScormAttempt.item_id.in_(ids))
        .group_by(ScormAttempt.item_id)
        .subquery()
    )
    attempts = {
        a.item_id: a
        for a in db.scalars(
            select(ScormAttempt)
            .join(
                latest_numbers,
                (latest_numbers.c.item_id == ScormAttempt.item_id)
                & (latest_numbers.c.number == ScormAttempt.number),
            )
            .where(ScormAttempt.user_id == user.id)
        )
    }
    results: dict[int, LmsAttempt] = {}
    for result in lms.learner_attempts(db, learner_id=user.id, quiz_ids=ids):
        results[result.item_id] = result  # oldest first: the latest stays
    passed = {r.item_id for r in lms.learner_attempts(db, learner_id=user.id, quiz_ids=ids) if r.success}
    completed = lms.completed_items(db, learner_id=user.id, item_ids=ids)
    units = []
    for item in items:
        if item.kind == ItemKind.group.value:
            continue
        attempt = attempts.get(item.id)
        status = _status(attempt)
        if status in ("notAttempted", "incomplete", "failed") and item.id in passed:
            status = "passed"
        elif status in ("notAttempted", "incomplete") and item.id in completed:
            status = "completed"
        elif attempt is None and item.id in results:
            status = "passed" if results[item.id].success else "failed"
        parent = details.get(item.parent_id) if item.parent_id is not None else None
        own = details.get(item.id)
        navigation = parent or top
        units.append(
            UnitProgress(
                item_id=item.id,
                identifier=item.activity_id,
                status=status,  # type: ignore[arg-type]
                grade=results[item.id].grade if item.id in results else None,
                resumable=attempt is not None and _resumable(attempt, course.standard),
                tracked=own is None or own.scorm_type == "sco",
                choice=navigation.choice if navigation is not None else True,
                flow=navigation.flow if navigation is not None else True,
            )
        )
    return CourseProgress(course_id=course.id, standard=course.standard, units=units)  # type: ignore[arg-type]


for _standard in (SCORM12, SCORM2004):
    lms.register_launcher(_standard, launch)
