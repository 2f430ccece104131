"""When a learner has satisfied a unit, a block and a course (cmi5 §9.3.7 waived, §9.3.9 satisfied,
§13.1.4 moveOn; docs/learning-platform.md, "Satisfaction").

A unit is satisfied once, per learner (one registration per learner and course), when
- its moveOn is met by the cmi5 defined statements the unit sent in Normal mode: `Completed` (a
  completed statement), `Passed` (passed), `CompletedAndPassed` (both, in any sessions),
  `CompletedOrPassed` (either);
- its moveOn is `NotApplicable`: as soon as the learner is registered in the course (cmi5 §9.6.1: the LMS
  evaluates moveOn at registration), i.e. at their first launch of any unit of the course, or at a
  launch after an update added the unit;
- an administrator waived it for the learner (`waived`, with its reason).

A block is satisfied when every unit under it is, the course when every unit of it is: Spot then issues
`satisfied` about the block's or course's own activity id (generated, never the publisher's, §9.4), the
publisher id of the block or course in `contextActivities.grouping`, in the session that triggered it
(the unit's launch, the waiver's session, or a new one at registration), innermost block first, then
the course. A unit itself gets no `satisfied` statement (cmi5 names blocks and courses only; the LTS
test 004 expects the fourth and fifth statements to be the block's and the course's).

Every satisfied unit is stored (lms_satisfaction) and tells the areas that count it (training paths)
through `on_satisfied`, in the transaction that satisfied it. A SCORM course (no xAPI) is satisfied the
same way, without statements."""

import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.core.errors import bad_request, conflict, forbidden, not_found
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.lms import policy, service
from spot.lms.launched import Launched
from spot.lms.models import (
    ItemKind,
    LaunchMode,
    LmsCourse,
    LmsItem,
    LmsLaunch,
    LmsRegistration,
    LmsSatisfaction,
    LmsStatement,
    SatisfactionMethod,
    SatisfactionScope,
)
from spot.lms.schemas import CourseSatisfaction, ItemSatisfaction
from spot.users.models import User

log = logging.getLogger("spot.security")

SATISFIED = service.ADL_VERB + "satisfied"
WAIVED = service.ADL_VERB + "waived"
COMPLETED = service.VERB + "completed"
PASSED = service.VERB + "passed"
BLOCK_TYPE = "https://w3id.org/xapi/cmi5/activitytype/block"
COURSE_TYPE = "https://w3id.org/xapi/cmi5/activitytype/course"
REASON = "https://w3id.org/xapi/cmi5/result/extensions/reason"
# cmi5 §9.5.5.2: the reasons an LMS should use.
WAIVE_REASONS = ("Tested Out", "Equivalent AU", "Equivalent Outside Activity", "Administrative")
MOVE_ON = ("NotApplicable", "Passed", "Completed", "CompletedAndPassed", "CompletedOrPassed")
_UNITS = (ItemKind.resource.value, ItemKind.quiz.value)


def move_on_met(move_on: str | None, *, completed: bool, passed: bool) -> bool:
    """Whether a unit's moveOn criteria are met by what the learner did (cmi5 §13.1.4)."""
    criteria = move_on or "NotApplicable"
    if criteria == "Completed":
        return completed
    if criteria == "Passed":
        return passed
    if criteria == "CompletedAndPassed":
        return completed and passed
    if criteria == "CompletedOrPassed":
        return completed or passed
    return True


def course_activity_id(course: LmsCourse) -> str:
    """The course's own activity id in satisfied statements (cmi5 §9.4: generated, not the publisher's,
    the same in every statement)."""
    return f"urn:uuid:{uuid.uuid5(service._ACTIVITY_NAMESPACE, course.activity_id)}"


def block_activity_id(course: LmsCourse, block: LmsItem) -> str:
    """A block's own activity id (generated as a unit's is, from the course's and block's ids)."""
    return service.launch_activity_id(course, block)


# Reading ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Satisfied:
    at: datetime
    method: str


def satisfied_items(db: Session, *, learner_id: int, item_ids: list[int]) -> dict[int, Satisfied]:
    """When and how the learner satisfied each of these units or blocks (those not satisfied are left
    out)."""
    if not item_ids:
        return {}
    rows = db.execute(
        select(LmsSatisfaction.item_id, LmsSatisfaction.satisfied_at, LmsSatisfaction.method).where(
            LmsSatisfaction.user_id == learner_id, LmsSatisfaction.item_id.in_(set(item_ids))
        )
    )
    return {item_id: Satisfied(at, method) for item_id, at, method in rows.tuples() if item_id is not None}


def is_satisfied(db: Session, user_id: int, item_id: int, *, at_registration: bool = True) -> bool:
    """Whether the learner satisfied the unit; `at_registration=False` leaves out a unit without criteria
    (NotApplicable), which the learner satisfied by being registered rather than by what they did in it
    (a launch reviews only what the learner did: H1's Review mode)."""
    found = satisfied_items(db, learner_id=user_id, item_ids=[item_id]).get(item_id)
    return found is not None and (at_registration or found.method != SatisfactionMethod.not_applicable)


def launch_times(db: Session, *, learner_id: int, item_ids: list[int]) -> dict[int, list[datetime]]:
    """When the learner launched each of these units, oldest first (a unit without criteria counts for a
    training path when opened)."""
    if not item_ids:
        return {}
    rows = db.execute(
        select(LmsLaunch.item_id, LmsLaunch.created_at)
        .where(LmsLaunch.user_id == learner_id, LmsLaunch.item_id.in_(set(item_ids)))
        .order_by(LmsLaunch.created_at, LmsLaunch.id)
    )
    found: dict[int, list[datetime]] = {}
    for item_id, at in rows.tuples():
        found.setdefault(item_id, []).append(at)
    return found


# Who counts a satisfied unit (training paths) -------------------------------------------------------

SatisfiedListener = Callable[[Session, int, int], None]
_LISTENERS: list[SatisfiedListener] = []


def on_satisfied(listener: SatisfiedListener) -> None:
    """`listener(db, learner_id, item_id)` runs in the transaction that satisfied the unit."""
    _LISTENERS.append(listener)


# Satisfying ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Session:
    """The session satisfied statements go in, and the launch they belong to (None outside a launch)."""

    session_id: str
    launch_id: int | None


def _is_cmi5(course: LmsCourse) -> bool:
    return getattr(course, "standard", "cmi5") in (None, "cmi5")


def _insert(db: Session, values: dict[str, Any]) -> bool:
    """One row, unless the learner already has it (of two at once, one inserts it)."""
    inserted = db.scalar(
        service.insert_for(db)(LmsSatisfaction)
        .values(**values)
        .on_conflict_do_nothing()
        .returning(LmsSatisfaction.id)
    )
    return inserted is not None


def _statement(
    db: Session,
    *,
    user_id: int,
    item_id: int,
    registration: str,
    session: _Session,
    verb_id: str,
    target: dict[str, Any],
    grouping: str,
    categories: list[str],
    at: datetime,
    result: dict[str, Any] | None = None,
) -> int:
    """A statement Spot issues (satisfied, waived): stored as the statements resource returns it."""
    statement_id = str(uuid.uuid4())
    statement: dict[str, Any] = {
        "id": statement_id,
        "actor": service.actor(user_id),
        "verb": {"id": verb_id, "display": {"en-US": verb_id.rsplit("/", 1)[-1]}},
        "object": target,
        "context": {
            "registration": registration,
            "contextActivities": {
                "category": [{"id": category} for category in categories],
                "grouping": [{"objectType": "Activity", "id": grouping}],
            },
            "extensions": {service.SESSION_ID: session.session_id},
        },
        "timestamp": at.isoformat().replace("+00:00", "Z"),
    }
    if result is not None:
        statement["result"] = result
    row = LmsStatement(
        statement_id=statement_id,
        launch_id=session.launch_id,
        user_id=user_id,
        item_id=item_id,
        registration=registration,
        verb=verb_id,
        content=json.dumps(statement),
        stored_at=at,
        defined=True,
        object_id=target["id"],
    )
    db.add(row)
    db.flush()
    return row.id


def satisfy(
    db: Session,
    *,
    user_id: int,
    item_id: int,
    at: datetime,
    method: str = SatisfactionMethod.move_on.value,
    session_id: str | None = None,
    launch_id: int | None = None,
    statement_id: int | None = None,
    reason: str | None = None,
    waived_by: int | None = None,
) -> bool:
    """The unit is satisfied for the learner (once: False when it already was), then its blocks and the
    course when all their units are, with their satisfied statements in `session_id` (a new session
    when None). Used by the cmi5 runtime (after_statement), waivers, registrations and SCORM outcomes."""
    item = db.get(LmsItem, item_id)
    if item is None or item.kind not in _UNITS:
        raise not_found("lmsElementNotFound")
    extra = {"reason": reason, "waived_by": waived_by, "statement_id": statement_id}
    newly = _satisfy_units(
        db,
        user_id=user_id,
        course_id=item.course_id,
        units=[item],
        at=at,
        method=method,
        session=_Session(session_id or str(uuid.uuid4()), launch_id),
        extra=extra,
    )
    return bool(newly)


def _satisfy_units(
    db: Session,
    *,
    user_id: int,
    course_id: int,
    units: list[LmsItem],
    at: datetime,
    method: str,
    session: _Session,
    extra: dict[str, Any] | None = None,
) -> list[int]:
    """Several units of one course satisfied at once (a registration's NotApplicable units: a thousand of
    them roll up once), then the blocks and course they complete; the units newly satisfied."""
    course = db.get(LmsCourse, course_id)
    assert course is not None
    registration = service._registration(db, user_id=user_id, course_id=course.id)
    # The learner's satisfactions in the course one transaction at a time: two units satisfied at once
    # (a reading and a quiz open side by side) would otherwise each miss the other and leave their block
    # unsatisfied. The registration's row is written first; what follows reads what the other committed.
    db.execute(
        update(LmsRegistration)
        .where(LmsRegistration.user_id == user_id, LmsRegistration.course_id == course.id)
        .values(registration=LmsRegistration.registration)
        .execution_options(synchronize_session=False)
    )
    newly = [
        unit.id
        for unit in units
        if _insert(
            db,
            {
                "user_id": user_id,
                "course_id": course.id,
                "item_id": unit.id,
                "scope": SatisfactionScope.au.value,
                "registration": registration,
                "method": method,
                "satisfied_at": at,
                **(extra or {}),
            },
        )
    ]
    if not newly:
        return []
    _roll_up(
        db,
        user_id=user_id,
        course=course,
        trigger=newly[0],
        registration=registration,
        session=session,
        at=at,
    )
    for unit_id in newly:
        for listener in _LISTENERS:
            listener(db, user_id, unit_id)
    return newly


def _roll_up(
    db: Session,
    *,
    user_id: int,
    course: LmsCourse,
    trigger: int,
    registration: str,
    session: _Session,
    at: datetime,
) -> None:
    """The blocks whose units are now all satisfied, innermost first, then the course when all its units
    are: each satisfied once, with its satisfied statement (the course's names the `trigger` unit as its
    item, the statement log's unit)."""
    items = db.scalars(
        select(LmsItem).where(LmsItem.course_id == course.id, LmsItem.removed_at.is_(None))
    ).all()
    by_id = {item.id: item for item in items}
    units_under: dict[int | None, list[int]] = {None: []}
    depth: dict[int, int] = {}
    for item in items:
        if item.kind not in _UNITS:
            continue
        units_under[None].append(item.id)
        parent = item.parent_id
        chain: list[int] = []
        while parent is not None and parent in by_id:
            chain.append(parent)
            parent = by_id[parent].parent_id
        for level, block_id in enumerate(reversed(chain)):
            units_under.setdefault(block_id, []).append(item.id)
            depth[block_id] = level
    rows = db.execute(
        select(LmsSatisfaction.item_id).where(
            LmsSatisfaction.user_id == user_id, LmsSatisfaction.course_id == course.id
        )
    )
    satisfied: set[int | None] = {item_id for (item_id,) in rows.tuples()}
    blocks = sorted(depth, key=lambda block_id: (-depth[block_id], by_id[block_id].position))
    cmi5 = _is_cmi5(course)
    keys: list[int | None] = [*blocks, None]
    for key in keys:
        if key in satisfied or not all(unit in satisfied for unit in units_under.get(key, [])):
            continue
        block = by_id[key] if key is not None else None
        scope = SatisfactionScope.block if block is not None else SatisfactionScope.course
        values = {
            "user_id": user_id,
            "course_id": course.id,
            "item_id": key,
            "scope": scope.value,
            "registration": registration,
            "method": SatisfactionMethod.units.value,
            "satisfied_at": at,
        }
        if _insert(db, values) and cmi5:
            target_type = BLOCK_TYPE if block is not None else COURSE_TYPE
            target_id = block_activity_id(course, block) if block is not None else course_activity_id(course)
            statement_id = _statement(
                db,
                user_id=user_id,
                item_id=block.id if block is not None else trigger,
                registration=registration,
                session=session,
                verb_id=SATISFIED,
                target={"objectType": "Activity", "id": target_id, "definition": {"type": target_type}},
                grouping=block.activity_id if block is not None else course.activity_id,
                categories=[service.CMI5_CATEGORY],
                at=at,
            )
            same = LmsSatisfaction.item_id == key if key is not None else LmsSatisfaction.item_id.is_(None)
            db.execute(
                update(LmsSatisfaction)
                .where(LmsSatisfaction.user_id == user_id, LmsSatisfaction.course_id == course.id, same)
                .values(statement_id=statement_id)
                .execution_options(synchronize_session=False)
            )
        satisfied.add(key)


# The cmi5 runtime's hooks ----------------------------------------------------------------------------


def _defined_verbs(db: Session, launch: Launched) -> set[str]:
    """The completed and passed cmi5 defined statements about the unit in the learner's registration."""
    rows = db.scalars(
        select(LmsStatement.verb)
        .where(
            LmsStatement.user_id == launch.user_id,
            LmsStatement.item_id == launch.item_id,
            LmsStatement.registration == launch.registration,
            LmsStatement.verb.in_((COMPLETED, PASSED)),
            LmsStatement.defined.is_(True),
            LmsStatement.object_id == launch.activity_id,
        )
        .distinct()
    )
    return set(rows)


def after_statement(
    db: Session, *, launch: Launched, verb_id: str, statement: dict[str, Any], at: datetime
) -> None:
    """A cmi5 defined statement of the launch was stored: a completed or passed one may meet the unit's
    moveOn, which satisfies it (and its blocks and course, in the launch's session)."""
    if verb_id not in (COMPLETED, PASSED):
        return
    item = db.get(LmsItem, launch.item_id)
    if item is None or is_satisfied(db, launch.user_id, item.id):
        return
    verbs = _defined_verbs(db, launch) | {verb_id}
    if not move_on_met(item.move_on, completed=COMPLETED in verbs, passed=PASSED in verbs):
        return
    row_id = db.scalar(select(LmsStatement.id).where(LmsStatement.statement_id == str(statement.get("id"))))
    satisfy(
        db,
        user_id=launch.user_id,
        item_id=item.id,
        at=at,
        session_id=launch.session_id,
        launch_id=launch.launch_id,
        statement_id=row_id,
    )


def registered(
    db: Session,
    *,
    user_id: int,
    course_id: int,
    item_id: int | None = None,
    at: datetime | None = None,
    launch_mode: str = LaunchMode.normal,
) -> None:
    """cmi5 §9.6.1: moveOn is evaluated at registration. The learner's NotApplicable units not yet
    satisfied are satisfied now (their blocks and course with them), in a session of their own, before
    the launch records anything. Called at each launch (a course update may have added such units); the
    launched unit, when it has no criteria or is opened in Browse or Review, is told to the listeners
    (a training path counts it as opened)."""
    live_course = db.get(LmsCourse, course_id)
    if live_course is None:
        return
    satisfied = select(LmsSatisfaction.item_id).where(
        LmsSatisfaction.user_id == user_id, LmsSatisfaction.item_id.is_not(None)
    )
    pending = db.scalars(
        select(LmsItem)
        .where(
            LmsItem.course_id == course_id,
            LmsItem.removed_at.is_(None),
            LmsItem.kind.in_(_UNITS),
            (LmsItem.move_on.is_(None)) | (LmsItem.move_on == "NotApplicable"),
            LmsItem.id.not_in(satisfied),
        )
        .order_by(LmsItem.position, LmsItem.id)
    ).all()
    if item_id is not None:
        launched = db.get(LmsItem, item_id)
        pending_ids = {unit.id for unit in pending}
        if (
            launched is not None
            and (launched.move_on in (None, "NotApplicable") or launch_mode != LaunchMode.normal)
            and item_id not in pending_ids
        ):
            # Opened: what counts a unit without criteria as done (training paths) hears of it.
            for listener in _LISTENERS:
                listener(db, user_id, item_id)
    if not pending:
        return
    _satisfy_units(
        db,
        user_id=user_id,
        course_id=course_id,
        units=list(pending),
        at=at or utcnow(),
        method=SatisfactionMethod.not_applicable.value,
        session=_Session(str(uuid.uuid4()), None),
    )


# Waivers (cmi5 §9.3.7) -------------------------------------------------------------------------------


def waive(db: Session, *, user: Principal, item_id: int, learner_id: int, reason: str) -> ItemSatisfaction:
    """An administrator waives a unit for a learner: Spot issues `waived` (success and completion true,
    the reason, a session of its own), the unit is satisfied, its blocks and course follow in that
    session. 409 when the unit is already satisfied (by its moveOn, NotApplicable or an earlier waiver:
    one waiver per unit and registration)."""
    if not policy.can_waive(user):
        raise forbidden()
    if reason not in WAIVE_REASONS:
        raise bad_request("invalidValue", field="reason", code="invalidValue")
    found = service._live_items(db, [item_id], _UNITS)
    if not found:
        raise not_found("lmsElementNotFound")
    if db.get(User, learner_id) is None:
        raise not_found()
    item, course = found[0]
    registration = service._registration(db, user_id=learner_id, course_id=course.id)
    registered(db, user_id=learner_id, course_id=course.id)
    if is_satisfied(db, learner_id, item.id):
        raise conflict("lmsUnitAlreadySatisfied")
    at = utcnow()
    session = _Session(str(uuid.uuid4()), None)
    statement_id = None
    if _is_cmi5(course):
        statement_id = _statement(
            db,
            user_id=learner_id,
            item_id=item.id,
            registration=registration,
            session=session,
            verb_id=WAIVED,
            target={"objectType": "Activity", "id": service.launch_activity_id(course, item)},
            grouping=item.activity_id,
            categories=[service.CMI5_CATEGORY, service.MOVE_ON_CATEGORY],
            at=at,
            result={"success": True, "completion": True, "extensions": {REASON: reason}},
        )
    satisfy(
        db,
        user_id=learner_id,
        item_id=item.id,
        at=at,
        method=SatisfactionMethod.waived.value,
        session_id=session.session_id,
        statement_id=statement_id,
        reason=reason,
        waived_by=user.id,
    )
    log.info("lms unit waived item_id=%s learner_id=%s reason=%r by=%s", item.id, learner_id, reason, user.id)
    return ItemSatisfaction(item_id=item.id, method="waived", satisfied_at=at, reason=reason)


def course_satisfaction(
    db: Session, *, user: Principal, course_id: int, learner_id: int
) -> CourseSatisfaction:
    """What the learner satisfied of the course: those who may read the learner's attempts may read it."""
    if not service.may_read_attempts(db, user, learner_id):
        raise forbidden()
    course = service._live_course(db, course_id)
    rows = db.scalars(
        select(LmsSatisfaction)
        .where(LmsSatisfaction.user_id == learner_id, LmsSatisfaction.course_id == course.id)
        .order_by(LmsSatisfaction.id)
    ).all()
    return CourseSatisfaction(
        course_id=course.id,
        learner_id=learner_id,
        satisfied_at=next((row.satisfied_at for row in rows if row.item_id is None), None),
        items=[
            ItemSatisfaction(
                item_id=row.item_id,
                method=row.method,  # type: ignore[arg-type]
                satisfied_at=row.satisfied_at,
                reason=row.reason,
            )
            for row in rows
            if row.item_id is not None
        ],
        can_waive=policy.can_waive(user),
    )


# The launch applies these rules (lms.service builds nothing on this module: it is told of them here).
service.on_registration(registered)
service.reviewed_when(lambda db, user_id, item_id: is_satisfied(db, user_id, item_id, at_registration=False))
