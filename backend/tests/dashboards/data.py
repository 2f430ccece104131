"""What dashboard tests build on: paths and their graded modules written in the tables as the path
service leaves them (totals of done and counted elements, current grading), and a fixed today."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from spot.training.modules.models import TrainingModule
from spot.training.paths.models import ModuleStatus, PathStatus, TrainingPath, TrainingPathModule
from support import API

BOARD = "perm_TableauBord"
TRACK = "perm_VisuTrack"
MINE = f"{API}/dashboards/mine"
GROUPS = f"{API}/dashboards/trainingPath"
MANAGER_CARTOGRAPHIES = f"{API}/dashboards/manager/cartographies"
# A Wednesday in the middle of a month, far from daylight saving changes.
TODAY = date(2026, 4, 15)
T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def fix_today(monkeypatch: pytest.MonkeyPatch, day: date = TODAY) -> date:
    """Today is `day` for the dashboards and the bell."""
    from spot.dashboards import service
    from spot.qualifications import alerts as bell
    from spot.training.paths import alerts as path_alerts

    for module in (service, bell, path_alerts):
        monkeypatch.setattr(module, "today", lambda: day)
    return day


def module(db: Session, name: str = "Consignation", *, periodicity: int = 0) -> int:
    row = TrainingModule(name=name, periodicity=periodicity, created_at=T0)
    db.add(row)
    db.flush()
    return row.id


def path(
    db: Session,
    learner_id: int | None,
    *,
    start: date,
    stop: date,
    status: str = PathStatus.started.value,
    done: int = 0,
    total: int = 0,
    title: str = "Parcours",
) -> int:
    row = TrainingPath(
        title=title,
        learner_id=learner_id,
        status=status,
        created_at=T0,
        status_changed_at=T0,
        start_date=start,
        stop_date=stop,
        done_items=done,
        total_items=total,
    )
    db.add(row)
    db.flush()
    return row.id


def graded(
    db: Session,
    path_id: int,
    module_id: int,
    *,
    valid_until: date | None,
    position: int = 0,
    success: bool = True,
    status: str = ModuleStatus.validated.value,
    graded_at: datetime = T0,
) -> int:
    """An assigned module graded (successfully by default), valid until the day given."""
    row = TrainingPathModule(
        path_id=path_id,
        position=position,
        module_id=module_id,
        start_date=date(2020, 1, 1),
        stop_date=date(2030, 1, 1),
        status=status,
        status_changed_at=graded_at,
        grade=8.0 if success else 2.0,
        is_success=success,
        valid_until=valid_until,
        graded_at=graded_at,
    )
    db.add(row)
    db.flush()
    return row.id


def held(db: Session, learner_id: int, module_id: int, *, days: int, today: date = TODAY) -> int:
    """The learner holds the module for `days` more days (0: today is the last), from a path closed and
    signed (which awaits nothing more)."""
    path_id = path(
        db, learner_id, start=date(2020, 1, 1), stop=date(2020, 12, 31), status=PathStatus.archived.value
    )
    return graded(
        db, path_id, module_id, valid_until=today + timedelta(days=days), status=ModuleStatus.archived.value
    )
