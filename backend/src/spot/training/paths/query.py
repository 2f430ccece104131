"""The lists of training paths (spec 2 §3 path filter fields, the dashboards' further fields):

- entity `trainingPath`, POST /training/path/query: the paths the user may read (records.readable, in
  SQL), as PathCard (cards.CARD_COLUMNS and card_fields, one statement per page besides the page);
- entity `trainingPathModule`, POST /training/path/modules/query: the assigned modules of those paths
  with their grading and its validity (the periodic modules' dashboards), as AssignedModuleCard.

A filter on the modules of a path (module, referent, module_status, module_is_succeeded,
grading_valid_until) is `id IN (the paths of the matching module rows)`, which the database answers from
the module table's indexes (status, path_id), (module_id), (valid_until) and the referents' (user_id)."""

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, func, select
from sqlalchemy.orm import Session, aliased

from spot.core.principal import Principal
from spot.db import in_ids, plain
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey
from spot.references.models import Reference, ReferenceType
from spot.training.modules.models import ModuleType, TrainingModule
from spot.training.paths import cards, policy, records
from spot.training.paths.models import (
    ModuleStatus,
    PathStatus,
    TrainingPath,
    TrainingPathGrading,
    TrainingPathModule,
    TrainingPathReferent,
)
from spot.training.paths.schemas import AssignedModuleCard, PathCard
from spot.users.models import User

# The comparisons of a date filter on a calendar day column (querylang's date operators).
_ON_DAY = {
    "sameDay": lambda column, day: column == day,
    "before": lambda column, day: column < day,
    "beforeOrSameDay": lambda column, day: column <= day,
    "after": lambda column, day: column > day,
    "afterOrSameDay": lambda column, day: column >= day,
}


def _with_modules(*where: ColumnElement[bool]) -> ColumnElement[bool]:
    """The path has an assigned module matching `where`."""
    return TrainingPath.id.in_(select(TrainingPathModule.path_id).where(*where))


def _with_reference(codes: tuple[Any, ...]) -> ColumnElement[bool]:
    """The path's reference is one of these codes (path references); never NULL, so that noneOf keeps
    the paths without a reference."""
    return and_(
        TrainingPath.reference_id.is_not(None),
        TrainingPath.reference_id.in_(
            select(Reference.id).where(Reference.type == ReferenceType.path, Reference.code.in_(codes))
        ),
    )


def _with_referents(user_ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return TrainingPath.id.in_(
        select(TrainingPathReferent.path_id).where(TrainingPathReferent.user_id.in_(user_ids))
    )


def _module_succeeded(_operator: str, value: Any) -> ColumnElement[bool]:
    """The path has a module whose current grading is a success (true) or a failure (false); modules
    not graded are neither."""
    return _with_modules(TrainingPathModule.is_success.is_(bool(value)))


def _grading_valid_until(operator: str, value: Any) -> ColumnElement[bool]:
    """The path has a module whose current grading is valid until a day matching the operator."""
    assert isinstance(value, date)
    return _with_modules(_ON_DAY[operator](TrainingPathModule.valid_until, value))


TRAINING_PATH = register(
    EntityType(
        name="trainingPath",
        primary_key=TrainingPath.id,
        fields=[
            Field(
                "title",
                FieldType.STRING,
                column=TrainingPath.title,
                folded=TrainingPath.title_folded,
                sortable=True,
            ),
            Field("reference", FieldType.ID, matches=_with_reference, id_type=str),
            Field("learner", FieldType.ID, column=TrainingPath.learner_id),
            Field("status", FieldType.ENUM, column=TrainingPath.status, values=[s.value for s in PathStatus]),
            Field("creator", FieldType.ID, column=TrainingPath.creator_id),
            Field("creation_date", FieldType.DATE, column=TrainingPath.created_at, sortable=True),
            Field("start_date", FieldType.DATE, column=TrainingPath.start_date, sortable=True),
            Field("stop_date", FieldType.DATE, column=TrainingPath.stop_date, sortable=True),
            Field("acceptance_date", FieldType.DATE, column=TrainingPath.accepted_at),
            Field("validator", FieldType.ID, column=TrainingPath.validator_id),
            Field("validation_date", FieldType.DATE, column=TrainingPath.validated_at),
            Field("signature_date", FieldType.DATE, column=TrainingPath.signed_at),
            Field(
                "module",
                FieldType.ID,
                matches=lambda ids: _with_modules(TrainingPathModule.module_id.in_(ids)),
            ),
            Field("referent", FieldType.ID, matches=_with_referents),
            Field(
                "module_status",
                FieldType.ENUM,
                values=[s.value for s in ModuleStatus],
                matches=lambda statuses: _with_modules(TrainingPathModule.status.in_(statuses)),
            ),
            Field("module_is_succeeded", FieldType.BOOLEAN, clause=_module_succeeded),
            Field(
                "path_is_canceled", FieldType.BOOLEAN, column=TrainingPath.status == PathStatus.canceled.value
            ),
            Field("grading_valid_until", FieldType.DATE, clause=_grading_valid_until),
        ],
        default_sort=[SortKey("creation_date", descending=True)],
    )
)


def _visible_paths(_db: Session, user: Principal) -> Select[Any]:
    return select(*cards.CARD_COLUMNS).where(records.readable(user))


def _path_cards(db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    return cards.card_fields(db, rows)


TRAINING_PATHS = ListSpec(entity=TRAINING_PATH, card=PathCard, visible=_visible_paths, cards=_path_cards)


# Assigned modules --------------------------------------------------------------------------------------


def _module_referents(user_ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return TrainingPathModule.id.in_(
        select(TrainingPathReferent.path_module_id).where(TrainingPathReferent.user_id.in_(user_ids))
    )


TRAINING_PATH_MODULE = register(
    EntityType(
        name="trainingPathModule",
        primary_key=TrainingPathModule.id,
        fields=[
            Field("learner", FieldType.ID, column=TrainingPath.learner_id),
            Field("module", FieldType.ID, column=TrainingPathModule.module_id),
            Field("path", FieldType.ID, column=TrainingPathModule.path_id),
            Field(
                "status",
                FieldType.ENUM,
                column=TrainingPathModule.status,
                values=[s.value for s in ModuleStatus],
            ),
            Field(
                "path_status",
                FieldType.ENUM,
                column=TrainingPath.status,
                values=[s.value for s in PathStatus],
            ),
            Field(
                "module_type",
                FieldType.ENUM,
                column=TrainingModule.module_type,
                values=[t.value for t in ModuleType],
            ),
            Field("periodic", FieldType.BOOLEAN, column=TrainingModule.periodicity > 0),
            Field("is_succeeded", FieldType.BOOLEAN, column=TrainingPathModule.is_success),
            Field(
                "grading_valid_until", FieldType.DATE, column=TrainingPathModule.valid_until, sortable=True
            ),
            Field("referent", FieldType.ID, matches=_module_referents),
        ],
        default_sort=[SortKey("grading_valid_until")],
    )
)

MODULE_CARD_COLUMNS: tuple[Any, ...] = (
    TrainingPathModule.id,
    TrainingPathModule.path_id,
    TrainingPath.title,
    TrainingPath.status,
    TrainingPathModule.position,
    TrainingPath.learner_id,
    TrainingPath.creator_id,
    TrainingPathModule.module_id,
    TrainingModule.name,
    TrainingModule.goals,
    TrainingModule.module_type,
    TrainingModule.estimated_duration,
    TrainingModule.pass_threshold,
    TrainingModule.periodicity,
    TrainingModule.reference_id,
    TrainingPathModule.status,
    TrainingPathModule.start_date,
    TrainingPathModule.stop_date,
    TrainingPathModule.grade,
    TrainingPathModule.is_success,
    TrainingPathModule.valid_until,
    TrainingPathModule.graded_at,
)
_Learner = aliased(User)
_Referent = aliased(User)
_LATEST_GRADING = (
    select(TrainingPathGrading.id)
    .where(TrainingPathGrading.path_module_id == TrainingPathModule.id)
    .order_by(TrainingPathGrading.graded_at.desc(), TrainingPathGrading.id.desc())
    .limit(1)
    .correlate(TrainingPathModule)
    .scalar_subquery()
)


def _module_extras(user: Principal) -> Any:
    """What a page's module cards add to its rows, in one statement for the page: the learner's name,
    the module's reference, the current grading's comment and referent, and whether the user is a
    referent of the path (who sees grading: policy.sees_grading)."""
    refers = TrainingPathModule.path_id.in_(
        select(TrainingPathReferent.path_id).where(TrainingPathReferent.user_id == user.id)
    )
    return (
        select(
            TrainingPathModule.id,
            _Learner.display_name,
            Reference.code,
            Reference.label,
            Reference.description,
            TrainingPathGrading.comment,
            TrainingPathGrading.referent_id,
            func.coalesce(_Referent.display_name, TrainingPathGrading.referent_name),
            refers,
        )
        .join(TrainingPath, TrainingPath.id == TrainingPathModule.path_id)
        .join(TrainingModule, TrainingModule.id == TrainingPathModule.module_id)
        .outerjoin(_Learner, _Learner.id == TrainingPath.learner_id)
        .outerjoin(Reference, Reference.id == TrainingModule.reference_id)
        .outerjoin(TrainingPathGrading, TrainingPathGrading.id == _LATEST_GRADING)
        .outerjoin(_Referent, _Referent.id == TrainingPathGrading.referent_id)
        .where(in_ids(TrainingPathModule.id, "ids"))
    )


def _visible_modules(_db: Session, user: Principal) -> Select[Any]:
    return (
        select(*MODULE_CARD_COLUMNS)
        .join(TrainingPath, TrainingPath.id == TrainingPathModule.path_id)
        .join(TrainingModule, TrainingModule.id == TrainingPathModule.module_id)
        .where(records.readable(user))
    )


def _module_cards(db: Session, user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """AssignedModuleCard of each row of MODULE_CARD_COLUMNS as JSON-ready data; the grading only for
    those who see grading (policy.sees_grading)."""
    if not rows:
        return []
    extras = {
        row[0]: row[1:] for row in plain(db).execute(_module_extras(user), {"ids": [row[0] for row in rows]})
    }
    sees_every_grading = policy.sees_every_grading(user)
    cards = []
    for row in rows:
        (
            module_row_id,
            path_id,
            path_title,
            path_status,
            position,
            learner_id,
            creator_id,
            module_id,
            name,
            goals,
            module_type,
            duration,
            threshold,
            periodicity,
            _reference_id,
            status,
            start,
            stop,
            grade,
            is_success,
            valid_until,
            graded_at,
        ) = row
        learner, code, label, description, comment, referent_id, referent_name, refers = extras.get(
            module_row_id, (None,) * 7 + (False,)
        )
        sees = sees_every_grading or user.id in (learner_id, creator_id) or bool(refers)
        grading = None
        if sees and grade is not None and graded_at is not None:
            grading = {
                "grade": grade,
                "comment": comment or "",
                "isSuccess": bool(is_success),
                "referent": None if referent_id is None else {"id": referent_id, "name": referent_name or ""},
                "validUntil": records.validity(is_success, valid_until),
                "date": graded_at,
            }
        cards.append(
            {
                "pathId": path_id,
                "pathTitle": path_title,
                "pathStatus": path_status,
                "index": position,
                "learner": None
                if learner_id is None or learner is None
                else {"id": learner_id, "name": learner},
                "module": {
                    "id": module_id,
                    "name": name,
                    "reference": None
                    if code is None
                    else {"code": code, "label": label or "", "description": description or ""},
                    "goals": goals,
                    "moduleType": module_type,
                    "estimatedDuration": duration,
                    "passThreshold": threshold,
                    "periodicity": periodicity,
                },
                "status": status,
                "startDate": start,
                "stopDate": stop,
                "grading": grading,
            }
        )
    return cards


TRAINING_PATH_MODULES = ListSpec(
    entity=TRAINING_PATH_MODULE, card=AssignedModuleCard, visible=_visible_modules, cards=_module_cards
)
