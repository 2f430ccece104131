"""The learning platform's catalogue: course import, course trees, item names, launches and quiz attempts.

These functions are the connector boundary (docs/learning-platform.md): the rest of Spot (modules, paths)
reaches the learning platform through them only, so that another platform can stand behind them."""

import json
import logging
import secrets
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from hashlib import sha256
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urlencode, urlsplit, urlunsplit

from sqlalchemy import case, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core import files
from spot.core.errors import forbidden, not_found
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.lms import package, policy
from spot.lms.models import (
    ItemKind,
    LaunchMode,
    LmsAttempt,
    LmsCompletion,
    LmsCourse,
    LmsItem,
    LmsLaunch,
    LmsRegistration,
    LmsState,
    LmsStatement,
)
from spot.lms.schemas import (
    AttemptDetail,
    AttemptOut,
    CourseCard,
    ImportResult,
    ItemName,
    LaunchOut,
    LmsItemName,
    MyAttempt,
    TreeGroup,
    TreeLeaf,
)
from spot.lms.scorm import manifest
from spot.users.models import User

log = logging.getLogger("spot.security")

# A launch (its content address, its auth token) lasts a working day.
LAUNCH_LIFETIME = timedelta(hours=12)
LAUNCH_DATA = "LMS.LaunchData"
SESSION_ID = "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
CMI5_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
MOVE_ON_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/moveon"
CMI5_EXTENSION = "https://w3id.org/xapi/cmi5/context/extensions/"
VERB = "http://adlnet.gov/expapi/verbs/"
ADL_VERB = "https://w3id.org/xapi/adl/verbs/"
_ACTIVITY_NAMESPACE = uuid.UUID("4f0c1d5e-8b7a-4b8e-9d43-3a1f5c2e7b90")
SPA_PREFIX = "/spotv2"


def token_hash(token: str) -> str:
    return sha256(token.encode()).hexdigest()


# Import --------------------------------------------------------------------------------------------


def import_course(db: Session, *, path: Path, user_id: int | None) -> ImportResult:
    """Create or update the course a package describes: its items are matched by activity id, those the
    package no longer has are marked removed (module elements pointing at them then show
    lmsElementNotFound). The package is the file at `path`, read where it lies and moved into the store
    with the transaction (the caller hands it over: a received body, a copy)."""
    course_data = package.read(path)
    key = files.store_path(db, path, extension="zip")
    now = utcnow()
    course = db.scalars(select(LmsCourse).where(LmsCourse.activity_id == course_data.activity_id)).first()
    created = course is None
    if course is None:
        course = LmsCourse(activity_id=course_data.activity_id, version=1, content_key=key)
        db.add(course)
    else:
        files.retired(db, course.content_key)
        course.content_key = key
        course.version += 1
    course.title = course_data.title[:500]
    course.description = course_data.description
    course.lang = course_data.lang
    course.standard = course_data.standard if isinstance(course_data, manifest.ScormCourse) else "cmi5"
    course.imported_at = now
    course.imported_by = user_id
    course.removed_at = None
    db.flush()
    current = {
        item.activity_id: item for item in db.scalars(select(LmsItem).where(LmsItem.course_id == course.id))
    }
    seen: set[str] = set()
    made: dict[str, LmsItem] = {}
    for position, (node, parent) in enumerate(course_data.walk()):
        item = current.get(node.activity_id)
        if item is None:
            item = LmsItem(course_id=course.id, activity_id=node.activity_id)
            db.add(item)
        item.parent_id = made[parent.activity_id].id if parent is not None else None
        item.name = node.title[:500]
        item.description = node.description
        item.position = position
        item.removed_at = None
        if isinstance(node, package.Unit):
            item.kind = node.kind
            item.url = node.url
            item.move_on = node.move_on
            item.mastery_score = node.mastery_score
            item.launch_parameters = node.launch_parameters
            item.entitlement_key = node.entitlement_key
        else:
            item.kind = ItemKind.group.value
            item.url, item.move_on, item.mastery_score, item.launch_parameters = "", None, None, None
            item.entitlement_key = None
        db.flush()
        made[node.activity_id] = item
        seen.add(node.activity_id)
    for activity_id, item in current.items():
        if activity_id not in seen and item.removed_at is None:
            item.removed_at = now
            item.parent_id = None
    db.flush()
    if isinstance(course_data, manifest.ScormCourse):
        manifest.keep(db, course_id=course.id, data=course_data, items=made)
    units = sum(1 for node, _ in course_data.walk() if isinstance(node, package.Unit))
    log.info(
        "lms course %s course_id=%s activity_id=%r units=%s by=%s",
        "imported" if created else "updated",
        course.id,
        course.activity_id,
        units,
        user_id,
    )
    return ImportResult(id=course.id, title=course.title, created=created, items=units)


# Catalogue -----------------------------------------------------------------------------------------


def _live_course(db: Session, course_id: int) -> LmsCourse:
    course = db.get(LmsCourse, course_id)
    if course is None or course.removed_at is not None:
        raise not_found("lmsElementNotFound")
    return course


def courses(db: Session, user: Principal) -> list[CourseCard]:
    live = LmsItem.removed_at.is_(None)
    counts = (
        select(
            LmsItem.course_id,
            func.count(case((LmsItem.kind == ItemKind.resource.value, 1))).label("resources"),
            func.count(case((LmsItem.kind == ItemKind.quiz.value, 1))).label("quizzes"),
        )
        .where(live)
        .group_by(LmsItem.course_id)
        .subquery()
    )
    rows = db.execute(
        select(LmsCourse, func.coalesce(counts.c.resources, 0), func.coalesce(counts.c.quizzes, 0))
        .outerjoin(counts, counts.c.course_id == LmsCourse.id)
        .where(LmsCourse.removed_at.is_(None))
        .order_by(LmsCourse.title, LmsCourse.id)
    )
    can = policy.course_can(user)
    return [
        CourseCard(
            id=course.id,
            title=course.title,
            description=course.description,
            resources=resources,
            quizzes=quizzes,
            imported_at=course.imported_at,
            standard=course.standard,  # type: ignore[arg-type]
            can=can,
        )
        for course, resources, quizzes in rows
    ]


def tree(db: Session, *, course_id: int) -> TreeGroup:
    course = _live_course(db, course_id)
    items = db.scalars(
        select(LmsItem)
        .where(LmsItem.course_id == course.id, LmsItem.removed_at.is_(None))
        .order_by(LmsItem.position, LmsItem.id)
    ).all()
    children: dict[int | None, list[LmsItem]] = {}
    for item in items:
        children.setdefault(item.parent_id, []).append(item)

    def node(item: LmsItem) -> TreeGroup | TreeLeaf:
        if item.kind == ItemKind.group.value:
            return TreeGroup(
                id=item.id,
                name=item.name,
                description=item.description,
                children=[node(child) for child in children.get(item.id, [])],
            )
        kind = "quiz" if item.kind == ItemKind.quiz.value else "resource"
        return TreeLeaf(
            id=item.id,
            type=kind,
            name=item.name,
            description=item.description,
            mastery_score=item.mastery_score,
        )

    return TreeGroup(
        id=course.id,
        name=course.title,
        description=course.description,
        children=[node(item) for item in children.get(None, [])],
    )


def remove(db: Session, *, course_id: int, by: Principal) -> None:
    """The course leaves the catalogue: its tree answers 404 and its items are no longer found. Its
    rows stay, so that attempts already made keep their quiz and course names."""
    course = _live_course(db, course_id)
    course.removed_at = utcnow()
    course.version += 1
    log.info("lms course removed course_id=%s activity_id=%r by=%s", course.id, course.activity_id, by.id)


def _live_items(db: Session, ids: list[int], kinds: tuple[str, ...]) -> list[tuple[LmsItem, LmsCourse]]:
    if not ids:
        return []
    rows = db.execute(
        select(LmsItem, LmsCourse)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(
            LmsItem.id.in_(set(ids)),
            LmsItem.kind.in_(kinds),
            LmsItem.removed_at.is_(None),
            LmsCourse.removed_at.is_(None),
        )
        .order_by(LmsItem.id)
    )
    return [(item, course) for item, course in rows.tuples()]


def item_names(db: Session, *, ids: list[int]) -> list[ItemName]:
    kinds = tuple(kind.value for kind in ItemKind)
    return [
        ItemName(id=item.id, type=item.kind, name=item.name, course_id=course.id, course_title=course.title)  # type: ignore[arg-type]
        for item, course in _live_items(db, ids, kinds)
    ]


def existing_items(db: Session, ids: list[int]) -> dict[int, LmsItemName]:
    """The resources and quizzes among `ids` that the platform still has (for module elements)."""
    kinds = (ItemKind.resource.value, ItemKind.quiz.value)
    return {
        item.id: LmsItemName(
            id=item.id,
            type=item.kind,  # type: ignore[arg-type]
            name=item.name,
            course_id=course.id,
            course_title=course.title,
        )
        for item, course in _live_items(db, ids, kinds)
    }


def completed_items(db: Session, *, learner_id: int, item_ids: list[int]) -> dict[int, datetime]:
    """When the learner completed each of these units (those not completed are left out)."""
    if not item_ids:
        return {}
    rows = db.execute(
        select(LmsCompletion.item_id, LmsCompletion.completed_at).where(
            LmsCompletion.user_id == learner_id, LmsCompletion.item_id.in_(set(item_ids))
        )
    )
    return {item_id: at for item_id, at in rows.tuples()}


# Launch (cmi5 §8) ----------------------------------------------------------------------------------


def actor(user_id: int) -> dict[str, object]:
    """The learner as cmi5 wants it (§9.2): an account of this Spot, named by the user's id only (no
    personal data reaches the course)."""
    return {"objectType": "Agent", "account": {"homePage": get_settings().public_url, "name": str(user_id)}}


def launch_activity_id(course: LmsCourse, item: LmsItem) -> str:
    """The activity id Spot gives a unit (cmi5 §8.1.5: generated, never the publisher's id, the same
    for every registration)."""
    return f"urn:uuid:{uuid.uuid5(_ACTIVITY_NAMESPACE, course.activity_id + chr(10) + item.activity_id)}"


def insert_for(db: Session) -> Any:
    """INSERT with ON CONFLICT, in the dialect of the session's database."""
    return pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert


def _registration(db: Session, *, user_id: int, course_id: int) -> str:
    """The learner's enrolment in the course (cmi5 §8.1.4): theirs, else a new one. Of two first launches
    at once, one inserts it and the other, waiting on its key, finds it."""
    db.execute(
        insert_for(db)(LmsRegistration)
        .values(user_id=user_id, course_id=course_id, registration=str(uuid.uuid4()), created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[LmsRegistration.user_id, LmsRegistration.course_id])
    )
    registration: str = db.scalars(
        select(LmsRegistration.registration).where(
            LmsRegistration.user_id == user_id, LmsRegistration.course_id == course_id
        )
    ).one()
    return registration


# How units of another standard than cmi5 launch (`launcher(db, user=, item=, course=, mode=)`),
# registered by the modules that run them (lms.scorm.service: scorm12, scorm2004).
Launcher = Callable[..., LaunchOut]
_LAUNCHERS: dict[str, Launcher] = {}


def register_launcher(standard: str, launcher: Launcher) -> None:
    _LAUNCHERS[standard] = launcher


class Registration(Protocol):
    def __call__(
        self,
        db: Session,
        *,
        user_id: int,
        course_id: int,
        item_id: int | None = None,
        launch_mode: str = "Normal",
    ) -> None: ...


# What a launch asks of the satisfaction rules (lms.satisfaction registers them): the learner's
# registration in the course (units without criteria satisfied), and whether they satisfied a unit by
# what they did in it (reopened, it is reviewed).
_ON_REGISTRATION: list[Registration] = []
_REVIEWED: list[Callable[[Session, int, int], bool]] = []


def on_registration(registered: Registration) -> None:
    _ON_REGISTRATION.append(registered)


def reviewed_when(reviewed: Callable[[Session, int, int], bool]) -> None:
    _REVIEWED.append(reviewed)


def launch(db: Session, *, user: Principal, item_id: int, mode: str | None = None) -> LaunchOut:
    """Prepare a launch of a unit: the launched statement and LMS.LaunchData are recorded before the
    unit starts (cmi5 §9.3.1, §10), and the launch address carries endpoint, fetch, actor,
    registration and activityId (§8.1). The address is built on SPOT_PUBLIC_URL, never on the
    request's Host header: a forged Host would otherwise send the one-time fetch token elsewhere.
    `mode` "Browse" launches the unit to look around, "Review" to revisit it (§10.2.2); otherwise a
    learner reopening a unit they already satisfied reviews it, else the launch is Normal."""
    found = _live_items(db, [item_id], (ItemKind.resource.value, ItemKind.quiz.value))
    if not found:
        raise not_found("lmsElementNotFound")
    item, course = found[0]
    if course.standard in _LAUNCHERS:
        return _LAUNCHERS[course.standard](db, user=user, item=item, course=course, mode=mode)
    registration = _registration(db, user_id=user.id, course_id=course.id)
    activity_id = launch_activity_id(course, item)
    _abandon_open_sessions(db, user_id=user.id, item=item, registration=registration, activity_id=activity_id)
    launch_mode = _launch_mode(db, user_id=user.id, item=item, registration=registration, asked=mode)
    now = utcnow()
    fetch_token = secrets.token_urlsafe(32)
    started = LmsLaunch(
        key=secrets.token_urlsafe(32),
        user_id=user.id,
        item_id=item.id,
        registration=registration,
        session_id=str(uuid.uuid4()),
        fetch_token_hash=token_hash(fetch_token),
        fetch_used=False,
        created_at=now,
        expires_at=now + LAUNCH_LIFETIME,
        launch_mode=launch_mode,
    )
    db.add(started)
    db.flush()
    # cmi5 §9.6.1: moveOn evaluated at registration, before the launched statement; the launch is
    # known to what counts an opened unit without criteria.
    for registered in _ON_REGISTRATION:
        registered(db, user_id=user.id, course_id=course.id, item_id=item.id, launch_mode=launch_mode)
    base = get_settings().public_url.rstrip("/")
    api = f"{base}{API_PREFIX}/lms"
    parameters = {
        "endpoint": f"{api}/xapi/",
        "fetch": f"{api}/fetch/{fetch_token}",
        "actor": json.dumps(actor(user.id), separators=(",", ":")),
        "registration": started.registration,
        "activityId": activity_id,
    }
    parts = urlsplit(item.url)
    target = item.url if parts.scheme else f"{api}/play/{started.key}/{quote(unquote(parts.path))}"
    # The unit's address as the course gives it (its own query string), then with the launch's
    # parameters: the launched statement records the first (§9.6.3.4), the learner opens the second.
    content_url = urlunsplit((*urlsplit(target)[:3], parts.query, parts.fragment))
    query = "&".join(part for part in (parts.query, urlencode(parameters)) if part)
    url = urlunsplit((*urlsplit(target)[:3], query, parts.fragment))
    template = {
        "contextActivities": {"grouping": [{"objectType": "Activity", "id": item.activity_id}]},
        "extensions": {SESSION_ID: started.session_id},
    }
    launch_data: dict[str, object] = {
        "contextTemplate": template,
        "launchMode": launch_mode,
        "moveOn": item.move_on or "NotApplicable",
        "returnURL": f"{base}{SPA_PREFIX}/lms",
        "entitlementKey": {"courseStructure": item.entitlement_key or ""},
    }
    if item.mastery_score is not None:
        launch_data["masteryScore"] = item.mastery_score
    if item.launch_parameters is not None:
        launch_data["launchParameters"] = item.launch_parameters
    _put_state(db, launch=started, activity_id=activity_id, state_id=LAUNCH_DATA, document=launch_data)
    _launched_statement(
        db, launch=started, item=item, activity_id=activity_id, launch_data=launch_data, url=content_url
    )
    return LaunchOut(url=url, course_id=course.id)


def _launch_mode(db: Session, *, user_id: int, item: LmsItem, registration: str, asked: str | None) -> str:
    """Browse or Review when asked; Review when the learner reopens a unit they satisfied (launched
    before in this registration); Normal otherwise."""
    if asked in (LaunchMode.browse, LaunchMode.review):
        return asked
    launched_before = db.scalar(
        select(LmsLaunch.id)
        .where(
            LmsLaunch.user_id == user_id, LmsLaunch.item_id == item.id, LmsLaunch.registration == registration
        )
        .limit(1)
    )
    if launched_before is not None and any(reviewed(db, user_id, item.id) for reviewed in _REVIEWED):
        return "Review"
    return "Normal"


def _put_state(
    db: Session, *, launch: LmsLaunch, activity_id: str, state_id: str, document: dict[str, object]
) -> None:
    """Write the document in one statement: launches of one unit at once share the registration, and
    so the document's key."""
    values = {
        "content": json.dumps(document).encode(),
        "content_type": "application/json",
        "updated_at": utcnow(),
    }
    db.execute(
        insert_for(db)(LmsState)
        .values(
            user_id=launch.user_id,
            activity_id=activity_id,
            registration=launch.registration,
            state_id=state_id,
            **values,
        )
        .on_conflict_do_update(
            index_elements=[LmsState.user_id, LmsState.activity_id, LmsState.registration, LmsState.state_id],
            set_=values,
        )
    )


def _launched_statement(
    db: Session,
    *,
    launch: LmsLaunch,
    item: LmsItem,
    activity_id: str,
    launch_data: dict[str, object],
    url: str,
) -> None:
    """cmi5 §9.3.1, §9.6.3: the launch mode, the unit's address without the launch's parameters, its
    moveOn, and its mastery score and launch parameters when LMS.LaunchData has them."""
    extensions: dict[str, object] = {
        CMI5_EXTENSION + "launchmode": launch_data["launchMode"],
        CMI5_EXTENSION + "launchurl": url,
        CMI5_EXTENSION + "moveon": launch_data["moveOn"],
    }
    if "masteryScore" in launch_data:
        extensions[CMI5_EXTENSION + "masteryscore"] = launch_data["masteryScore"]
    if "launchParameters" in launch_data:
        extensions[CMI5_EXTENSION + "launchparameters"] = launch_data["launchParameters"]
    _lms_statement(
        db, launch=launch, item=item, activity_id=activity_id, verb="launched", extensions=extensions
    )


def _lms_statement(
    db: Session,
    *,
    launch: LmsLaunch,
    item: LmsItem,
    activity_id: str,
    verb: str,
    extensions: dict[str, object] | None = None,
    result: dict[str, object] | None = None,
) -> None:
    """A cmi5 defined statement Spot issues itself (launched, abandoned), in the launch's session."""
    at = utcnow()
    statement_id = str(uuid.uuid4())
    verb_id = (VERB if verb == "launched" else ADL_VERB) + verb
    statement: dict[str, object] = {
        "id": statement_id,
        "actor": actor(launch.user_id),
        "verb": {"id": verb_id, "display": {"en-US": verb.title()}},
        "object": {"objectType": "Activity", "id": activity_id},
        "context": {
            "registration": launch.registration,
            "contextActivities": {
                "category": [{"id": CMI5_CATEGORY}],
                "grouping": [{"objectType": "Activity", "id": item.activity_id}],
            },
            "extensions": {SESSION_ID: launch.session_id, **(extensions or {})},
        },
        "timestamp": at.isoformat().replace("+00:00", "Z"),
    }
    if result is not None:
        statement["result"] = result
    db.add(
        LmsStatement(
            statement_id=statement_id,
            launch_id=launch.id,
            user_id=launch.user_id,
            item_id=item.id,
            registration=launch.registration,
            verb=verb_id,
            content=json.dumps(statement),
            stored_at=at,
            defined=True,
            object_id=activity_id,
        )
    )


def _abandon_open_sessions(
    db: Session, *, user_id: int, item: LmsItem, registration: str, activity_id: str
) -> None:
    """cmi5 §9.3.6: launching a unit again while an earlier session of it is still open (its auth token
    fetched, neither terminated nor abandoned, not expired) abandons that session: an abandoned
    statement whose duration runs from the launch to the unit's last statement (§9.5.4.2), and the
    session is closed: its tokens and content address stop working."""
    now = utcnow()
    open_sessions = db.scalars(
        select(LmsLaunch).where(
            LmsLaunch.user_id == user_id,
            LmsLaunch.item_id == item.id,
            LmsLaunch.registration == registration,
            LmsLaunch.fetch_used.is_(True),
            LmsLaunch.expires_at > now,
            LmsLaunch.closed_at.is_(None),
        )
    ).all()
    for session in open_sessions:
        last = db.scalar(select(func.max(LmsStatement.stored_at)).where(LmsStatement.launch_id == session.id))
        seconds = max(0, int(((last or session.created_at) - session.created_at).total_seconds()))
        _lms_statement(
            db,
            launch=session,
            item=item,
            activity_id=activity_id,
            verb="abandoned",
            result={"duration": f"PT{seconds}S"},
        )
        session.closed_at = now
        session.expires_at = now


# Attempts ------------------------------------------------------------------------------------------


def grade_of(scaled: float) -> float:
    """A scaled score (0 to 1) as a grade out of 10, rounded half up to one decimal (spec 2 §9)."""
    return float((Decimal(repr(scaled)) * 10).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


# Who refers to a learner (a referent of one of the learner's training paths): told by training.
RefersLearner = Callable[[Session, int, int], bool]
_REFERS_LEARNER: list[RefersLearner] = []


def register_referents(refers: RefersLearner) -> None:
    """`refers(db, user_id, learner_id)`: whether the user is a referent of the learner (registered by
    training.paths.elements; with none registered, nobody is)."""
    _REFERS_LEARNER.append(refers)


def may_read_attempts(db: Session, user: Principal, learner_id: int) -> bool:
    """policy.can_read_attempts, the referents told by the areas that name them."""

    def refers_learner() -> bool:
        return any(refers(db, user.id, learner_id) for refers in _REFERS_LEARNER)

    return policy.can_read_attempts(user, learner_id, refers_learner=refers_learner)


def attempt_link(attempt_id: int) -> str:
    return f"{API_PREFIX}/lms/attempts/{attempt_id}"


def learner_attempts(db: Session, *, learner_id: int, quiz_ids: Iterable[int]) -> list[LmsAttempt]:
    """The learner's attempts at these quizzes, oldest first, whoever asks: the caller decides who
    sees them (quiz_attempts below; a training path shows its learner's best grades to its readers)."""
    wanted = set(quiz_ids)
    if not wanted:
        return []
    return list(
        db.scalars(
            select(LmsAttempt)
            .where(LmsAttempt.user_id == learner_id, LmsAttempt.item_id.in_(wanted))
            .order_by(LmsAttempt.at, LmsAttempt.id)
        )
    )


def quiz_attempts(db: Session, *, user: Principal, learner_id: int, quiz_ids: list[int]) -> list[AttemptOut]:
    if not may_read_attempts(db, user, learner_id):
        raise forbidden()
    attempts = learner_attempts(db, learner_id=learner_id, quiz_ids=quiz_ids)
    return [
        AttemptOut(
            id=a.id,
            quiz_id=a.item_id,
            learner_id=a.user_id,
            grade=a.grade,
            success=a.success,
            date=a.at,
            link=attempt_link(a.id),
        )
        for a in attempts
    ]


def my_attempts(db: Session, *, user: Principal) -> list[MyAttempt]:
    rows = db.execute(
        select(LmsAttempt, LmsItem.name, LmsCourse.id, LmsCourse.title)
        .join(LmsItem, LmsItem.id == LmsAttempt.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(LmsAttempt.user_id == user.id)
        .order_by(LmsAttempt.at.desc(), LmsAttempt.id.desc())
    )
    return [
        MyAttempt(
            id=a.id,
            quiz_id=a.item_id,
            quiz_name=name,
            course_id=course_id,
            course_title=title,
            grade=a.grade,
            success=a.success,
            date=a.at,
        )
        for a, name, course_id, title in rows.tuples()
    ]


def attempt(db: Session, *, user: Principal, attempt_id: int) -> AttemptDetail:
    row = db.execute(
        select(
            LmsAttempt, LmsItem.name, LmsCourse.id, LmsCourse.title, LmsStatement.content, User.display_name
        )
        .join(LmsItem, LmsItem.id == LmsAttempt.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .join(LmsStatement, LmsStatement.id == LmsAttempt.statement_id)
        .join(User, User.id == LmsAttempt.user_id)
        .where(LmsAttempt.id == attempt_id)
    ).first()
    if row is None:
        raise not_found()
    a, quiz_name, course_id, course_title, content, learner_name = row.tuple()
    if not may_read_attempts(db, user, a.user_id):
        raise forbidden()
    return AttemptDetail(
        id=a.id,
        quiz_id=a.item_id,
        learner_id=a.user_id,
        grade=a.grade,
        success=a.success,
        date=a.at,
        link=attempt_link(a.id),
        learner_name=learner_name,
        quiz_name=quiz_name,
        course_id=course_id,
        course_title=course_title,
        statement=json.loads(content),
    )
