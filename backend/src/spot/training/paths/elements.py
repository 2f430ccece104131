"""The elements of a training path's modules (spec 2 §3 Result per item): what the learner did of
each (the actions on them, the learner opening a url or spot element and a referent attaching or
detaching a mediation, are element_actions.py's).

When an element is done:
- url: the learner opened it from the path (a training_path_visit row; the first opening is doneAt);
- spot: the same; its `subjects` are the subjects under the item (the subject itself, the subjects of
  a function, an activity or a cartography, those of a site's cartographies) that the learner read
  (history, mode 'R') since the module started;
- mediation: a mediation attached to it is validated (or archived since) and carries a live signature
  of the learner; doneAt is the earliest such signature;
- lms: a unit once the learner satisfied it (lms.satisfaction: its moveOn met by their statements, or
  an administrator waived it); a unit without criteria (moveOn NotApplicable, which cmi5 satisfies as
  soon as the learner is registered in the course) once the learner opened it; a quiz's result is the
  best attempt's grade out of 10.

Everything is read in a fixed number of statements per path, whatever its number of modules and
elements: the elements, the visits, the first grading of the graded modules, the attached mediations
with the learner's signatures, and when there are such elements the subjects read, the course
completions and the quiz attempts, plus the two of `training.modules.service.resolved_items` (the
targets as the reader sees them).

What counts for a module is what the learner did while it was open: from its start until it was first
graded or disabled, or its path closed or canceled (a learning-platform result also needs the module
started: one obtained before, on another path or before this one existed, does not count). So a
graded module, a closed or a canceled path never change afterwards.

For the rest of the area: `refresh(db, path)` stores each module's and the path's done and total
elements and makes the automatic promotions, `results(db, *, user, path, modules)` (what the page
shows). The stored progress is kept current where what the learner did changes: the actions on
elements and the path's own, and `apply_result` (the learning platform, when a result arrives),
`mediation_changed` (mediations), `module_changed` (the module catalogue)."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    bindparam,
    exists,
    func,
    literal_column,
    select,
    true,
)
from sqlalchemy import update as update_statement
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from spot.core.history_models import HistoryEntry
from spot.core.principal import Principal
from spot.core.signatures import Signature
from spot.db import UtcDateTime, in_ids
from spot.lms import runtime as lms_runtime
from spot.lms import satisfaction
from spot.lms import service as lms
from spot.lms.models import ItemKind as LmsKind
from spot.lms.models import LaunchMode, LmsItem, SatisfactionMethod
from spot.mapping.models import Cartography, Subject
from spot.mediations import service as mediations
from spot.mediations.models import Mediation, MediationStatus
from spot.training.modules import service as modules
from spot.training.modules.models import ItemKind, SpotItemType, TrainingModuleItem
from spot.training.modules.service import resolved_items
from spot.training.paths import records
from spot.training.paths.models import (
    ModuleStatus,
    PathEvent,
    PathStatus,
    TrainingPath,
    TrainingPathGrading,
    TrainingPathMediation,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisit,
)
from spot.training.paths.schemas import (
    AttachedMediation,
    LmsQuiz,
    LmsResource,
    LmsResult,
    MediationResult,
    Result,
    SpotResult,
    UrlResult,
)

# A mediation counts once it reached validated; archived comes after it.
_MEDIATION_DONE = (MediationStatus.validated.value, MediationStatus.archived.value)


def totals(modules: Sequence[TrainingPathModule], progress: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(done, total) of the path: the sum over its modules that are not disabled."""
    done = total = 0
    for module in modules:
        if module.status != ModuleStatus.disabled:
            module_done, module_total = progress.get(module.id, (0, 0))
            done += module_done
            total += module_total
    return done, total


# Reading ---------------------------------------------------------------------------------------------

# The elements of the assigned modules with the learner's first opening of each: a row per assigned
# module and element, by the module's index and the element's position.
_ITEMS = (
    select(
        TrainingPathModule.id.label("path_module_id"),
        TrainingModuleItem.id,
        TrainingModuleItem.module_id,
        TrainingModuleItem.kind,
        TrainingModuleItem.spot_item_type,
        TrainingModuleItem.spot_item_id,
        TrainingModuleItem.title,
        TrainingModuleItem.description,
        TrainingModuleItem.url,
        TrainingModuleItem.label,
        TrainingModuleItem.lms_item_id,
        TrainingModuleItem.launch_mode,
        LmsItem.kind.label("lms_kind"),
        LmsItem.move_on.label("lms_move_on"),
        TrainingPathVisit.done_at.label("visited_at"),
    )
    .join(TrainingModuleItem, TrainingModuleItem.module_id == TrainingPathModule.module_id)
    .outerjoin(LmsItem, LmsItem.id == TrainingModuleItem.lms_item_id)
    .outerjoin(
        TrainingPathVisit,
        (TrainingPathVisit.path_module_id == TrainingPathModule.id)
        & (TrainingPathVisit.module_item_id == TrainingModuleItem.id),
    )
    .where(in_ids(TrainingPathModule.id, "path_module_ids"))
    .order_by(TrainingPathModule.position, TrainingModuleItem.position)
)


def _mediations_statement(readable: ColumnElement[bool]) -> Any:
    """The mediations attached to the path's modules, oldest attachment first, with whether the reader
    may read each, and when the learner signed it (their earliest live signature; null: not signed)."""
    signed_at = (
        select(func.min(Signature.signed_at))
        .where(
            Signature.record_type == mediations.RECORD_TYPE,
            Signature.record_id == Mediation.id,
            Signature.signer_id == bindparam("learner_id", type_=Integer),
            Signature.meaning == mediations.SIGNATURE_MEANING,
            Signature.revoked_at.is_(None),
        )
        .correlate(Mediation)
        .scalar_subquery()
    )
    return (
        select(
            TrainingPathMediation.path_module_id,
            TrainingPathMediation.module_item_id,
            Mediation.id,
            Mediation.title,
            Mediation.status,
            readable.label("readable"),
            signed_at.label("signed_at"),
        )
        .join(Mediation, Mediation.id == TrainingPathMediation.mediation_id)
        .where(in_ids(TrainingPathMediation.path_module_id, "path_module_ids"))
        .order_by(TrainingPathMediation.attached_at, Mediation.id)
    )


_MEDIATIONS = _mediations_statement(true())


def _subjects_statement() -> Any:
    """(subject id, latest read, its function, activity, cartography and site) of every subject the
    learner read at or after `since`. It starts from the learner's own reads (ix_history_entry_user_at),
    a few hundred rows, rather than from the subjects under the targets: a site has tens of thousands,
    each of which would be looked up in the history (docs/performance.md, "Training paths")."""
    reads = (
        select(HistoryEntry.item_id.label("subject_id"), func.max(HistoryEntry.at).label("at"))
        .where(
            HistoryEntry.user_id == bindparam("learner_id", type_=Integer),
            HistoryEntry.at >= bindparam("since", type_=UtcDateTime()),
            HistoryEntry.item_type == literal_column("'subject'"),
            HistoryEntry.mode == literal_column("'R'"),
        )
        .group_by(HistoryEntry.item_id)
        .subquery()
    )
    return (
        select(
            reads.c.subject_id,
            reads.c.at,
            Subject.function_id,
            Subject.activity_id,
            Subject.cartography_id,
            Cartography.site_id,
        )
        .join(Subject, Subject.id == reads.c.subject_id)
        .join(Cartography, Cartography.id == Subject.cartography_id)
    )


_SUBJECTS = _subjects_statement()


@dataclass
class _Attached:
    id: int
    title: str
    status: str
    readable: bool
    signed_at: datetime | None


@dataclass
class Facts:
    """What the learner did of the path's elements, as read once for the whole path."""

    # The elements of each module (training_module.id), in order.
    items: dict[int, list[Any]] = field(default_factory=dict)
    # (training_path_module.id, training_module_item.id) → first opening.
    visits: dict[tuple[int, int], datetime] = field(default_factory=dict)
    # (training_path_module.id, training_module_item.id) → attached mediations.
    attached: dict[tuple[int, int], list[_Attached]] = field(default_factory=lambda: defaultdict(list))
    # lms item id → when the learner satisfied it, and how (lms.satisfaction).
    satisfied: dict[int, Any] = field(default_factory=dict)
    # lms item id of a unit without criteria (NotApplicable) → the learner's launches, oldest first.
    launched: dict[int, list[datetime]] = field(default_factory=dict)
    # quiz id → the learner's attempts, oldest first.
    attempts: dict[int, list[Any]] = field(default_factory=lambda: defaultdict(list))
    # training_path_module.id → when its elements count what the learner does: from its start until
    # it is first graded, disabled, or its path closed or canceled (None: not started, or still open).
    windows: dict[int, tuple[datetime | None, datetime | None]] = field(default_factory=dict)


def _windows(
    db: Session, path: TrainingPath, modules: Sequence[TrainingPathModule]
) -> dict[int, tuple[datetime | None, datetime | None]]:
    """(start, end) of each module: what the learner does outside it never changes the module, so that
    a graded module, a closed or a canceled path stay as they were when it happened."""
    graded = [m.id for m in modules if m.graded_at is not None]
    first_graded: dict[int, datetime] = {}
    if graded:
        rows = db.execute(
            select(TrainingPathGrading.path_module_id, func.min(TrainingPathGrading.graded_at))
            .where(TrainingPathGrading.path_module_id.in_(graded))
            .group_by(TrainingPathGrading.path_module_id)
        )
        first_graded = {module_id: at for module_id, at in rows.tuples()}
    path_end = [path.validated_at] if path.validated_at is not None else []
    if path.status == PathStatus.canceled:
        path_end.append(path.status_changed_at)
    windows: dict[int, tuple[datetime | None, datetime | None]] = {}
    for module in modules:
        ends = [*path_end]
        if module.id in first_graded:
            ends.append(first_graded[module.id])
        if module.status == ModuleStatus.disabled:
            ends.append(module.status_changed_at)
        windows[module.id] = (module.started_at, min(ends) if ends else None)
    return windows


def _read(
    db: Session, path: TrainingPath, modules: Sequence[TrainingPathModule], user: Principal | None
) -> Facts:
    facts = Facts()
    if not modules:
        return facts
    facts.windows = _windows(db, path, modules)
    path_module_ids = [m.id for m in modules]
    # A module assigned twice in the path has its elements listed once.
    listed_by: dict[int, int] = {}
    for row in db.execute(_ITEMS, {"path_module_ids": path_module_ids}):
        if listed_by.setdefault(row.module_id, row.path_module_id) == row.path_module_id:
            facts.items.setdefault(row.module_id, []).append(row)
        if row.visited_at is not None:
            facts.visits[(row.path_module_id, row.id)] = row.visited_at
    learner_id = path.learner_id
    every_item = [item for items in facts.items.values() for item in items]
    if any(item.kind == ItemKind.mediation for item in every_item):
        statement = _MEDIATIONS if user is None else _mediations_statement(mediations.readable(user))
        rows = db.execute(statement, {"path_module_ids": path_module_ids, "learner_id": learner_id})
        for path_module_id, item_id, mediation_id, title, status, readable, signed_at in rows:
            facts.attached[(path_module_id, item_id)].append(
                _Attached(mediation_id, title, status, bool(readable), signed_at)
            )
    if learner_id is None:
        return facts
    lms_items = [item for item in every_item if item.kind == ItemKind.lms and item.lms_item_id is not None]
    units = [item.lms_item_id for item in lms_items]
    if units:
        facts.satisfied = satisfaction.satisfied_items(db, learner_id=learner_id, item_ids=units)
    open_only = [item.lms_item_id for item in lms_items if _done_when_opened(item)]
    if open_only:
        facts.launched = satisfaction.launch_times(db, learner_id=learner_id, item_ids=open_only)
    quizzes = [item.lms_item_id for item in lms_items if item.lms_kind == LmsKind.quiz]
    for attempt in lms.learner_attempts(db, learner_id=learner_id, quiz_ids=quizzes):
        facts.attempts[attempt.item_id].append(attempt)
    return facts


def _mediation_done(attached: Iterable[_Attached], end: datetime | None) -> datetime | None:
    dates = [
        m.signed_at
        for m in attached
        if m.status in _MEDIATION_DONE and m.signed_at is not None and (end is None or m.signed_at < end)
    ]
    return min(dates) if dates else None


def _in_window(at: datetime, window: tuple[datetime | None, datetime | None]) -> bool:
    """A learning-platform result counts for a module when it came while the module was open: started,
    and not yet graded, disabled, closed or canceled (a result of another path, or one before the path
    existed, never changes this one)."""
    start, end = window
    return start is not None and start <= at and (end is None or at < end)


def _quiz_attempts(facts: Facts, module: TrainingPathModule, quiz_id: int) -> list[Any]:
    """The learner's attempts at the quiz that count for the module, oldest first."""
    window = facts.windows.get(module.id, (None, None))
    return [attempt for attempt in facts.attempts.get(quiz_id, ()) if _in_window(attempt.at, window)]


def _done_at(facts: Facts, module: TrainingPathModule, item: Any) -> datetime | None:
    window = facts.windows.get(module.id, (None, None))
    end = window[1]
    if item.kind in (ItemKind.url, ItemKind.spot):
        opened = facts.visits.get((module.id, item.id))
        return opened if opened is not None and (end is None or opened < end) else None
    if item.kind == ItemKind.mediation:
        return _mediation_done(facts.attached.get((module.id, item.id), ()), end)
    if item.lms_item_id is None:
        return None
    # A unit counts once satisfied while the module is open (its moveOn met, or waived); one without
    # criteria, which cmi5 satisfies at registration, or one the element opens in Browse or Review (which
    # record no result), once the learner opened it while the module is open.
    found = facts.satisfied.get(item.lms_item_id)
    times = [found.at] if found is not None and found.method != SatisfactionMethod.not_applicable else []
    if _done_when_opened(item):
        times += facts.launched.get(item.lms_item_id, [])
    return min((at for at in times if _in_window(at, window)), default=None)


def _done_when_opened(item: Any) -> bool:
    return item.kind == ItemKind.lms and (
        item.lms_move_on in (None, "NotApplicable")
        or item.launch_mode in (LaunchMode.browse, LaunchMode.review)
    )


def read(
    db: Session, *, path: TrainingPath, modules: Sequence[TrainingPathModule], user: Principal | None
) -> Facts:
    """What the elements of these modules are and what the learner did of them, read once for the path
    page's results."""
    return _read(db, path, modules, user)


def progress(
    db: Session, *, path: TrainingPath, modules: Sequence[TrainingPathModule], facts: Facts | None = None
) -> dict[int, tuple[int, int]]:
    """(done, total) elements of each module, by training_path_module.id, disabled ones included
    (`totals` leaves them out of the path's); `facts` when `read` already has them."""
    facts = _read(db, path, modules, None) if facts is None else facts
    out: dict[int, tuple[int, int]] = {}
    for module in modules:
        items = facts.items.get(module.module_id, [])
        done = sum(1 for item in items if _done_at(facts, module, item) is not None)
        out[module.id] = (done, len(items))
    return out


def _subjects_read(
    db: Session, path: TrainingPath, modules: Sequence[TrainingPathModule], facts: Facts
) -> dict[tuple[str, int], list[tuple[int, datetime]]]:
    """(kind, target id) → (subject id, latest read) of the spot targets of the started modules, read by
    the learner since the earliest start."""
    started = [m for m in modules if m.started_at is not None]
    if path.learner_id is None or not started:
        return {}
    params: dict[str, Any] = {f"{kind.value}_ids": set() for kind in SpotItemType}
    for module in started:
        for item in facts.items.get(module.module_id, []):
            if item.kind == ItemKind.spot and item.spot_item_type in SpotItemType.__members__:
                params[f"{item.spot_item_type}_ids"].add(item.spot_item_id)
    if not any(params.values()):
        return {}
    since = min(m.started_at for m in started if m.started_at is not None)
    out: dict[tuple[str, int], list[tuple[int, datetime]]] = defaultdict(list)
    rows = db.execute(_SUBJECTS, {"learner_id": path.learner_id, "since": since})
    for subject_id, at, function_id, activity_id, cartography_id, site_id in rows:
        under = (
            (SpotItemType.subject, subject_id),
            (SpotItemType.function, function_id),
            (SpotItemType.activity, activity_id),
            (SpotItemType.cartography, cartography_id),
            (SpotItemType.site, site_id),
        )
        for kind, target_id in under:
            if target_id in params[f"{kind.value}_ids"]:
                out[(kind.value, target_id)].append((subject_id, at))
    return out


def results(
    db: Session,
    *,
    user: Principal,
    path: TrainingPath,
    modules: Sequence[TrainingPathModule],
    facts: Facts | None = None,
) -> dict[int, list[Result]]:
    """Every element's Result of each module, by training_path_module.id, in element order, as `user`
    sees them: a spot target or an attached mediation they may not read is named by nothing
    (`readable` false); `facts` when `read` already has them (for this user)."""
    facts = _read(db, path, modules, user) if facts is None else facts
    every_item = [item for module in modules for item in facts.items.get(module.module_id, [])]
    resolved = iter(resolved_items(db, user, every_item))
    read = _subjects_read(db, path, modules, facts)
    out: dict[int, list[Result]] = {}
    for module in modules:
        module_results: list[Result] = []
        for index, item in enumerate(facts.items.get(module.module_id, [])):
            target = next(resolved)
            done_at = _done_at(facts, module, item)
            common: dict[str, Any] = {"index": index, "done_at": done_at}
            if item.kind == ItemKind.url:
                module_results.append(
                    UrlResult(
                        type="url", title=item.label or "", description="", url=item.url or "", **common
                    )
                )
            elif item.kind == ItemKind.spot:
                since = module.started_at
                subjects = sorted(
                    subject_id
                    for subject_id, at in read.get((item.spot_item_type, item.spot_item_id), [])
                    if since is not None and at >= since
                )
                module_results.append(
                    SpotResult(
                        type="spot",
                        title=target["name"] or "",
                        description="",
                        spot_item_type=item.spot_item_type,
                        spot_item_id=item.spot_item_id,
                        readable=target["readable"],
                        context=target["context"],
                        subjects=subjects,
                        **common,
                    )
                )
            elif item.kind == ItemKind.mediation:
                attached = facts.attached.get((module.id, item.id), [])
                module_results.append(
                    MediationResult(
                        type="mediation",
                        title=item.title or "",
                        description=item.description or "",
                        mediation_ids=[m.id for m in attached],
                        mediations=[
                            AttachedMediation(
                                id=m.id,
                                title=m.title if m.readable else None,
                                status=m.status if m.readable else None,
                                readable=m.readable,
                                signed_by_learner=m.signed_at is not None,
                            )
                            for m in attached
                        ],
                        **common,
                    )
                )
            else:
                module_results.append(_lms_result(facts, module, item, target, common))
        out[module.id] = module_results
    return out


def _lms_result(
    facts: Facts, module: TrainingPathModule, item: Any, target: dict[str, Any], common: dict[str, Any]
) -> LmsResult:
    lms_type = item.lms_kind if item.lms_kind in (LmsKind.resource, LmsKind.quiz) else None
    resources: list[LmsResource] = []
    quizes: list[LmsQuiz] = []
    if lms_type == LmsKind.quiz:
        attempts = _quiz_attempts(facts, module, item.lms_item_id)
        quizes.append(
            LmsQuiz(
                quiz_id=item.lms_item_id,
                result=max((a.grade for a in attempts), default=None),
                attempts_ids=[a.id for a in attempts],
            )
        )
    elif lms_type == LmsKind.resource:
        resources.append(LmsResource(resource_id=item.lms_item_id, done_at=common["done_at"]))
    return LmsResult(
        type="lms",
        title=target["name"] or "",
        description="",
        lms_item_id=item.lms_item_id,
        lms_type=lms_type,
        course_id=target["course_id"],
        found=target["found"],
        launch_mode=item.launch_mode or LaunchMode.normal,
        resources=resources,
        quizes=quizes,
        **common,
    )


# Keeping the stored progress current -------------------------------------------------------------------
# A path stores the done and total elements of its modules (refresh, below), which lists, dashboards
# and reports read. They are refreshed in the transaction that changes what the learner did, never on
# a read: a result of the learning platform, an element opened, a mediation attached, signed or
# invalidated, a module's elements edited.

_OPEN_MODULE = TrainingPathModule.status.in_((ModuleStatus.started.value, ModuleStatus.finished.value))


def refresh(
    db: Session,
    path: TrainingPath,
    *,
    modules: list[TrainingPathModule] | None = None,
    facts: Facts | None = None,
) -> list[TrainingPathModule]:
    """What the elements say now: each module's and the path's done/total elements stored (no new
    version: derived data), then, while the path is started, a started module whose elements are all
    done becomes finished, and the path becomes finished once every module that is not disabled (at
    least one) is validated or archived. The modules as they are now, by position. Two writers refreshing
    at once promote once: the second finds it done, and its own change goes on (no 409 for a promotion
    that is not its own)."""
    modules = records.modules_of(db, path.id) if modules is None else modules
    progress_by_module = progress(db, path=path, modules=modules, facts=facts)
    for module in modules:
        done, total = progress_by_module.get(module.id, (0, 0))
        if (module.done_items, module.total_items) != (done, total):
            db.execute(
                update_statement(TrainingPathModule)
                .where(TrainingPathModule.id == module.id)
                .values(done_items=done, total_items=total)
            )
            set_committed_value(module, "done_items", done)
            set_committed_value(module, "total_items", total)
    done, total = totals(modules, progress_by_module)
    if (path.done_items, path.total_items) != (done, total):
        db.execute(
            update_statement(TrainingPath)
            .where(TrainingPath.id == path.id)
            .values(done_items=done, total_items=total)
        )
        set_committed_value(path, "done_items", done)
        set_committed_value(path, "total_items", total)
    if path.status != PathStatus.started:
        return modules
    for module in modules:
        if (
            module.status == ModuleStatus.started
            and module.total_items > 0
            and module.done_items >= module.total_items
        ):
            if records.compare_and_set(db, module, ModuleStatus.started, ModuleStatus.finished, strict=False):
                records.record(
                    db,
                    user=None,
                    path=path,
                    event=PathEvent.moduleFinished,
                    position=module.position,
                    strict=False,
                )
    live = [m for m in modules if m.status != ModuleStatus.disabled]
    if live and all(m.status in (ModuleStatus.validated, ModuleStatus.archived) for m in live):
        if records.compare_and_set(db, path, PathStatus.started, PathStatus.finished, strict=False):
            records.record(db, user=None, path=path, event=PathEvent.finished, strict=False)
    return modules


def refresh_paths(db: Session, path_ids: Iterable[int]) -> None:
    """Refresh these paths, each locked first on PostgreSQL (in id order, so that two writers never
    wait for each other in a circle), as an action on the path does."""
    postgresql = db.get_bind().dialect.name == "postgresql"
    for path_id in sorted(set(path_ids)):
        statement = (
            select(TrainingPath).where(TrainingPath.id == path_id).execution_options(populate_existing=True)
        )
        path = db.scalars(statement.with_for_update() if postgresql else statement).first()
        if path is not None:
            refresh(db, path)


def apply_result(db: Session, *, learner_id: int, item_id: int) -> None:
    """A result of the learning platform arrived (a unit completed, a quiz attempt): the learner's
    started paths whose modules holding the unit are open (started or finished) count it now. The
    platform calls it in the transaction that records the result."""
    path_ids = db.scalars(
        select(TrainingPath.id)
        .join(TrainingPathModule, TrainingPathModule.path_id == TrainingPath.id)
        .join(TrainingModuleItem, TrainingModuleItem.module_id == TrainingPathModule.module_id)
        .where(
            TrainingPath.learner_id == learner_id,
            TrainingPath.status == PathStatus.started.value,
            _OPEN_MODULE,
            TrainingModuleItem.kind == ItemKind.lms.value,
            TrainingModuleItem.lms_item_id == item_id,
        )
        .distinct()
    )
    refresh_paths(db, list(path_ids))


def refers_learner(db: Session, user_id: int, learner_id: int) -> bool:
    """Whether the user is a referent of one of the learner's paths: who may read the learner's quiz
    attempts besides the learner (lms.policy.can_read_attempts)."""
    referent_of_learner = (
        select(TrainingPathReferent.user_id)
        .join(TrainingPathModule, TrainingPathModule.id == TrainingPathReferent.path_module_id)
        .join(TrainingPath, TrainingPath.id == TrainingPathModule.path_id)
        .where(TrainingPathReferent.user_id == user_id, TrainingPath.learner_id == learner_id)
    )
    return bool(db.scalar(select(exists(referent_of_learner))))


lms_runtime.on_result(
    lambda db, learner_id, item_id: apply_result(db, learner_id=learner_id, item_id=item_id)
)
satisfaction.on_satisfied(
    lambda db, learner_id, item_id: apply_result(db, learner_id=learner_id, item_id=item_id)
)
lms.register_referents(refers_learner)


def mediation_changed(db: Session, *, mediation_id: int) -> None:
    """A mediation was signed or changed status: the started paths it is attached to, in an open
    module, count it as it is now."""
    path_ids = db.scalars(
        select(TrainingPathModule.path_id)
        .join(TrainingPathMediation, TrainingPathMediation.path_module_id == TrainingPathModule.id)
        .join(TrainingPath, TrainingPath.id == TrainingPathModule.path_id)
        .where(
            TrainingPathMediation.mediation_id == mediation_id,
            TrainingPath.status == PathStatus.started.value,
            _OPEN_MODULE,
        )
        .distinct()
    )
    refresh_paths(db, list(path_ids))


mediations.on_change(lambda db, mediation_id: mediation_changed(db, mediation_id=mediation_id))


def module_changed(db: Session, *, module_id: int) -> None:
    """A module's elements were edited (only while no path assigning it was accepted): the totals of
    the paths assigning it."""
    path_ids = db.scalars(
        select(TrainingPathModule.path_id).where(TrainingPathModule.module_id == module_id).distinct()
    )
    refresh_paths(db, list(path_ids))


modules.on_items_changed(lambda db, module_id: module_changed(db, module_id=module_id))
