"""What qualification tests build on (plain helpers): groups of people, modules (with spot elements for
the coverage), qualifications made through the API, and gradings written in the database as the path
service leaves them (a successful grading with its valid_until, in a path of some status), around a
fixed today (the `today` fixture of conftest.py)."""

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert
from sqlalchemy.orm import Session

from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths.models import TrainingPath, TrainingPathModule
from spot.users.models import Group, user_group
from support import API

QUALIFICATIONS = f"{API}/qualifications"
BOARD = "perm_TableauBord"
ADMIN = "perm_QualificationAdmin"
# The day the tests take for today.
TODAY = date(2026, 6, 15)


def group(db: Session, name: str, member_ids: Sequence[int] = ()) -> int:
    row = Group(name=name)
    db.add(row)
    db.flush()
    if member_ids:
        db.execute(insert(user_group), [{"user_id": u, "group_id": row.id} for u in member_ids])
    db.commit()
    return row.id


def join(db: Session, group_id: int, *user_ids: int) -> None:
    db.execute(insert(user_group), [{"user_id": u, "group_id": group_id} for u in user_ids])
    db.commit()


def module(
    db: Session,
    name: str,
    *,
    periodicity: int = 12,
    functions: Sequence[int] = (),
    subjects: Sequence[int] = (),
    enabled: bool = True,
) -> int:
    """A module with a url element, then a spot element per function and per subject given."""
    row = TrainingModule(
        name=name,
        module_type="qualification",
        goals="Savoir faire",
        estimated_duration=60,
        periodicity=periodicity,
        pass_threshold=7,
        enabled=enabled,
        created_at=datetime.combine(TODAY, time(8), tzinfo=UTC),
        version=1,
    )
    db.add(row)
    db.flush()
    items: list[dict[str, Any]] = [{"kind": "url", "url": "https://www.inrs.fr/", "label": "INRS"}]
    items += [{"kind": "spot", "spot_item_type": "function", "spot_item_id": f} for f in functions]
    items += [{"kind": "spot", "spot_item_type": "subject", "spot_item_id": s} for s in subjects]
    for position, item in enumerate(items):
        db.add(TrainingModuleItem(module_id=row.id, position=position, **item))
    db.commit()
    return row.id


def body(
    name: str, *, groups: Sequence[int], modules: Sequence[int], cartographies: Sequence[int] = ()
) -> dict:
    return {
        "name": name,
        "cartographies": list(cartographies),
        "qualifiableGroups": list(groups),
        "modules": list(modules),
    }


def qualification(client: TestClient, headers: dict[str, str], name: str, **links: Sequence[int]) -> int:
    """A qualification made through the API; its id."""
    response = client.post(QUALIFICATIONS, json=body(name, **links), headers=headers)  # type: ignore[arg-type]
    assert response.status_code == 200, response.text
    return response.json()["id"]


def _path(db: Session, learner_id: int, status: str, day: date) -> TrainingPath:
    at = datetime.combine(day, time(9), tzinfo=UTC)
    path = TrainingPath(
        title="Parcours",
        learner_id=learner_id,
        status=status,
        created_at=at,
        status_changed_at=at,
        start_date=day,
        stop_date=day + timedelta(days=30),
    )
    db.add(path)
    db.flush()
    return path


def graded(
    db: Session,
    learner_id: int,
    module_id: int,
    *,
    days: int | None,
    success: bool = True,
    path_status: str = "validated",
    graded_days_ago: int = 10,
) -> int:
    """A path of the learner whose module was graded `graded_days_ago` days before TODAY, valid until
    TODAY + `days` (None: permanent, a module that is not periodic); its id."""
    day = TODAY - timedelta(days=graded_days_ago)
    path = _path(db, learner_id, path_status, day)
    db.add(
        TrainingPathModule(
            path_id=path.id,
            position=0,
            module_id=module_id,
            start_date=day,
            stop_date=day,
            status="validated" if path_status in ("validated", "archived") else "finished",
            status_changed_at=datetime.combine(day, time(10), tzinfo=UTC),
            grade=8.0 if success else 3.0,
            is_success=success,
            valid_until=None if days is None else TODAY + timedelta(days=days),
            graded_at=datetime.combine(day, time(10), tzinfo=UTC),
        )
    )
    db.commit()
    return path.id


def in_progress(db: Session, learner_id: int, module_id: int, *, path_status: str = "started") -> int:
    """A path of the learner in progress where the module is not graded yet (a requalification)."""
    path = _path(db, learner_id, path_status, TODAY - timedelta(days=2))
    db.add(
        TrainingPathModule(
            path_id=path.id,
            position=0,
            module_id=module_id,
            start_date=TODAY,
            stop_date=TODAY + timedelta(days=20),
            status="started" if path_status == "started" else "notStarted",
            status_changed_at=datetime.combine(TODAY, time(10), tzinfo=UTC),
        )
    )
    db.commit()
    return path.id


def on(days: int) -> str:
    return (TODAY + timedelta(days=days)).isoformat()
