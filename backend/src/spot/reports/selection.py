"""What a path report shows (docs/reports.md 'Selection'): the paths whose period meets the report's,
whose learner is named or a member of a named group and whose status is asked for, among the paths the
user may see (reports.policy); of each, the modules of the statuses and types asked for, a path left
with no module being left out. Learners come by name, their paths by start date then title, modules by
index.

`learners` reads the learners by batches (keyset on the name order), each batch fully loaded in a fixed
number of statements whatever its size, and gives them one by one as plain data, for the Excel file
and the PDFs alike: the server's memory holds one batch at a time.

People whose account is gone (a creator, validator, grader, signer, mediator) print as the placeholder
user X (spec 2 §8); people who left (deactivated) print named and marked as inactive in the report's
language (users.models.printed_name), the learner as every other: the lines carry names as printed."""

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, false, func, or_, select, tuple_
from sqlalchemy.orm import Session, aliased

from spot.core.errors import not_found
from spot.core.i18n import Language
from spot.core.principal import Principal
from spot.mediations.models import Mediation
from spot.references.models import Reference
from spot.reports.policy import paths_visible
from spot.reports.schemas import ReportRequest, ReportSelectors
from spot.training.modules.models import TrainingModule
from spot.training.paths import policy as paths_policy
from spot.training.paths.completion import completion
from spot.training.paths.models import ModuleStatus
from spot.training.paths.models import TrainingPath as P
from spot.training.paths.models import TrainingPathGrading as G
from spot.training.paths.models import TrainingPathMediation as PM
from spot.training.paths.models import TrainingPathModule as PathModule
from spot.training.paths.models import TrainingPathReferent as R
from spot.training.paths.service import (
    MODULE_RECORD,
    PATH_RECORD,
    SPOT,
    module_content,
    path_content,
    round_grade,
    signature_lists,
    validity,
)
from spot.users.models import User, printed_name, user_group

# The name printed for a person whose account is gone (spec 2 §8).
UNKNOWN_USER = "X"
BATCH = 25


@dataclass(frozen=True)
class SignatureLine:
    signer_name: str
    signed_at: datetime
    meaning: str
    modified_after_signature: bool
    revoked_at: datetime | None
    revoke_reason: str | None


@dataclass(frozen=True)
class MediationLine:
    title: str
    mediator_name: str | None
    status: str
    # When it ran (or is planned), null when neither is known.
    date: datetime | None


@dataclass(frozen=True)
class ModuleLine:
    index: int
    name: str
    reference: str | None
    module_type: str
    goals: str
    referents: list[str]
    start_date: date
    stop_date: date
    status: str
    grade: float | None
    is_success: bool | None
    comment: str | None
    graded_at: datetime | None
    valid_until: date | None
    grader_name: str | None
    learner_signed_at: datetime | None
    learner_comment: str | None
    learner_satisfaction: int | None
    signatures: list[SignatureLine]
    mediations: list[MediationLine]
    done_items: int
    total_items: int


@dataclass(frozen=True)
class PathLine:
    id: int
    title: str
    reference: str | None
    status: str
    start_date: date
    stop_date: date
    creator_name: str
    created_at: datetime
    accepted_at: datetime | None
    validator_name: str | None
    validated_at: datetime | None
    validation_comment: str | None
    signed_at: datetime | None
    signature_comment: str | None
    signature_satisfaction: int | None
    completion: int
    average_grade: float | None
    # Minutes, over the modules that are not disabled; 0: not defined.
    estimated_duration: int
    modules: list[ModuleLine]
    signatures: list[SignatureLine]


@dataclass(frozen=True)
class LearnerLines:
    user_id: int | None
    # First and last name (or the login), without the external id; marked when they left.
    name: str
    external_id: str | None
    paths: list[PathLine]


# The selection as SQL ----------------------------------------------------------------------------------


def plain_name() -> ColumnElement[str]:
    """A user's name without their external id: 'First Last', or the login when both are empty."""
    return func.coalesce(func.nullif(func.trim(User.first_name + " " + User.last_name), ""), User.login)


# The learners' order, by name.
LEARNER_ORDER = (User.last_name, User.first_name, User.id)
# Each learner's paths' order.
PATH_ORDER = (P.start_date, P.title_folded, P.id)


def module_shown(selectors: ReportSelectors) -> ColumnElement[bool]:
    """On TrainingPathModule joined to its TrainingModule: the module is shown."""
    return and_(
        PathModule.status.in_([s.value for s in selectors.module_statutes]),
        TrainingModule.module_type.in_([t.value for t in selectors.module_types]),
    )


def path_selected(user: Principal, selectors: ReportSelectors) -> ColumnElement[bool]:
    """On TrainingPath: the report selects the path."""
    learners: list[ColumnElement[bool]] = []
    if selectors.learner_id_list:
        learners.append(P.learner_id.in_(sorted(set(selectors.learner_id_list))))
    if selectors.group_id_list:
        members = select(user_group.c.user_id).where(
            user_group.c.group_id.in_(sorted(set(selectors.group_id_list)))
        )
        learners.append(P.learner_id.in_(members))
    shown = (
        select(PathModule.id)
        .join(TrainingModule, TrainingModule.id == PathModule.module_id)
        .where(PathModule.path_id == P.id, module_shown(selectors))
    )
    return and_(
        paths_visible(user),
        P.start_date <= selectors.stop,
        P.stop_date >= selectors.start,
        P.status.in_([s.value for s in selectors.path_statutes]),
        or_(*learners) if learners else false(),
        exists(shown),
    )


def count_learners(db: Session, *, user: Principal, request: ReportRequest) -> int:
    """How many learners the report has (one PDF each)."""
    statement = select(func.count(func.distinct(P.learner_id))).where(path_selected(user, request.selectors))
    return db.scalar(statement) or 0


def count_paths(db: Session, *, user: Principal, request: ReportRequest) -> int:
    return db.scalar(select(func.count()).select_from(P).where(path_selected(user, request.selectors))) or 0


def average_grade(grades: Iterable[float | None]) -> float | None:
    """The average of the grades given (of the modules that are not disabled), one decimal; None when
    there is none (as the path page shows it)."""
    given = [g for g in grades if g is not None]
    return round_grade(sum(given) / len(given)) if given else None


# Loading learners ---------------------------------------------------------------------------------------


def learners(
    db: Session, *, user: Principal, request: ReportRequest, language: Language, batch: int = BATCH
) -> Iterator[LearnerLines]:
    """The report's learners in name order, each with their selected paths and shown modules, read
    `batch` learners at a time; people who left marked in `language`."""
    selectors = request.selectors
    selected = path_selected(user, selectors)
    statuses = {s.value for s in selectors.module_statutes}
    types = {t.value for t in selectors.module_types}
    after: tuple[str, str, int] | None = None
    while True:
        statement = select(
            User.id, User.last_name, User.first_name, plain_name(), User.external_id, User.active
        ).where(User.id.in_(select(P.learner_id).where(selected)))
        if after is not None:
            statement = statement.where(tuple_(*LEARNER_ORDER) > tuple_(*after))
        rows = db.execute(statement.order_by(*LEARNER_ORDER).limit(batch)).all()
        if not rows:
            return
        people = [(row[0], printed_name(row[3], row[5], language), row[4]) for row in rows]
        yield from _load(
            db,
            people,
            selected,
            lambda status, kind: status in statuses and kind in types,
            language=language,
            viewer=user,
        )
        if len(rows) < batch:
            return
        after = (rows[-1][1], rows[-1][2], rows[-1][0])


def learner_lines(db: Session, *, user_id: int, language: Language) -> LearnerLines:
    """Every path of one learner with every module, whoever may see them (the audit pack), people who
    left marked in `language`; 404 userNotFound for an unknown user."""
    row = db.execute(
        select(User.id, plain_name(), User.external_id, User.active).where(User.id == user_id)
    ).first()
    if row is None:
        raise not_found("userNotFound")
    person = (row[0], printed_name(row[1], row[3], language), row[2])
    loaded = list(_load(db, [person], P.learner_id == user_id, lambda *_: True, language=language))
    return loaded[0]


def _named(person_id: int | None, name: str | None, active: bool | None, language: Language) -> str:
    """A person as the report prints them: X when their account is gone, marked when they left."""
    return UNKNOWN_USER if person_id is None or name is None else printed_name(name, active, language)


_Creator, _Validator, _Grader, _Mediator = (aliased(User) for _ in range(4))
_ModuleReference = aliased(Reference)


def _load(
    db: Session,
    people: Sequence[tuple[int, str, str | None]],
    selected: ColumnElement[bool],
    shown: Any,
    *,
    language: Language,
    viewer: Principal | None = None,
) -> Iterator[LearnerLines]:
    """The learners `people` (id, printed name, external id), in that order, with their paths that match
    `selected` and the modules `shown(status, module type)` accepts: seven statements whatever their
    number. Grades and gradings of a path only for a `viewer` who sees them on the path's page
    (training.paths.policy.sees_grading); every one without a viewer (the audit pack's holders see
    every grading)."""
    learner_ids = [person[0] for person in people]
    paths = db.execute(
        select(
            P,
            Reference.code,
            _Creator.display_name,
            _Creator.active,
            _Validator.display_name,
            _Validator.active,
        )
        .outerjoin(Reference, Reference.id == P.reference_id)
        .outerjoin(_Creator, _Creator.id == P.creator_id)
        .outerjoin(_Validator, _Validator.id == P.validator_id)
        .where(selected, P.learner_id.in_(learner_ids))
        .order_by(*PATH_ORDER)
    ).all()
    path_ids = [path_row[0].id for path_row in paths]
    modules: dict[int, list[Any]] = defaultdict(list)
    for module_row in db.execute(
        select(
            PathModule,
            TrainingModule.name,
            TrainingModule.module_type,
            TrainingModule.goals,
            TrainingModule.estimated_duration,
            _ModuleReference.code,
        )
        .join(TrainingModule, TrainingModule.id == PathModule.module_id)
        .outerjoin(_ModuleReference, _ModuleReference.id == TrainingModule.reference_id)
        .where(PathModule.path_id.in_(path_ids))
        .order_by(PathModule.path_id, PathModule.position)
    ):
        modules[module_row[0].path_id].append(module_row)
    shown_ids = [m[0].id for rows in modules.values() for m in rows if shown(m[0].status, m[2])]
    referents: dict[int, list[str]] = defaultdict(list)
    referent_ids: dict[int, set[int]] = defaultdict(set)
    for path_id, module_id, referent_id, name, active in db.execute(
        select(R.path_id, R.path_module_id, R.user_id, User.display_name, User.active)
        .join(User, User.id == R.user_id)
        .where(R.path_id.in_(path_ids))
    ):
        referents[module_id].append(printed_name(name, active, language))
        referent_ids[path_id].add(referent_id)

    def sees_grading(path: Any) -> bool:
        if viewer is None or paths_policy.sees_every_grading(viewer):
            return True
        return viewer.id in (path.learner_id, path.creator_id) or viewer.id in referent_ids[path.id]

    # The current grading of each module is its latest.
    gradings: dict[int, Any] = {}
    for grading in db.execute(
        select(G.path_module_id, G.comment, G.referent_id, _Grader.display_name, _Grader.active)
        .outerjoin(_Grader, _Grader.id == G.referent_id)
        .where(G.path_module_id.in_(shown_ids))
        .order_by(G.path_module_id, G.graded_at, G.id)
    ):
        gradings[grading[0]] = grading
    mediations: dict[int, list[MediationLine]] = defaultdict(list)
    for module_id, title, mediator_id, mediator, mediator_active, status, when in db.execute(
        select(
            PM.path_module_id,
            Mediation.title,
            Mediation.mediator_id,
            _Mediator.display_name,
            _Mediator.active,
            Mediation.status,
            func.coalesce(Mediation.execution_start, Mediation.scheduling_date),
        )
        .join(Mediation, Mediation.id == PM.mediation_id)
        .outerjoin(_Mediator, _Mediator.id == Mediation.mediator_id)
        .where(PM.path_module_id.in_(shown_ids))
        .order_by(PM.path_module_id, PM.attached_at, Mediation.id)
    ):
        mediations[module_id].append(
            MediationLine(
                title=title,
                mediator_name=_named(mediator_id, mediator, mediator_active, language),
                status=status,
                date=when,
            )
        )
    contents: list[tuple[str, int, Any]] = []
    for path_row in paths:
        path = path_row[0]
        rows = modules[path.id]
        contents.append((PATH_RECORD, path.id, path_content(path, [m[0] for m in rows])))
        for m in rows:
            if shown(m[0].status, m[2]):
                current = gradings.get(m[0].id)
                comment = current[1] if current is not None else None
                contents.append(
                    (MODULE_RECORD, m[0].id, module_content(path, m[0], module_name=m[1], comment=comment))
                )
    signed = signature_lists(db, contents) if contents else {}

    def signature_lines(kind: str, record_id: int) -> list[SignatureLine]:
        return [
            SignatureLine(
                signer_name=_named(s.user_id, s.user_name, s.user_active, language),
                signed_at=s.date,
                meaning=s.meaning,
                modified_after_signature=s.modified_after_signature,
                revoked_at=s.revoked.date if s.revoked is not None else None,
                revoke_reason=s.revoked.reason if s.revoked is not None else None,
            )
            for s in signed[(kind, record_id)]
        ]

    by_learner: dict[int, list[PathLine]] = defaultdict(list)
    for path_row in paths:
        path, reference, creator, creator_active, validator, validator_active = path_row
        rows = modules[path.id]
        live = [m for m in rows if m[0].status != ModuleStatus.disabled]
        graded = sees_grading(path)
        lines = []
        for m, name, module_type, goals, _duration, module_reference in rows:
            if not shown(m.status, module_type):
                continue
            current = gradings.get(m.id) if graded else None
            lines.append(
                ModuleLine(
                    index=m.position,
                    name=name,
                    reference=module_reference,
                    module_type=module_type,
                    goals=goals,
                    referents=sorted(referents[m.id]),
                    start_date=m.start_date,
                    stop_date=m.stop_date,
                    status=m.status,
                    grade=m.grade if graded else None,
                    is_success=m.is_success if graded else None,
                    comment=current[1] if current is not None else None,
                    graded_at=m.graded_at if graded else None,
                    valid_until=validity(m.is_success, m.valid_until) if graded else None,
                    grader_name=_named(current[2], current[3], current[4], language)
                    if current is not None
                    else None,
                    learner_signed_at=m.signed_at,
                    learner_comment=m.signature_comment,
                    learner_satisfaction=m.signature_satisfaction,
                    signatures=signature_lines(MODULE_RECORD, m.id),
                    mediations=mediations[m.id],
                    done_items=m.done_items,
                    total_items=m.total_items,
                )
            )
        assert path.learner_id is not None
        by_learner[path.learner_id].append(
            PathLine(
                id=path.id,
                title=path.title,
                reference=reference,
                status=path.status,
                start_date=path.start_date,
                stop_date=path.stop_date,
                creator_name=SPOT
                if path.opened_by_spot
                else _named(path.creator_id, creator, creator_active, language),
                created_at=path.created_at,
                accepted_at=path.accepted_at,
                validator_name=None
                if path.validated_at is None
                else _named(path.validator_id, validator, validator_active, language),
                validated_at=path.validated_at,
                validation_comment=path.validation_comment,
                signed_at=path.signed_at,
                signature_comment=path.signature_comment,
                signature_satisfaction=path.signature_satisfaction,
                completion=completion(path.done_items, path.total_items),
                average_grade=average_grade(m[0].grade for m in live) if graded else None,
                estimated_duration=sum(m[4] for m in live),
                modules=lines,
                signatures=signature_lines(PATH_RECORD, path.id),
            )
        )
    for person_id, name, external_id in people:
        yield LearnerLines(user_id=person_id, name=name, external_id=external_id, paths=by_learner[person_id])
