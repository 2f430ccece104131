"""What module tests build on: references, a course of the learning platform and paths, written
directly in the test's database (each has its own area and tests), and a module form to send."""

from typing import Any

from sqlalchemy.orm import Session

from mapping.maps import Map
from spot.core.time import utcnow
from spot.lms.models import LmsCourse, LmsItem
from spot.references.models import Reference
from spot.training.paths.models import TrainingPath, TrainingPathModule
from support import API

MANAGE = "perm_TrainingManagement"
MODULES = f"{API}/training/module"


def reference(db: Session, code: str, *, type: str = "module", disabled: bool = False, **fields: str) -> int:
    row = Reference(
        type=type,
        code=code,
        label=fields.get("label", f"Libellé {code}"),
        description=fields.get("description", f"Description de {code}"),
        disabled=disabled,
    )
    db.add(row)
    db.commit()
    return row.id


class Course:
    """A course with a group holding a resource and a quiz; ids by name."""

    def __init__(self, db: Session, title: str = "Consignation") -> None:
        now = utcnow()
        course = LmsCourse(
            activity_id=f"https://spot.test/courses/{title}",
            title=title,
            content_key="0" * 64,
            imported_at=now,
        )
        db.add(course)
        db.flush()
        group = LmsItem(
            course_id=course.id, kind="group", activity_id=f"{title}/bloc", name="Bloc", position=0
        )
        db.add(group)
        db.flush()
        self.db = db
        self.id = course.id
        self.group = group.id
        self.resource = self._item(group.id, "resource", "Lire la procédure", 0)
        self.quiz = self._item(group.id, "quiz", "Quiz de consignation", 1)
        db.commit()

    def _item(self, parent_id: int, kind: str, name: str, position: int) -> int:
        item = LmsItem(
            course_id=self.id,
            parent_id=parent_id,
            kind=kind,
            activity_id=f"{self.id}/{name}",
            name=name,
            url="index.html",
            # As imported: a resource is done when completed, a quiz when passed (lms.satisfaction).
            move_on="Passed" if kind == "quiz" else "Completed",
            position=position,
        )
        self.db.add(item)
        self.db.flush()
        return item.id

    def remove_item(self, item_id: int) -> None:
        self.db.get(LmsItem, item_id).removed_at = utcnow()  # type: ignore[union-attr]
        self.db.commit()

    def remove(self) -> None:
        self.db.get(LmsCourse, self.id).removed_at = utcnow()  # type: ignore[union-attr]
        self.db.commit()


def path(db: Session, *module_ids: int, status: str = "notAccepted") -> int:
    """A training path assigning these modules, inserted as it stands (the modules' rules only look at
    which paths use a module and in which status)."""
    now = utcnow()
    day = now.date()
    row = TrainingPath(
        title="Parcours", status=status, created_at=now, status_changed_at=now, start_date=day, stop_date=day
    )
    db.add(row)
    db.flush()
    for position, module_id in enumerate(module_ids):
        db.add(
            TrainingPathModule(
                path_id=row.id,
                position=position,
                module_id=module_id,
                start_date=day,
                stop_date=day,
                status_changed_at=now,
            )
        )
    db.commit()
    return row.id


def spot(kind: str, item_id: int) -> dict[str, Any]:
    return {"type": "spot", "spotItemType": kind, "spotItemId": item_id}


def mediation(
    title: str = "Démonstration au poste", description: str = "Le référent montre\nles gestes"
) -> dict[str, Any]:
    return {"type": "mediation", "title": title, "description": description}


def url(
    address: str = "https://www.inrs.fr/risques/consignation/ce-qu-il-faut-retenir.html", label: str = "INRS"
) -> dict[str, Any]:
    return {"type": "url", "url": address, "label": label}


def lms(item_id: int) -> dict[str, Any]:
    return {"type": "lms", "lmsCourseId": item_id}


def form(m: Map, course: Course | None = None, **overrides: Any) -> dict[str, Any]:
    """A module with one element of each kind (the lms one when a course is given)."""
    items = [spot("activity", m.activity("A11")), mediation(), url()]
    if course is not None:
        items.append(lms(course.quiz))
    body = {
        "name": "Consignation d'une machine",
        "moduleType": "training",
        "goals": "Savoir consigner\net déconsigner",
        "estimatedDuration": 90,
        "reference": None,
        "periodicity": 12,
        "passThreshold": 7,
        "moduleItems": items,
    }
    return {**body, **overrides}
