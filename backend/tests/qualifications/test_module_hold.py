"""module_hold, each person's current hold on each module, is kept by the database's triggers (migration
3b9e6c1d7a52) equal to the rule of validity.computed, whoever writes the paths and their modules and in
whatever order: inserted, graded, disabled, canceled, given to another learner, deleted one by one or
with their path. Checked after every write of random sequences, and for the migration's first filling."""

import importlib.util
import threading
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.orm import Session

from qualifications.world import TODAY, graded, in_progress, module
from spot import db as database
from spot.qualifications import validity
from spot.qualifications.models import ModuleHold
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import ModuleStatus, PathStatus, TrainingPath, TrainingPathModule
from spot.users.models import User

MIGRATION = next((Path(__file__).parents[2] / "migrations" / "versions").glob("*_3b9e6c1d7a52_*.py"))
EVERYONE = select(User.id)
EVERY_MODULE = select(TrainingModule.id)
# Few grading times, so that ties (broken by the row's id) happen.
GRADED = [datetime(2026, 5, day, 10, tzinfo=UTC) for day in (1, 2, 3)]


def held(db: Session) -> set[tuple]:
    return set(db.execute(validity.stored(EVERYONE, EVERY_MODULE)).tuples())


def expected(db: Session) -> set[tuple]:
    return set(db.execute(validity.computed(EVERYONE, EVERY_MODULE)).tuples())


def assert_kept(db: Session) -> None:
    assert held(db) == expected(db)
    # Nothing beyond the pairs of existing people and modules (a learner removed from a path included).
    assert db.scalar(select(func.count()).select_from(ModuleHold)) == len(held(db))


module_rows = st.tuples(
    st.integers(0, 1),  # module
    st.sampled_from(list(ModuleStatus)),
    st.sampled_from([None, True, False]),  # is_success
    st.sampled_from([None, -40, -1, 0, 30, 31]),  # valid_until, days from TODAY
    st.integers(0, 2),  # graded_at
)
operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("add"),
            st.integers(0, 1),
            st.sampled_from(list(PathStatus)),
            st.lists(module_rows, min_size=1, max_size=3),
        ),
        st.tuples(st.just("grade"), st.integers(0, 20), st.booleans(), st.sampled_from([None, -3, 12])),
        st.tuples(st.just("moduleStatus"), st.integers(0, 20), st.sampled_from(list(ModuleStatus))),
        st.tuples(st.just("pathStatus"), st.integers(0, 20), st.sampled_from(list(PathStatus))),
        st.tuples(st.just("learner"), st.integers(0, 20), st.sampled_from([0, 1, None])),
        st.tuples(st.just("deleteModule"), st.integers(0, 20)),
        st.tuples(st.just("deletePath"), st.integers(0, 20), st.booleans()),
    ),
    min_size=1,
    max_size=12,
)


def _pick(db: Session, model: type, index: int) -> int | None:
    ids = db.scalars(select(model.id).order_by(model.id)).all()
    return ids[index % len(ids)] if ids else None


def _apply(db: Session, operation: tuple, people: list[int], modules: list[int]) -> None:
    kind, *args = operation
    path_module, path = TrainingPathModule, TrainingPath
    if kind == "add":
        learner, status, rows = args
        at = datetime(2026, 4, 1, 9, tzinfo=UTC)
        path_id = db.scalar(
            insert(path)
            .values(
                title="P",
                learner_id=people[learner],
                status=status.value,
                created_at=at,
                status_changed_at=at,
                start_date=TODAY,
                stop_date=TODAY,
            )
            .returning(path.id)
        )
        for position, (m, m_status, success, days, graded_at) in enumerate(rows):
            db.execute(
                insert(path_module).values(
                    path_id=path_id,
                    position=position,
                    module_id=modules[m],
                    status=m_status.value,
                    status_changed_at=at,
                    start_date=TODAY,
                    stop_date=TODAY,
                    is_success=success,
                    valid_until=None if days is None else TODAY + timedelta(days=days),
                    graded_at=None if success is None else GRADED[graded_at],
                )
            )
        return
    if kind in ("grade", "moduleStatus", "deleteModule"):
        found = _pick(db, path_module, args[0])
        if found is None:
            return
        row = path_module.id == found
        if kind == "grade":
            days = args[2]
            db.execute(
                update(path_module)
                .where(row)
                .values(
                    is_success=args[1],
                    status=ModuleStatus.validated.value,
                    valid_until=None if days is None else TODAY + timedelta(days=days),
                    graded_at=GRADED[found % 3],
                )
            )
        elif kind == "moduleStatus":
            db.execute(update(path_module).where(row).values(status=args[1].value))
        else:
            db.execute(delete(path_module).where(row))
        return
    found = _pick(db, path, args[0])
    if found is None:
        return
    if kind == "pathStatus":
        db.execute(update(path).where(path.id == found).values(status=args[1].value))
    elif kind == "learner":
        learner = None if args[1] is None else people[args[1]]
        db.execute(update(path).where(path.id == found).values(learner_id=learner))
    else:
        # Its modules first, as the path service does, or left to the cascade.
        if args[1]:
            db.execute(delete(path_module).where(path_module.path_id == found))
        db.execute(delete(path).where(path.id == found))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=operations)
def test_module_hold_follows_every_write(db, make_user, operations):
    db.execute(delete(TrainingPath))
    assert db.scalar(select(func.count()).select_from(ModuleHold)) == 0
    people = [
        u.id for u in db.scalars(select(User).where(User.login.in_(["ana", "bruno"])).order_by(User.login))
    ]
    if not people:
        people = [make_user("ana").id, make_user("bruno").id]
    modules = db.scalars(select(TrainingModule.id).order_by(TrainingModule.id)).all()[:2]
    if len(modules) < 2:
        modules = [module(db, "Habilitation électrique"), module(db, "Travail en hauteur")]
    for operation in operations:
        _apply(db, operation, people, modules)
        assert_kept(db)
    db.commit()


def test_an_orm_grading_and_a_cancel_move_the_hold(db, make_user):
    person = make_user("personne")
    module_id = module(db, "Habilitation")
    first = graded(db, person.id, module_id, days=100, graded_days_ago=30)
    second = graded(db, person.id, module_id, days=10, graded_days_ago=5)
    requalifying = in_progress(db, person.id, module_id)
    hold = db.get(ModuleHold, (person.id, module_id))
    assert (hold.validation_path_id, hold.valid_until, hold.requalification_path_id) == (
        second,
        TODAY + timedelta(days=10),
        requalifying,
    )
    # The latest grading's path canceled: the earlier one holds again.
    path = db.get(TrainingPath, second)
    path.status = PathStatus.canceled.value
    db.commit()
    db.expire_all()
    assert db.get(ModuleHold, (person.id, module_id)).validation_path_id == first
    # The requalification accepted, then validated: no requalification any more once graded.
    module_row = db.scalars(
        select(TrainingPathModule).where(TrainingPathModule.path_id == requalifying)
    ).one()
    module_row.status, module_row.is_success = ModuleStatus.validated.value, False
    db.commit()
    db.expire_all()
    assert db.get(ModuleHold, (person.id, module_id)).requalification_path_id is None
    assert_kept(db)


def test_a_deleted_learner_leaves_no_hold(db, make_user):
    person = make_user("parti")
    module_id = module(db, "Habilitation")
    graded(db, person.id, module_id, days=100)
    in_progress(db, person.id, module_id)
    assert db.get(ModuleHold, (person.id, module_id)) is not None
    db.delete(db.get(User, person.id))
    db.commit()
    assert db.scalar(select(func.count()).select_from(ModuleHold).where(ModuleHold.user_id == person.id)) == 0
    assert_kept(db)


def _migration() -> ModuleType:
    spec = importlib.util.spec_from_file_location("module_hold_migration", MIGRATION)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)
    return found


@pytest.mark.parametrize("days", [None, -1, 0, 45])
def test_the_migration_fills_the_table_with_the_rule(db, make_user, days):
    people = [make_user(f"p{i}").id for i in range(3)]
    modules = [module(db, f"Module {i}") for i in range(2)]
    graded(db, people[0], modules[0], days=days)
    graded(db, people[0], modules[0], days=5, success=False, graded_days_ago=1)
    graded(db, people[1], modules[1], days=days, path_status="canceled")
    in_progress(db, people[1], modules[0], path_status="notAccepted")
    in_progress(db, people[2], modules[1])
    before = held(db)
    assert before == expected(db) and before
    db.execute(delete(ModuleHold))
    migration = _migration()
    db.execute(text(f"INSERT INTO module_hold ({migration.COLUMNS}) {migration.COMPUTED.format(pairs='')}"))
    assert held(db) == before
    db.rollback()


def test_today_is_counted_when_read(db, make_user):
    """The table keeps the last valid day; the remaining days follow the day it is read."""
    person = make_user("personne")
    module_id = module(db, "Habilitation")
    graded(db, person.id, module_id, days=3)
    learners, modules = select(User.id).where(User.id == person.id), select(TrainingModule.id)
    for day, remaining in [(TODAY, 3), (TODAY + timedelta(days=3), 0), (date(2026, 6, 19), -1)]:
        found = validity.module_validities(db, learners=learners, modules=modules, today=day)
        assert found[(person.id, module_id)].remaining_days == remaining


@pytest.mark.skipif(
    database.get_engine().dialect.name != "postgresql", reason="SQLite has one writer at a time"
)
def test_two_writers_of_one_learners_holds_see_each_other(db, make_user):
    """A referent grades a requalification while another changes the learner's earlier validation of
    the same module: the second writer's trigger waits for the first to commit and recomputes over its
    grading, instead of writing a hold computed before it (the latest success would be lost)."""
    person = make_user("personne")
    module_id = module(db, "Habilitation")
    earlier = graded(db, person.id, module_id, days=10, graded_days_ago=30)
    requalifying = in_progress(db, person.id, module_id)
    engine = database.get_engine()
    m = TrainingPathModule
    first, second = engine.connect(), engine.connect()
    try:
        first.begin()
        first.execute(
            update(m)
            .where(m.path_id == requalifying)
            .values(
                status=ModuleStatus.validated.value,
                is_success=True,
                valid_until=TODAY + timedelta(days=365),
                graded_at=datetime(2026, 6, 15, 11, tzinfo=UTC),
            )
        )
        second.begin()
        changed = threading.Thread(
            target=lambda: second.execute(
                update(m).where(m.path_id == earlier).values(valid_until=TODAY + timedelta(days=20))
            )
        )
        changed.start()
        changed.join(timeout=0.5)
        assert changed.is_alive()  # waiting for the first writer
        first.commit()
        changed.join(timeout=120)
        assert not changed.is_alive()
        second.commit()
    finally:
        first.close()
        second.close()
    db.expire_all()
    hold = db.get(ModuleHold, (person.id, module_id))
    assert (hold.validation_path_id, hold.requalification_path_id) == (requalifying, None)
    assert_kept(db)
