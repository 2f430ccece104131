"""The history of each validation (docs/qualifications.md): every grading of a module for a person,
successful or failed, from every path of theirs (`training_path_grading`: a grade changed later keeps
its earlier rows), with its date, grade, referent, path and last valid day, and what it counts for
today.

What a grading counts for is read from the one rule of qualifications.validity, never restated here:
the hold of `module_hold` names the path of the person's latest successful grading, and the grading that
holds is that path's current successful grading of the module. Every other grading is told apart by
what the rule leaves out: a path canceled or a module disabled (nothing counts), a grade changed
afterwards (the assigned module's later grading replaced it), a failure (valid for nothing), or an
earlier success that a later one renewed. So an expired validation stays in the history as expired,
the dashboards showing it expired too (remaining days below 0, its last valid day), never as "never
validated".

One statement reads a person's gradings of the modules asked for, one their holds; the user
qualification dashboard answers it beside its elements, and the audit pack prints it."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from spot.qualifications import validity
from spot.qualifications.models import QualificationGroup, QualificationModule
from spot.querylang.text import fold
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import (
    ModuleStatus,
    PathStatus,
    TrainingPath,
    TrainingPathGrading,
    TrainingPathModule,
)
from spot.training.paths.records import validity as shown_validity
from spot.users.models import User, user_group


class GradingOutcome(StrEnum):
    """What a grading counts for today."""

    # The validation the person holds: valid today at least, or permanent.
    valid = "valid"
    # The validation the person holds, past its last valid day: expired, not "never validated".
    expired = "expired"
    # An earlier success that a later one replaced.
    renewed = "renewed"
    # A failure: valid for nothing.
    failed = "failed"
    # Its grade was changed afterwards: a later grading of the same assigned module replaced it.
    regraded = "regraded"
    # Its path was canceled or its assigned module disabled: it counts for nothing.
    canceled = "canceled"


@dataclass(frozen=True)
class Entry:
    """One grading of the module for the person."""

    grading_id: int
    graded_at: datetime
    grade: float
    success: bool
    # The last valid day; None for a failure (valid for nothing) or a permanent success.
    valid_until: date | None
    permanent: bool
    # The referent's account (None once gone), their current name (else the name stored when
    # grading), and whether they are still active (None once gone).
    referent_id: int | None
    referent_name: str
    referent_active: bool | None
    comment: str
    path_id: int
    path_title: str
    path_status: str
    outcome: GradingOutcome


@dataclass(frozen=True)
class ModuleHistory:
    module_id: int
    module_name: str
    # Newest first.
    entries: list[Entry]


def concerning_modules(user_id: int) -> Select[Any]:
    """The modules of the qualifications concerning the person (a member of one of their groups), as
    the user qualification dashboard lists them."""
    QG, QM = QualificationGroup, QualificationModule
    return (
        select(QM.module_id)
        .join(QG, QG.qualification_id == QM.qualification_id)
        .join(user_group, user_group.c.group_id == QG.group_id)
        .where(user_group.c.user_id == user_id)
    )


def of_person(
    db: Session, *, user_id: int, today: date, modules: Select[Any] | None = None
) -> list[ModuleHistory]:
    """The person's history of each module of `modules` (a SELECT of module ids; None: every module
    they were ever graded in) that they were graded in at least once, by module name; each module's
    gradings newest first."""
    G, M, P = TrainingPathGrading, TrainingPathModule, TrainingPath
    statement = (
        select(
            G.id,
            G.path_module_id,
            G.graded_at,
            G.grade,
            G.is_success,
            G.valid_until,
            G.referent_id,
            G.referent_name,
            User.display_name,
            User.active,
            G.comment,
            M.module_id,
            M.status,
            P.id,
            P.title,
            P.status,
            TrainingModule.name,
        )
        .join(M, M.id == G.path_module_id)
        .join(P, P.id == M.path_id)
        .join(TrainingModule, TrainingModule.id == M.module_id)
        .outerjoin(User, User.id == G.referent_id)
        .where(P.learner_id == user_id)
        .order_by(G.graded_at, G.id)
    )
    if modules is not None:
        statement = statement.where(M.module_id.in_(modules))
    rows = db.execute(statement).all()
    if not rows:
        return []
    module_ids = sorted({row[11] for row in rows})
    holds = validity.module_validities(
        db,
        learners=select(User.id).where(User.id == user_id),
        modules=select(TrainingModule.id).where(TrainingModule.id.in_(module_ids)),
        today=today,
    )
    # The latest grading of each assigned module is its current one; the earlier were regraded.
    current: dict[int, int] = {}
    for row in rows:
        current[row[1]] = row[0]
    # The grading that holds each module: the current success in the hold's validation path (of a path
    # that assigns the module twice, the one graded last, then the later assigned module, as the rule).
    holding: dict[int, tuple[datetime, int, int]] = {}
    for row in rows:
        grading_id, path_module_id, graded_at, _grade, success, *_rest = row
        module_id, module_status, path_id, path_status = row[11], row[12], row[13], row[15]
        if (
            success
            and current[path_module_id] == grading_id
            and _counted(path_status, module_status)
            and path_id == validity.of(holds, user_id, module_id).validation_path_id
        ):
            found = (graded_at, path_module_id, grading_id)
            holding[module_id] = max(holding.get(module_id, found), found)
    names: dict[int, str] = {}
    entries: dict[int, list[Entry]] = defaultdict(list)
    for row in rows:
        (
            grading_id,
            path_module_id,
            graded_at,
            grade,
            success,
            until,
            referent_id,
            stored_name,
            current_name,
            active,
            comment,
            module_id,
            module_status,
            path_id,
            path_title,
            path_status,
            module_name,
        ) = row
        names[module_id] = module_name
        if not _counted(path_status, module_status):
            outcome = GradingOutcome.canceled
        elif current[path_module_id] != grading_id:
            outcome = GradingOutcome.regraded
        elif not success:
            outcome = GradingOutcome.failed
        elif module_id in holding and holding[module_id][2] == grading_id:
            hold = validity.of(holds, user_id, module_id)
            outcome = (
                GradingOutcome.valid if validity.obtained(hold.remaining_days) else GradingOutcome.expired
            )
        else:
            outcome = GradingOutcome.renewed
        entries[module_id].append(
            Entry(
                grading_id=grading_id,
                graded_at=graded_at,
                grade=grade,
                success=bool(success),
                valid_until=shown_validity(success, until),
                permanent=bool(success) and until is None,
                referent_id=referent_id if current_name is not None else None,
                referent_name=current_name if current_name is not None else stored_name,
                referent_active=active,
                comment=comment,
                path_id=path_id,
                path_title=path_title,
                path_status=path_status,
                outcome=outcome,
            )
        )
    return [
        ModuleHistory(module_id=m, module_name=names[m], entries=entries[m][::-1])
        for m in sorted(entries, key=lambda m: (fold(names[m]), m))
    ]


def _counted(path_status: str, module_status: str) -> bool:
    """Whether the grading may count at all (qualifications.validity: a path not canceled, an assigned
    module not disabled)."""
    return path_status != PathStatus.canceled.value and module_status != ModuleStatus.disabled.value


def answer(histories: list[ModuleHistory]) -> list[dict[str, Any]]:
    """The histories as the user qualification dashboard answers them (schemas.ModuleHistoryOut)."""
    return [
        {
            "module": {"id": h.module_id, "name": h.module_name},
            "gradings": [
                {
                    "id": e.grading_id,
                    "gradedAt": e.graded_at,
                    "grade": e.grade,
                    "isSuccess": e.success,
                    "validUntil": e.valid_until,
                    "permanent": e.permanent,
                    "referent": None
                    if e.referent_id is None
                    else {"id": e.referent_id, "name": e.referent_name},
                    "trainingPath": {"id": e.path_id, "title": e.path_title, "status": e.path_status},
                    "outcome": e.outcome.value,
                }
                for e in h.entries
            ],
        }
        for h in histories
    ]
