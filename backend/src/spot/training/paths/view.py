"""A training path's page (PathOut): the path with its reference, modules and their summaries, elements'
results, gradings, signatures, history and `can`, read in a fixed number of statements. A read writes
nothing: the progress it shows was stored where what the learner did changed (elements.py)."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    Date,
    Integer,
    String,
    bindparam,
    cast,
    literal,
    literal_column,
    null,
    select,
    union_all,
)
from sqlalchemy.orm import Session, aliased

from spot.core.principal import Principal
from spot.db import in_ids, plain
from spot.references.models import Reference
from spot.training.modules.models import TrainingModule
from spot.training.paths import elements, policy
from spot.training.paths.completion import completion
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathStatus as P
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathGrading,
    TrainingPathHistory,
    TrainingPathModule,
)
from spot.training.paths.records import (
    GROUP,
    MODULE_RECORD,
    NAMED,
    PATH_RECORD,
    PERSON,
    REFERENT,
    SPOT,
    facts_from,
    links_of,
    module_content,
    path_content,
    person,
    readable,
    readable_row,
    reference_of,
    round_grade,
    signature_lists,
    validity,
)
from spot.training.paths.schemas import ClosingWarning, PathOut
from spot.training.paths.transitions import module_can, path_can
from spot.users import service as users
from spot.users.models import User

_ModuleReference = aliased(Reference)
# What the page's first statement reads beside the path and whether the user may read it: its
# reference, then each assigned module (by index) with its module's summary (a path without module is
# one row with nulls there).
_PAGE_COLUMNS = (
    Reference.code,
    Reference.label,
    Reference.description,
    TrainingPathModule,
    TrainingModule.name,
    TrainingModule.goals,
    TrainingModule.module_type,
    TrainingModule.estimated_duration,
    TrainingModule.pass_threshold,
    TrainingModule.periodicity,
    _ModuleReference.code,
    _ModuleReference.label,
    _ModuleReference.description,
)


def _load_page(
    db: Session, user: Principal, path_id: int
) -> tuple[TrainingPath, dict[str, Any] | None, list[TrainingPathModule], dict[int, dict[str, Any]]]:
    """The path (404, 403 as load), its reference, its assigned modules by index and their modules'
    summaries by training_module.id, in one statement."""
    rows = db.execute(
        select(TrainingPath, readable(user), *_PAGE_COLUMNS)
        .outerjoin(Reference, Reference.id == TrainingPath.reference_id)
        .outerjoin(TrainingPathModule, TrainingPathModule.path_id == TrainingPath.id)
        .outerjoin(TrainingModule, TrainingModule.id == TrainingPathModule.module_id)
        .outerjoin(_ModuleReference, _ModuleReference.id == TrainingModule.reference_id)
        .where(TrainingPath.id == path_id)
        .order_by(TrainingPathModule.position)
        .execution_options(populate_existing=True)
    ).all()
    first = readable_row(rows[0] if rows else None)
    modules: list[TrainingPathModule] = []
    summaries: dict[int, dict[str, Any]] = {}
    for row in rows:
        module = row[5]
        if module is None:
            continue
        modules.append(module)
        summaries[module.module_id] = {
            "id": module.module_id,
            "name": row[6],
            "goals": row[7],
            "module_type": row[8],
            "estimated_duration": row[9],
            "pass_threshold": row[10],
            "periodicity": row[11],
            "reference": reference_of(row[12], row[13], row[14]),
        }
    return first[0], reference_of(*first[2:5]), modules, summaries


_GRADING, _EVENT = "g", "h"


def _records_statement() -> Any:
    """The gradings of the path's modules (owner: the assigned module) and the path's history (owner:
    the module's index, null for the path), oldest first, with the current name of the person of each
    (null once the person is gone) beside the name stored, in one statement."""
    G, H = TrainingPathGrading, TrainingPathHistory
    return union_all(
        select(
            literal(_GRADING).label("kind"),
            G.path_module_id.label("owner"),
            G.graded_at.label("at"),
            G.id.label("id"),
            G.referent_id.label("user_id"),
            User.display_name.label("name"),
            G.referent_name.label("stored_name"),
            G.grade.label("grade"),
            G.comment.label("comment"),
            G.is_success.label("is_success"),
            G.valid_until.label("valid_until"),
            cast(null(), String).label("event"),
        )
        .outerjoin(User, User.id == G.referent_id)
        .where(in_ids(G.path_module_id, "module_ids")),
        select(
            literal(_EVENT),
            H.position,
            H.at,
            H.id,
            H.user_id,
            User.display_name,
            H.user_name,
            H.grade,
            H.comment,
            cast(null(), Boolean),
            cast(null(), Date),
            H.event,
        )
        .outerjoin(User, User.id == H.user_id)
        .where(H.path_id == bindparam("path_id", type_=Integer)),
    ).order_by(literal_column("at"), literal_column("id"))


_RECORDS = _records_statement()


def _records(
    db: Session, path: TrainingPath, module_ids: Sequence[int]
) -> tuple[dict[int, list[Any]], list[Any]]:
    """The gradings of each assigned module and the path's history, oldest first (_records_statement)."""
    gradings: dict[int, list[Any]] = defaultdict(list)
    history: list[Any] = []
    for row in plain(db).execute(_RECORDS, {"module_ids": list(module_ids), "path_id": path.id}):
        if row.kind == _GRADING:
            gradings[row.owner].append(row)
        else:
            history.append(row)
    return gradings, history


def closing_warnings(
    path: TrainingPath, modules: Sequence[TrainingPathModule], f: policy.Facts
) -> list[ClosingWarning]:
    """What closing the path now warns about (spec 2 §4 Validate, §8), while it is finished."""
    if path.status != P.finished:
        return []
    live = [m for m in modules if m.status != M.disabled]
    signed = {m.id for m in f.modules if m.signed_by_learner}
    warnings: list[ClosingWarning] = []
    if any(m.is_success is not True for m in live):
        warnings.append("atLeastOneModuleNotPassed")
    if any(m.status == M.validated for m in live):
        warnings.append("atLeastOneModuleNotSignedByLearner")
    if any(m.id not in signed for m in modules):
        warnings.append("atLeastOneModuleNotSigned")
    return warnings


def _average(modules: Sequence[TrainingPathModule]) -> float | None:
    grades = [m.grade for m in modules if m.status != M.disabled and m.grade is not None]
    return round_grade(sum(grades) / len(grades)) if grades else None


def view(
    db: Session,
    *,
    user: Principal,
    path: TrainingPath,
    reference: dict[str, Any] | None,
    summaries: dict[int, dict[str, Any]],
    modules: Sequence[TrainingPathModule],
    facts: elements.Facts,
) -> PathOut:
    """The path as `user` sees it (grades only for those who may see grading), with `can`, from what
    get read: its reference, its modules' summaries, its modules as refresh left them, and their
    elements."""
    module_ids = [m.id for m in modules]
    links = links_of(db, path, module_ids, (path.learner_id, path.creator_id, path.validator_id))
    f = facts_from(path, modules, links)
    grading = policy.sees_grading(user, f)
    gradings, history = _records(db, path, module_ids)
    names = {person_id: name for person_id, _id, name in links[NAMED]}
    results = elements.results(db, user=user, path=path, modules=modules, facts=facts)

    def people(pairs: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
        return sorted(({"id": i, "name": n} for i, n in pairs), key=lambda p: (p["name"], p["id"]))

    def grading_out(g: Any) -> dict[str, Any]:
        return {
            "grade": g.grade,
            "comment": g.comment,
            "is_success": g.is_success,
            "referent": None
            if g.user_id is None
            else {"id": g.user_id, "name": g.name if g.name is not None else g.stored_name},
            "valid_until": validity(g.is_success, g.valid_until),
            "date": g.at,
        }

    referents: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for module_id, user_id, name in links[REFERENT]:
        referents[module_id].append((user_id, name))
    contents: list[tuple[str, int, Any]] = [(PATH_RECORD, path.id, path_content(path, modules))]
    for module in modules:
        rows = gradings.get(module.id, [])
        name = summaries[module.module_id]["name"]
        comment = rows[-1].comment if rows else None
        contents.append(
            (MODULE_RECORD, module.id, module_content(path, module, module_name=name, comment=comment))
        )
    signed = signature_lists(db, contents)
    assigned = []
    for module, m in zip(modules, f.modules, strict=True):
        summary = summaries[module.module_id]
        rows = gradings.get(module.id, [])
        current = rows[-1] if rows else None
        assigned.append(
            {
                "index": module.position,
                "module": summary,
                "referents": people(referents[module.id]),
                "start_date": module.start_date,
                "stop_date": module.stop_date,
                "status": module.status,
                "disabled": module.status == M.disabled,
                "started_at": module.started_at,
                "total_items": module.total_items,
                "done_items": module.done_items,
                "completion": completion(module.done_items, module.total_items),
                "results": results.get(module.id, []),
                "grading": grading_out(current) if grading and current is not None else None,
                "gradings": [grading_out(g) for g in rows] if grading else [],
                "signature": None
                if module.signed_at is None
                else {
                    "comment": module.signature_comment or "",
                    "satisfaction": module.signature_satisfaction or 1,
                    "date": module.signed_at,
                },
                "signatures": signed[(MODULE_RECORD, module.id)],
                "can": module_can(user, f, m),
            }
        )
    live = [m for m in modules if m.status != M.disabled]
    return PathOut.model_validate(
        {
            "id": path.id,
            "title": path.title,
            "reference": reference,
            "learner": person(path.learner_id, names.get(path.learner_id or -1)),
            "start_date": path.start_date,
            "stop_date": path.stop_date,
            "status": path.status,
            "pass_threshold": path.pass_threshold,
            "visible_by_persons": people((i, n) for _, i, n in links[PERSON]),
            "visible_by_groups": [
                {"id": i, "name": n} for _, i, n in sorted(links[GROUP], key=lambda g: (g[2], g[1]))
            ],
            "opened_by_spot": path.opened_by_spot,
            "creation": {
                "user_id": path.creator_id,
                "user_name": SPOT
                if path.opened_by_spot
                else names.get(path.creator_id, "")
                if path.creator_id is not None
                else "",
                "date": path.created_at,
            },
            "total_estimated_duration": sum(summaries[m.module_id]["estimated_duration"] for m in live),
            "total_sub_module_items": path.total_items,
            "done_sub_module_items": path.done_items,
            "total_assigned_modules": len(modules),
            "completion": completion(path.done_items, path.total_items),
            "average_grade": _average(modules) if grading else None,
            "acceptance_date": path.accepted_at,
            "validation": None
            if path.validated_at is None
            else {
                "validator": person(path.validator_id, names.get(path.validator_id or -1)),
                "comment": path.validation_comment or "",
                "date": path.validated_at,
            },
            "signature": None
            if path.signed_at is None
            else {
                "comment": path.signature_comment or "",
                "satisfaction": path.signature_satisfaction or 1,
                "date": path.signed_at,
            },
            "signatures": signed[(PATH_RECORD, path.id)],
            "closing_warnings": closing_warnings(path, modules, f),
            "assigned_modules": assigned,
            "history": [
                {
                    "at": h.at,
                    "user": person(h.user_id, h.name),
                    "user_name": h.stored_name,
                    "event": h.event,
                    "module_index": h.owner,
                    "grade": h.grade if grading else None,
                    "comment": h.comment if grading or h.owner is None else None,
                }
                for h in history
            ],
            "can": path_can(user, f),
            "version": path.version,
            "inactive_people": users.inactive_among(
                db,
                [
                    path.learner_id,
                    path.creator_id,
                    path.validator_id,
                    *(user_id for _, user_id, _ in links[PERSON]),
                    *(user_id for _, user_id, _ in links[REFERENT]),
                    *(g.user_id for rows in gradings.values() for g in rows),
                    *(h.user_id for h in history),
                    *(s.user_id for listed in signed.values() for s in listed),
                ],
            ),
        }
    )


def get(db: Session, *, user: Principal, path_id: int) -> PathOut:
    """The path as the user sees it. A read writes nothing: the progress it shows was stored when
    what the learner did changed (elements.py)."""
    path, reference, modules, summaries = _load_page(db, user, path_id)
    facts = elements.read(db, path=path, modules=modules, user=user)
    return view(
        db, user=user, path=path, reference=reference, summaries=summaries, modules=modules, facts=facts
    )
