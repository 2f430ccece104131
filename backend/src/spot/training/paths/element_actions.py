"""The actions on a training path's elements (spec 2 §3): the learner opens a url or spot element
(`record_open`), a referent of the module or an administrator attaches a mediation to a mediation
element or detaches it (`attach`, `detach`). Each is checked against the path's rules (policy.py),
recorded in the path's history, and leaves the path's stored progress as it made it
(elements.refresh)."""

from typing import Any

from sqlalchemy import ColumnElement, insert, select
from sqlalchemy import delete as delete_statement
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, conflict, forbidden, illegal_transition, not_found
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.mediations import service as mediations
from spot.mediations.models import Mediation, MediationStatus
from spot.training.modules.models import ItemKind, TrainingModuleItem
from spot.training.paths import elements, policy, records
from spot.training.paths.models import (
    PathEvent,
    PathStatus,
    TrainingPath,
    TrainingPathMediation,
    TrainingPathModule,
    TrainingPathVisit,
)

MEDIATION_CANCELED = "mediationCanceled"


def _item_at(db: Session, module: TrainingPathModule, result_index: int) -> Any:
    """The module's element at this position (the resultIndex of the calls); 404 notFound past its end."""
    row = db.execute(
        select(TrainingModuleItem.id, TrainingModuleItem.kind).where(
            TrainingModuleItem.module_id == module.module_id, TrainingModuleItem.position == result_index
        )
    ).first()
    if row is None:
        raise not_found("notFound")
    return row


def _facts(
    db: Session, path: TrainingPath, module: TrainingPathModule
) -> tuple[policy.Facts, policy.ModuleFacts]:
    """What the element rules look at: the path's facts as records.facts reads them, for this module
    alone (the other modules play no part in them)."""
    facts = records.facts(db, path, [module])
    return facts, facts.modules[0]


def _illegal(path: TrainingPath, module: TrainingPathModule) -> ApiError:
    """409 illegalTransition naming the status in the way: the path's while it is not started, else the
    module's."""
    return illegal_transition(path.status if path.status != PathStatus.started else module.status)


def _wrong_kind(kind: str) -> ApiError:
    return illegal_transition(kind, field="type")


def record_open(
    db: Session, *, user: Principal, path: TrainingPath, module: TrainingPathModule, result_index: int
) -> None:
    """The learner opened a url or spot element from the path: its first opening is its doneAt (and a
    history entry); later ones change nothing. Only the learner (403), path started and module started
    or finished (409 illegalTransition), a url or spot element (409, field `type`)."""
    item = _item_at(db, module, result_index)
    facts, module_facts = _facts(db, path, module)
    if not policy.is_learner(user, facts):
        raise forbidden()
    if not policy.can_open_elements(user, facts, module_facts):
        raise _illegal(path, module)
    if item.kind not in (ItemKind.url, ItemKind.spot):
        raise _wrong_kind(item.kind)
    seen = db.scalar(
        select(TrainingPathVisit.done_at).where(
            TrainingPathVisit.path_module_id == module.id, TrainingPathVisit.module_item_id == item.id
        )
    )
    if seen is not None:
        return
    db.execute(
        insert(TrainingPathVisit).values(path_module_id=module.id, module_item_id=item.id, done_at=utcnow())
    )
    _record(db, user, path, PathEvent.elementOpened, module)


def _mediation_action(
    db: Session,
    user: Principal,
    path: TrainingPath,
    module: TrainingPathModule,
    result_index: int,
    mediation_id: int,
) -> tuple[int, Mediation]:
    """The checks of attach and detach; the element's id and the mediation."""
    item = _item_at(db, module, result_index)
    facts, module_facts = _facts(db, path, module)
    if not policy.module_referent_or_admin(user, facts, module_facts):
        raise forbidden()
    if not policy.can_manage_mediations(user, facts, module_facts):
        raise _illegal(path, module)
    if item.kind != ItemKind.mediation:
        raise _wrong_kind(item.kind)
    mediation = mediations.load(db, user=user, mediation_id=mediation_id)  # 404 mediationNotFound, 403
    return int(item.id), mediation


def _attached(module: TrainingPathModule, item_id: int, mediation_id: int) -> ColumnElement[bool]:
    return (
        (TrainingPathMediation.path_module_id == module.id)
        & (TrainingPathMediation.module_item_id == item_id)
        & (TrainingPathMediation.mediation_id == mediation_id)
    )


def attach(
    db: Session,
    *,
    user: Principal,
    path: TrainingPath,
    module: TrainingPathModule,
    result_index: int,
    mediation_id: int,
) -> None:
    """Attach a mediation the user may read to a mediation element: a referent of the module or an
    administrator (403), path started and module started or finished (409), a mediation that is not
    canceled (409 mediationCanceled: it would never be validated, nor the element done). Attaching it
    again changes nothing."""
    item_id, mediation = _mediation_action(db, user, path, module, result_index, mediation_id)
    if mediation.status == MediationStatus.canceled:
        raise conflict(MEDIATION_CANCELED)
    if db.scalar(select(TrainingPathMediation.mediation_id).where(_attached(module, item_id, mediation_id))):
        return
    db.execute(
        insert(TrainingPathMediation).values(
            path_module_id=module.id,
            module_item_id=item_id,
            mediation_id=mediation_id,
            attached_at=utcnow(),
            attached_by=user.id,
        )
    )
    _record(db, user, path, PathEvent.mediationAttached, module)


def detach(
    db: Session,
    *,
    user: Principal,
    path: TrainingPath,
    module: TrainingPathModule,
    result_index: int,
    mediation_id: int,
) -> None:
    """Detach a mediation from the element, with the rules of attach; 404 notFound when it is not
    attached there."""
    item_id, _mediation = _mediation_action(db, user, path, module, result_index, mediation_id)
    removed = db.execute(
        delete_statement(TrainingPathMediation).where(_attached(module, item_id, mediation_id))
    )
    if removed.rowcount == 0:  # type: ignore[attr-defined]
        raise not_found("notFound")
    _record(db, user, path, PathEvent.mediationDetached, module)


def _record(
    db: Session, user: Principal, path: TrainingPath, event: PathEvent, module: TrainingPathModule
) -> None:
    """The action's history row, and the path's progress as the action left it (an element done may
    finish its module)."""
    records.record(db, user=user, path=path, event=event, position=module.position)
    elements.refresh(db, path)
