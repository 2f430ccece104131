"""Requalification opened on time (docs/qualifications.md "Requalification opened on time").

A qualification has a requalification window in days (`requalification_window_days`, default 60; 0
off). When a person it concerns (a member of one of its qualifiable groups) holds one of its periodic
modules until a day within the window, and no requalification path for that module exists, Spot opens
one (training.paths.service.open_by_spot): the person as learner, that module alone, from today to
the last valid day, created by Spot.

- **Which holds**: `module_hold` rows (the database's own record of each person's validation,
  qualifications.validity) of an active person, on an enabled periodic module, with a last valid day
  from today to today + the window, no requalification path (`requalification_path_id`: a path not
  closed in which the module is not graded yet), and no opening recorded for that hold. The window is
  the widest of the qualifications that hold the module for the person (concern them, name the module)
  and have one (> 0).
- **Referents**: those of the module in the path that last validated it (the hold's validation path),
  else those of that path's other modules, else the default referents of those qualifications; people
  who left and the learner are left out. A hold none of them can follow is not opened (nor recorded):
  the next scan opens it once a referent is given.
- **What else**: the visibility (persons and groups) and the pass threshold of the validating path; the
  title "Requalification — <module>" in the learner's language.
- **Once per hold, ever**: each (person, module, last valid day) opened is a row of
  `requalification_opening`, written first, in the transaction that creates the path; its key lets a
  second writer (a second scan, another process) write nothing and open nothing. The row stays when the
  path is canceled, and when it is deleted (its path_id becomes null): a path a manager took away is
  not opened again for the same hold. A renewed validation ends on another day: a new hold.

The daily scan runs it (notifications.scan, step `requalify`, before the reminders), so `spot serve`
and `spot notify` do. `plan` only reads; `open_planned` writes, its first statement a write (on SQLite
the write lock is taken before anything is read again)."""

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from spot.core import i18n
from spot.core.time import today, utcnow
from spot.db import plain
from spot.qualifications.models import (
    ModuleHold,
    Qualification,
    QualificationGroup,
    QualificationModule,
    QualificationReferent,
    RequalificationOpening,
)
from spot.training.modules.models import TrainingModule
from spot.training.paths import service as paths
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.users.models import User, user_group

log = logging.getLogger("spot.qualifications")

CHUNK = 900
# The pass threshold of a path whose validating path is gone (the form's default).
DEFAULT_THRESHOLD = 10


@dataclass(frozen=True)
class Due:
    """A hold within its window: whose, which module, until when, the path that validated it, and the
    widest window of the qualifications that hold it for the person."""

    user_id: int
    module_id: int
    valid_until: date
    validation_path_id: int | None
    window: int


@dataclass(frozen=True)
class Opening:
    """A requalification path to open, as planned from reads."""

    due: Due
    title: str
    referents: tuple[int, ...]
    pass_threshold: int
    visible_persons: tuple[int, ...]
    visible_groups: tuple[int, ...]


def due(db: Session, *, day: date) -> list[Due]:
    """The holds within their window on `day` that have no requalification path and were never opened:
    one statement (the candidates: a last valid day within the widest window of all, grouped by hold
    with their own widest window), then each kept when its own window contains it."""
    widest = db.scalar(select(func.max(Qualification.requalification_window_days)))
    if not widest or widest <= 0:
        return []
    mh, q, qm, qg, ro = (
        ModuleHold,
        Qualification,
        QualificationModule,
        QualificationGroup,
        RequalificationOpening,
    )
    opened = exists().where(
        ro.user_id == mh.user_id, ro.module_id == mh.module_id, ro.valid_until == mh.valid_until
    )
    rows = db.execute(
        select(
            mh.user_id,
            mh.module_id,
            mh.valid_until,
            mh.validation_path_id,
            func.max(q.requalification_window_days),
        )
        .join(User, User.id == mh.user_id)
        .join(TrainingModule, TrainingModule.id == mh.module_id)
        .join(qm, qm.module_id == mh.module_id)
        .join(q, q.id == qm.qualification_id)
        .join(qg, qg.qualification_id == q.id)
        .join(user_group, (user_group.c.group_id == qg.group_id) & (user_group.c.user_id == mh.user_id))
        .where(
            mh.valid_until.between(day, day + timedelta(days=widest)),
            mh.requalification_path_id.is_(None),
            User.active.is_(True),
            TrainingModule.enabled.is_(True),
            TrainingModule.periodicity > 0,
            q.requalification_window_days > 0,
            ~opened,
        )
        .group_by(mh.user_id, mh.module_id, mh.valid_until, mh.validation_path_id)
        .order_by(mh.valid_until, mh.user_id, mh.module_id)
    ).all()
    return [
        Due(user_id, module_id, valid_until, path_id, window)
        for user_id, module_id, valid_until, path_id, window in rows
        if valid_until is not None and (valid_until - day).days <= window
    ]


def _chunks(ids: Sequence[int]) -> list[list[int]]:
    ordered = sorted(set(ids))
    return [ordered[start : start + CHUNK] for start in range(0, len(ordered), CHUNK)]


def _path_referents(
    db: Session, path_ids: Sequence[int]
) -> tuple[dict[tuple[int, int], list[int]], dict[int, list[int]]]:
    """The referents of each (path, module) and of each path, of the validating paths."""
    by_module: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_path: dict[int, list[int]] = defaultdict(list)
    for chunk in _chunks(path_ids):
        rows = db.execute(
            select(TrainingPathModule.path_id, TrainingPathModule.module_id, TrainingPathReferent.user_id)
            .join(TrainingPathReferent, TrainingPathReferent.path_module_id == TrainingPathModule.id)
            .where(TrainingPathModule.path_id.in_(chunk))
            .order_by(TrainingPathModule.path_id, TrainingPathModule.position, TrainingPathReferent.user_id)
        )
        for path_id, module_id, user_id in rows:
            by_module[(path_id, module_id)].append(user_id)
            by_path[path_id].append(user_id)
    return by_module, by_path


def _default_referents(db: Session, holds: Sequence[Due]) -> dict[tuple[int, int], list[int]]:
    """The default referents of the qualifications that hold each (person, module) with a window."""
    wanted = {(d.user_id, d.module_id) for d in holds}
    found: dict[tuple[int, int], list[int]] = defaultdict(list)
    qr, qm, qg, q = QualificationReferent, QualificationModule, QualificationGroup, Qualification
    modules = sorted({d.module_id for d in holds})
    for chunk in _chunks([d.user_id for d in holds]):
        rows = db.execute(
            select(user_group.c.user_id, qm.module_id, qr.user_id)
            .select_from(qr)
            .join(q, q.id == qr.qualification_id)
            .join(qm, qm.qualification_id == q.id)
            .join(qg, qg.qualification_id == q.id)
            .join(user_group, user_group.c.group_id == qg.group_id)
            .where(
                q.requalification_window_days > 0,
                qm.module_id.in_(modules),
                user_group.c.user_id.in_(chunk),
            )
            .distinct()
            .order_by(user_group.c.user_id, qm.module_id, qr.user_id)
        )
        for person_id, module_id, referent_id in rows:
            if (person_id, module_id) in wanted:
                found[(person_id, module_id)].append(referent_id)
    return found


def _visibility(db: Session, path_ids: Sequence[int]) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    persons: dict[int, list[int]] = defaultdict(list)
    groups: dict[int, list[int]] = defaultdict(list)
    for chunk in _chunks(path_ids):
        for path_id, user_id in db.execute(
            select(TrainingPathVisiblePerson.path_id, TrainingPathVisiblePerson.user_id).where(
                TrainingPathVisiblePerson.path_id.in_(chunk)
            )
        ):
            persons[path_id].append(user_id)
        for path_id, group_id in db.execute(
            select(TrainingPathVisibleGroup.path_id, TrainingPathVisibleGroup.group_id).where(
                TrainingPathVisibleGroup.path_id.in_(chunk)
            )
        ):
            groups[path_id].append(group_id)
    return persons, groups


def _active(db: Session, ids: Sequence[int]) -> set[int]:
    found: set[int] = set()
    for chunk in _chunks(ids):
        found.update(db.scalars(select(User.id).where(User.id.in_(chunk), User.active.is_(True))))
    return found


def _language(value: str | None) -> i18n.Language:
    return value if value in i18n.LANGUAGES else i18n.DEFAULT  # type: ignore[return-value]


def plan(db: Session, *, day: date) -> list[Opening]:
    """The requalification paths to open on `day`, with everything they take: reads only."""
    holds = due(db, day=day)
    if not holds:
        return []
    path_ids = [d.validation_path_id for d in holds if d.validation_path_id is not None]
    by_module, by_path = _path_referents(db, path_ids)
    defaults = _default_referents(db, holds)
    persons, groups = _visibility(db, path_ids)
    thresholds: dict[int, int] = {}
    for chunk in _chunks(path_ids):
        thresholds.update(
            db.execute(select(TrainingPath.id, TrainingPath.pass_threshold).where(TrainingPath.id.in_(chunk)))
            .tuples()
            .all()
        )
    learners: dict[int, str | None] = {}
    for chunk in _chunks([d.user_id for d in holds]):
        learners.update(db.execute(select(User.id, User.language).where(User.id.in_(chunk))).tuples().all())
    names = dict(
        db.execute(
            select(TrainingModule.id, TrainingModule.name).where(
                TrainingModule.id.in_(sorted({d.module_id for d in holds}))
            )
        )
        .tuples()
        .all()
    )
    candidates = {
        *(u for users in by_path.values() for u in users),
        *(u for users in defaults.values() for u in users),
    }
    active = _active(db, sorted(candidates))
    planned: list[Opening] = []
    unfollowed = 0
    for d in holds:
        path_id = d.validation_path_id if d.validation_path_id is not None else -1
        referents: tuple[int, ...] = ()
        for people in (
            by_module.get((path_id, d.module_id), []),
            by_path.get(path_id, []),
            defaults.get((d.user_id, d.module_id), []),
        ):
            referents = tuple(dict.fromkeys(p for p in people if p in active and p != d.user_id))
            if referents:
                break
        if not referents:
            unfollowed += 1
            continue
        language = _language(learners.get(d.user_id))
        planned.append(
            Opening(
                due=d,
                title=i18n.text(language, "requalification.title", module=names.get(d.module_id, "")),
                referents=referents,
                pass_threshold=thresholds.get(path_id, DEFAULT_THRESHOLD),
                visible_persons=tuple(persons.get(path_id, [])),
                visible_groups=tuple(groups.get(path_id, [])),
            )
        )
    if unfollowed:
        log.warning(
            "requalification: %s hold(s) within their window have no referent to follow them", unfollowed
        )
    return planned


def _claim(db: Session, d: Due) -> bool:
    """Record the opening of the hold, unless another writer did: whether this one did (the row it
    inserted comes back; a Core statement, since the ORM's INSERT counts the rows it was given, not
    those written). On PostgreSQL a concurrent writer of the same hold waits here for the other's
    commit, then inserts nothing."""
    insert_of = pg_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    r = RequalificationOpening
    statement = (
        insert_of(r)
        .values(
            user_id=d.user_id,
            module_id=d.module_id,
            valid_until=d.valid_until,
            path_id=None,
            opened_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=[r.user_id, r.module_id, r.valid_until])
        .returning(r.user_id)
    )
    return plain(db).execute(statement).first() is not None


def _still_due(db: Session, d: Due) -> bool:
    """The hold is as planned: same last valid day, no requalification path meanwhile."""
    return (
        db.scalar(
            select(func.count())
            .select_from(ModuleHold)
            .where(
                ModuleHold.user_id == d.user_id,
                ModuleHold.module_id == d.module_id,
                ModuleHold.valid_until == d.valid_until,
                ModuleHold.requalification_path_id.is_(None),
            )
        )
        == 1
    )


def open_planned(db: Session, planned: Sequence[Opening], *, day: date) -> int:
    """Open the planned paths in `db`'s transaction (the caller commits), each hold once ever: how many
    were opened. Each opening row is written first, then the hold checked again, then the path made
    through the paths' service (which tells the learner: records.on_change)."""
    opened = 0
    for item in planned:
        d = item.due
        if not _claim(db, d):
            continue
        key = (
            RequalificationOpening.user_id == d.user_id,
            RequalificationOpening.module_id == d.module_id,
            RequalificationOpening.valid_until == d.valid_until,
        )
        if not _still_due(db, d):
            db.execute(delete(RequalificationOpening).where(*key))
            continue
        path = paths.open_by_spot(
            db,
            title=item.title,
            learner_id=d.user_id,
            module_id=d.module_id,
            referents=item.referents,
            start_date=day,
            stop_date=d.valid_until,
            pass_threshold=item.pass_threshold,
            visible_by_persons=item.visible_persons,
            visible_by_groups=item.visible_groups,
        )
        db.execute(update(RequalificationOpening).where(*key).values(path_id=path.id))
        opened += 1
    if opened:
        log.info("requalification: %s path(s) opened", opened)
    return opened


def open_due(session: Callable[[], Session], *, day: date | None = None) -> int:
    """Plan (reads, committed), then open (writes, committed) the day's requalification paths, in a
    session of `session`; how many were opened. The daily scan does the same under its lease."""
    day = day or today()
    with session() as db:
        planned = plan(db, day=day)
        db.commit()
        opened = open_planned(db, planned, day=day)
        db.commit()
        return opened
