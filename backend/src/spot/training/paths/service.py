"""Training paths (docs/training-paths.md): the actions of the path and assigned-module state machines
of spec 2 §4 (tables in transitions.py), gradings, and the learner's and the validator's signatures
(core.signatures). The area's other modules, from the lowest: records.py (who reads a path, its facts,
history and version), elements.py (what the learner did, the stored progress), transitions.py (the
tables and `can`), view.py (the page), cards.py (the lists' cards), form.py (create, update, delete).

Reports, dashboards and the demo reach the area through this module: it gives again, under their own
names (`X as X`), the few functions and constants of the lower modules they use."""

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.models import SessionToken
from spot.core import signatures
from spot.core.errors import ApiError, FieldError, not_found
from spot.core.principal import Principal
from spot.core.time import today, utcnow
from spot.training.modules.models import TrainingModule
from spot.training.paths import elements, policy
from spot.training.paths.elements import refresh as refresh
from spot.training.paths.form import create as create
from spot.training.paths.form import open_by_spot as open_by_spot
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import TrainingPath, TrainingPathGrading, TrainingPathModule
from spot.training.paths.records import (
    ACKNOWLEDGEMENT,
    APPROVAL,
    EMPTY,
    FORM_ERRORS,
    GRADE_CHANGED,
    GRADE_SCALE,
    compare_and_set,
    facts,
    record,
    stale,
)
from spot.training.paths.records import MODULE_RECORD as MODULE_RECORD
from spot.training.paths.records import PATH_RECORD as PATH_RECORD
from spot.training.paths.records import SPOT as SPOT
from spot.training.paths.records import add_months as add_months
from spot.training.paths.records import load as load
from spot.training.paths.records import module_at as module_at
from spot.training.paths.records import module_content as module_content
from spot.training.paths.records import modules_of as modules_of
from spot.training.paths.records import on_change as on_change
from spot.training.paths.records import path_content as path_content
from spot.training.paths.records import readable as readable
from spot.training.paths.records import round_grade as round_grade
from spot.training.paths.records import signature_lists as signature_lists
from spot.training.paths.records import validity as validity
from spot.training.paths.schemas import GradeBody, SignBody, ValidateBody
from spot.training.paths.transitions import MODULE, PATH, ModuleTransition, OnModule, PathTransition


def reload(db: Session, *, user: Principal, path_id: int) -> None:
    """The view's reload button (`POST …/update`): the elements read again and the progress stored."""
    elements.refresh(db, load(db, user=user, path_id=path_id, for_update=True))


# Path actions ---------------------------------------------------------------------------------


def _path_action(
    db: Session, *, user: Principal, path_id: int, action: str, values: dict[str, Any] | None = None
) -> tuple[TrainingPath, PathTransition]:
    path = load(db, user=user, path_id=path_id, for_update=True)
    f = facts(db, path)
    transition = PATH.check(user, f, action)
    compare_and_set(db, path, f.status, transition.target, values)
    return path, transition


def accept(db: Session, *, user: Principal, path_id: int) -> None:
    """The learner accepts the path (its stop date not past)."""
    path, transition = _path_action(
        db, user=user, path_id=path_id, action="accept", values={"accepted_at": utcnow()}
    )
    record(db, user=user, path=path, event=transition.event)


def start(db: Session, *, user: Principal, path_id: int) -> None:
    """The creator, an administrator or a referent starts the accepted path."""
    path, transition = _path_action(db, user=user, path_id=path_id, action="start")
    record(db, user=user, path=path, event=transition.event)


def cancel(db: Session, *, user: Principal, path_id: int) -> None:
    """The creator or an administrator cancels an accepted path that is not archived."""
    path, transition = _path_action(db, user=user, path_id=path_id, action="cancel")
    record(db, user=user, path=path, event=transition.event)


def validate(
    db: Session, *, user: Principal, session: SessionToken, path_id: int, data: ValidateBody
) -> None:
    """Closing: the creator or an administrator validates the finished path with a comment and signs it
    (meaning approval; 401 reauthenticationRequired without a recent password). The closing warnings
    are shown beforehand, never a refusal."""
    values = {"validator_id": user.id, "validation_comment": data.comment, "validated_at": utcnow()}
    path, transition = _path_action(db, user=user, path_id=path_id, action="validate", values=values)
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=PATH_RECORD,
        record_id=path.id,
        meaning=APPROVAL,
        content=path_content(path, modules_of(db, path.id)),
    )
    record(db, user=user, path=path, event=transition.event, comment=data.comment)


def sign(db: Session, *, user: Principal, session: SessionToken, path_id: int, data: SignBody) -> None:
    """The learner signs the closed path once every module is signed (meaning acknowledgement), with a
    comment and a satisfaction; 401 reauthenticationRequired without a recent password."""
    values = {
        "signature_comment": data.comment,
        "signature_satisfaction": data.satisfaction,
        "signed_at": utcnow(),
    }
    path, transition = _path_action(db, user=user, path_id=path_id, action="sign", values=values)
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=PATH_RECORD,
        record_id=path.id,
        meaning=ACKNOWLEDGEMENT,
        content=path_content(path, modules_of(db, path.id)),
    )
    record(db, user=user, path=path, event=transition.event, comment=data.comment)


# Module actions -------------------------------------------------------------------------------


def _module_action(
    db: Session, *, user: Principal, path_id: int, module_index: int, action: str, version: int | None = None
) -> tuple[TrainingPath, TrainingPathModule, policy.Facts, policy.ModuleFacts, ModuleTransition]:
    """The path (locked), the module, their facts and the transition `action` allowed from the module's
    status; 409 staleVersion first when `version` (the client's) is not the path's."""
    path = load(db, user=user, path_id=path_id, for_update=True)
    if version is not None and version != path.version:
        raise stale()
    modules = modules_of(db, path.id)
    if not 0 <= module_index < len(modules):
        raise not_found()
    f = facts(db, path, modules)
    m = f.modules[module_index]
    return path, modules[module_index], f, m, MODULE.check(user, OnModule(f, m), action)


def start_now(db: Session, *, user: Principal, path_id: int, module_index: int) -> None:
    """A referent of the module or an administrator starts it (path started): spot elements count the
    subjects read from now on."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="startNow"
    )
    compare_and_set(db, module, m.status, transition.target, {"started_at": utcnow()})
    record(db, user=user, path=path, event=transition.event, position=module.position)


def disable(db: Session, *, user: Principal, path_id: int, module_index: int) -> None:
    """The module leaves the path's totals and closing (spec 2 §4 Disable a module)."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="disable"
    )
    compare_and_set(db, module, m.status, transition.target)
    record(db, user=user, path=path, event=transition.event, position=module.position)
    elements.refresh(db, path)  # out of the totals; the path finishes if every other module is closed


def validate_grade(data: GradeBody) -> float:
    """The grade rounded, or 400 atLeastOneErrorLeft: grade set (emptyFieldError) and within 0–10
    (valueMustBeBetween), a comment (emptyFieldError)."""
    errors: list[FieldError] = []
    if data.grade is None:
        errors.append(FieldError(field="grade", code=EMPTY))
    elif not 0 <= data.grade <= GRADE_SCALE:
        errors.append(FieldError(field="grade", code="valueMustBeBetween"))
    if not data.comment.strip():
        errors.append(FieldError(field="comment", code=EMPTY))
    if errors or data.grade is None:
        raise ApiError(400, FORM_ERRORS, errors)
    return round_grade(data.grade)


def grade(db: Session, *, user: Principal, path_id: int, module_index: int, data: GradeBody) -> None:
    """Grade and close the module, or change its grade (spec 2 §4): a grading row (the earlier ones
    stay), the module's current grading, success against the module's threshold, a success valid for
    the module's periodicity (a failure for nothing). Regrading an archived module revokes the
    learner's signature of it (gradeChanged): they sign again. A body whose version is not the
    path's answers 409 staleVersion."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="grade", version=data.version
    )
    value = validate_grade(data)
    threshold, periodicity = db.execute(
        select(TrainingModule.pass_threshold, TrainingModule.periodicity).where(
            TrainingModule.id == module.module_id
        )
    ).one()
    now = utcnow()
    success = value >= threshold
    valid_until = add_months(today(), periodicity) if success and periodicity > 0 else None
    db.add(
        TrainingPathGrading(
            path_module_id=module.id,
            grade=value,
            comment=data.comment,
            is_success=success,
            referent_id=user.id,
            referent_name=user.display_name,
            valid_until=valid_until,
            graded_at=now,
        )
    )
    db.flush()
    values: dict[str, Any] = {
        "grade": value,
        "is_success": success,
        "valid_until": valid_until,
        "graded_at": now,
    }
    if m.status == M.archived:
        signatures.revoke_all(
            db, record_type=MODULE_RECORD, record_id=module.id, reason=GRADE_CHANGED, by=user
        )
        values |= {"signature_comment": None, "signature_satisfaction": None, "signed_at": None}
    try:
        compare_and_set(db, module, m.status, transition.target, values)
    except ApiError:
        if data.version is None:
            raise
        raise stale() from None  # another grading came first: the version read is stale
    record(
        db,
        user=user,
        path=path,
        event=transition.event,
        position=module.position,
        grade=value,
        comment=data.comment,
    )
    elements.refresh(db, path)  # the path finishes once every module is closed


def sign_module(
    db: Session, *, user: Principal, session: SessionToken, path_id: int, module_index: int, data: SignBody
) -> None:
    """The learner signs the graded module (meaning acknowledgement, record trainingPathModule), with a
    comment and a satisfaction; 401 reauthenticationRequired without a recent password."""
    path, module, _f, m, transition = _module_action(
        db, user=user, path_id=path_id, module_index=module_index, action="sign"
    )
    values = {
        "signature_comment": data.comment,
        "signature_satisfaction": data.satisfaction,
        "signed_at": utcnow(),
    }
    compare_and_set(db, module, m.status, transition.target, values)
    name = db.scalar(select(TrainingModule.name).where(TrainingModule.id == module.module_id)) or ""
    comment = db.scalar(
        select(TrainingPathGrading.comment)
        .where(TrainingPathGrading.path_module_id == module.id)
        .order_by(TrainingPathGrading.graded_at.desc(), TrainingPathGrading.id.desc())
        .limit(1)
    )
    signatures.sign(
        db,
        user=user,
        session=session,
        record_type=MODULE_RECORD,
        record_id=module.id,
        meaning=ACKNOWLEDGEMENT,
        content=module_content(path, module, module_name=name, comment=comment),
    )
    record(db, user=user, path=path, event=transition.event, position=module.position, comment=data.comment)
