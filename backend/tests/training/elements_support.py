"""Training path elements built directly in the database, for the tests of what each kind of element
counts (test_paths_elements) and of the element calls (test_paths_element_routes)."""

import uuid
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from spot import db as database
from spot.account.service import principal_of
from spot.core.history_models import HistoryEntry
from spot.core.signatures import Signature
from spot.core.time import utcnow
from spot.lms import satisfaction
from spot.lms.models import LmsAttempt, LmsCompletion, LmsItem, LmsStatement
from spot.mediations.models import Mediation
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths import elements
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathMediation,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisit,
)
from support import API

PATHS = f"{API}/training/path"
ADMIN = "perm_TrainingPathAdmin"


# Building paths directly in the database -----------------------------------------------------------


def make_module(
    db: Session, items: list[dict[str, Any]], *, name: str = "Consignation", **fields: Any
) -> int:
    """A module whose elements are these columns of training_module_item (kind first)."""
    module = TrainingModule(name=name, created_at=utcnow(), **fields)
    db.add(module)
    db.flush()
    for position, item in enumerate(items):
        db.add(TrainingModuleItem(module_id=module.id, position=position, **item))
    db.commit()
    return module.id


def url_item(label: str = "INRS") -> dict[str, Any]:
    return {"kind": "url", "url": "https://www.inrs.fr", "label": label}


def spot_item(kind: str, item_id: int) -> dict[str, Any]:
    return {"kind": "spot", "spot_item_type": kind, "spot_item_id": item_id}


def mediation_item(title: str = "Démonstration") -> dict[str, Any]:
    return {"kind": "mediation", "title": title, "description": "Au poste"}


def lms_item(item_id: int) -> dict[str, Any]:
    return {"kind": "lms", "lms_item_id": item_id}


def make_path(
    db: Session,
    *,
    learner_id: int | None,
    creator_id: int | None = None,
    modules: list[tuple[int, list[int]]],
    status: str = "started",
    module_status: str = "started",
    started_at: datetime | None = None,
    title: str = "Parcours",
    **fields: Any,
) -> int:
    """A path assigning these (module id, referent ids), every module in `module_status`."""
    now = utcnow()
    today = date.today()
    values: dict[str, Any] = {
        "title": title,
        "learner_id": learner_id,
        "creator_id": creator_id,
        "status": status,
        "created_at": now,
        "status_changed_at": now,
        "start_date": today - timedelta(days=10),
        "stop_date": today + timedelta(days=30),
        **fields,
    }
    path = TrainingPath(**values)
    db.add(path)
    db.flush()
    for position, (module_id, referents) in enumerate(modules):
        row = TrainingPathModule(
            path_id=path.id,
            position=position,
            module_id=module_id,
            start_date=values["start_date"],
            stop_date=values["stop_date"],
            status=module_status,
            status_changed_at=now,
            started_at=started_at if started_at is not None else (now - timedelta(days=1)),
        )
        db.add(row)
        db.flush()
        for user_id in referents:
            db.add(TrainingPathReferent(path_module_id=row.id, user_id=user_id, path_id=path.id))
    db.commit()
    return path.id


def loaded(db: Session, path_id: int) -> tuple[TrainingPath, list[TrainingPathModule]]:
    db.expire_all()
    path = db.get(TrainingPath, path_id)
    assert path is not None
    modules = list(
        db.scalars(
            select(TrainingPathModule)
            .where(TrainingPathModule.path_id == path_id)
            .order_by(TrainingPathModule.position)
        )
    )
    return path, modules


def progress_of(db: Session, path_id: int) -> list[tuple[int, int]]:
    path, modules = loaded(db, path_id)
    by_id = elements.progress(db, path=path, modules=modules)
    return [by_id[m.id] for m in modules]


def results_of(db: Session, user_id: int, path_id: int) -> list[list[dict[str, Any]]]:
    path, modules = loaded(db, path_id)
    by_id = elements.results(db, user=principal_of(db, user_id=user_id), path=path, modules=modules)
    return [[r.model_dump(mode="json", by_alias=True) for r in by_id[m.id]] for m in modules]


def visit(db: Session, path_id: int, index: int, position: int, at: datetime | None = None) -> None:
    path_module = db.scalar(
        select(TrainingPathModule).where(
            TrainingPathModule.path_id == path_id, TrainingPathModule.position == index
        )
    )
    assert path_module is not None
    item_id = db.scalar(
        select(TrainingModuleItem.id).where(
            TrainingModuleItem.module_id == path_module.module_id, TrainingModuleItem.position == position
        )
    )
    db.add(TrainingPathVisit(path_module_id=path_module.id, module_item_id=item_id, done_at=at or utcnow()))
    db.commit()


def read_subject(db: Session, user_id: int, subject_id: int, at: datetime) -> None:
    db.add(HistoryEntry(at=at, user_id=user_id, item_type="subject", item_id=subject_id, mode="R"))
    db.commit()


def make_mediation(
    db: Session, *, status: str = "validated", title: str = "Tour d'atelier", **fields: Any
) -> int:
    now = utcnow()
    row = Mediation(title=title, status=status, created_at=now, updated_at=now, **fields)
    db.add(row)
    db.commit()
    return row.id


def sign_mediation(db: Session, mediation_id: int, user_id: int, *, revoked: bool = False) -> datetime:
    at = utcnow().replace(microsecond=0)
    db.add(
        Signature(
            record_type="mediation",
            record_id=mediation_id,
            signer_id=user_id,
            signer_name="Léa",
            signed_at=at,
            meaning="attendanceAndAgreement",
            content_hash="0" * 64,
            revoked_at=utcnow() if revoked else None,
        )
    )
    db.commit()
    return at


def attach_directly(db: Session, path_id: int, index: int, position: int, mediation_id: int) -> None:
    path_module = db.scalar(
        select(TrainingPathModule).where(
            TrainingPathModule.path_id == path_id, TrainingPathModule.position == index
        )
    )
    assert path_module is not None
    item_id = db.scalar(
        select(TrainingModuleItem.id).where(
            TrainingModuleItem.module_id == path_module.module_id, TrainingModuleItem.position == position
        )
    )
    db.add(
        TrainingPathMediation(
            path_module_id=path_module.id,
            module_item_id=item_id,
            mediation_id=mediation_id,
            attached_at=utcnow(),
        )
    )
    db.commit()


def _statement(db: Session, user_id: int, item_id: int, verb: str = "completed") -> int:
    row = LmsStatement(
        statement_id=str(uuid.uuid4()),
        user_id=user_id,
        item_id=item_id,
        registration=str(uuid.uuid4()),
        verb=f"http://adlnet.gov/expapi/verbs/{verb}",
        content="{}",
        stored_at=utcnow(),
    )
    db.add(row)
    db.flush()
    return row.id


def complete(db: Session, user_id: int, item_id: int) -> datetime:
    """A completion, and the unit satisfied when its moveOn asks for it, as the platform records them."""
    at = utcnow().replace(microsecond=0)
    db.add(
        LmsCompletion(
            user_id=user_id, item_id=item_id, statement_id=_statement(db, user_id, item_id), completed_at=at
        )
    )
    _satisfy(db, user_id, item_id, at, ("Completed", "CompletedOrPassed"))
    db.commit()
    return at


def _satisfy(db: Session, user_id: int, item_id: int, at: datetime, move_ons: tuple[str, ...]) -> None:
    item = db.get(LmsItem, item_id)
    if item is not None and item.move_on in move_ons:
        satisfaction.satisfy(db, user_id=user_id, item_id=item_id, at=at)


def attempt(
    db: Session, user_id: int, quiz_id: int, grade: float, *, success: bool, minutes_ago: int = 0
) -> int:
    row = LmsAttempt(
        user_id=user_id,
        item_id=quiz_id,
        statement_id=_statement(db, user_id, quiz_id, "passed" if success else "failed"),
        registration="r",
        grade=grade,
        success=success,
        at=utcnow().replace(microsecond=0) - timedelta(minutes=minutes_ago),
    )
    db.add(row)
    if success:
        _satisfy(db, user_id, quiz_id, row.at, ("Passed", "CompletedOrPassed"))
    db.commit()
    return row.id


def counted(action: Callable[[], Any]) -> int:
    engine = database.get_engine()
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


def people_of(make_user: Any) -> dict[str, Any]:
    return {
        "learner": make_user("apprenant", first_name="Léa", last_name="Apprenant"),
        "creator": make_user("createur", ["perm_TrainingManagement"]),
        "referent": make_user("referent"),
        "admin": make_user("admin", [ADMIN]),
        "other": make_user("autre"),
    }
