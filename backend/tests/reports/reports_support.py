"""What the path report tests build on: a valid report request, and a generated organisation
(learners, groups, modules, paths with modules of every status, gradings, signatures, mediations, people
whose account is gone) written straight into the database from a seed, with the plain-Python selection
the report must agree with.

    world = generate(db, random.Random(7), viewer_id=viewer.id)
    expected = world.select(selectors, sees_all=True, viewer_groups=set())
"""

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from spot.core.signatures import Signature
from spot.mediations.models import Mediation
from spot.querylang.text import fold
from spot.references.models import Reference
from spot.training.modules.models import TrainingModule, TrainingModuleItem
from spot.training.paths.models import (
    TrainingPath,
    TrainingPathGrading,
    TrainingPathMediation,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.training.paths.service import MODULE_RECORD, PATH_RECORD
from spot.users.models import Group, User
from support import API

REPORTS = f"{API}/reports/trainingPaths"
CONFIGURATIONS = f"{API}/account/configuration/trainingPathReports"
DASHBOARD, MANAGE, PATH_ADMIN = "perm_TableauBord", "perm_TrainingManagement", "perm_TrainingPathAdmin"

PATH_STATUSES = ("notAccepted", "accepted", "started", "finished", "validated", "archived", "canceled")
MODULE_STATUSES = ("notStarted", "started", "finished", "validated", "archived", "disabled")
MODULE_TYPES = ("training", "qualification", "other")
PATH_OPTIONS = ("reference", "dates", "status", "creator", "validation", "signature", "completion")
PATH_OPTIONS += ("averageGrade", "duration")
MODULE_OPTIONS = ("reference", "goals", "referents", "dates", "status", "grades", "comments", "signatures")
MODULE_OPTIONS += ("mediations", "mediators", "results")
YEAR = 2025


def request_body(
    *,
    learners: Sequence[int] = (),
    groups: Sequence[int] = (),
    path_options: dict[str, bool] | None = None,
    module_options: dict[str, bool] | None = None,
    **selectors: Any,
) -> dict[str, Any]:
    """A valid report request over YEAR, every status, every module type, every option."""
    return {
        "selectors": {
            "start": f"{YEAR}-01-01",
            "stop": f"{YEAR}-12-31",
            "learnerIdList": list(learners),
            "groupIdList": list(groups),
            "pathStatutes": list(PATH_STATUSES),
            "moduleStatutes": list(MODULE_STATUSES),
            "moduleTypes": list(MODULE_TYPES),
        }
        | selectors,
        "documentOptions": {
            "documentTitle": "Rapport des parcours de formation",
            "displayExternalIds": True,
            "learnerSignature": True,
            "managerSignature": True,
            "managerSignatureLabel": "Responsable",
            "signatureImage": None,
        },
        "pathOptions": dict.fromkeys(PATH_OPTIONS, True) | (path_options or {}),
        "moduleOptions": dict.fromkeys(MODULE_OPTIONS, True) | (module_options or {}),
    }


# A generated organisation ------------------------------------------------------------------------------

# Capitalised ASCII names: every database orders them alike.
LAST_NAMES = ("Martin", "Bernard", "Dubois", "Durand", "Petit", "Leroy", "Moreau", "Roux")
FIRST_NAMES = ("Alice", "Bruno", "Claire", "David", "Emma", "Hugo")


@dataclass
class ModuleRow:
    id: int
    index: int
    status: str
    module_type: str
    grade: float | None
    name: str


@dataclass
class PathRow:
    id: int
    title: str
    learner_id: int
    start: date
    stop: date
    status: str
    creator_id: int | None
    modules: list[ModuleRow]
    referents: set[int]
    visible_persons: set[int]
    visible_groups: set[int]


@dataclass
class World:
    learners: dict[int, tuple[str, str]] = field(default_factory=dict)
    groups: dict[int, set[int]] = field(default_factory=dict)
    paths: list[PathRow] = field(default_factory=list)
    # Creators, referents, signers and mediators whose account is gone.
    gone: set[int] = field(default_factory=set)

    def visible(self, path: PathRow, viewer_id: int, viewer_groups: set[int]) -> bool:
        return (
            viewer_id in (path.learner_id, path.creator_id)
            or viewer_id in path.referents
            or viewer_id in path.visible_persons
            or bool(path.visible_groups & viewer_groups)
        )

    def select(
        self,
        selectors: dict[str, Any],
        *,
        sees_all: bool,
        viewer_id: int = -1,
        viewer_groups: Iterable[int] = (),
    ) -> list[tuple[int, list[tuple[int, list[int]]]]]:
        """The report in plain Python: (learner id, [(path id, [module indexes shown])]) in order."""
        start, stop = date.fromisoformat(selectors["start"]), date.fromisoformat(selectors["stop"])
        named = set(selectors["learnerIdList"])
        for group_id in selectors["groupIdList"]:
            named |= self.groups.get(group_id, set())
        chosen: dict[int, list[tuple[PathRow, list[int]]]] = {}
        for path in self.paths:
            if not (sees_all or self.visible(path, viewer_id, set(viewer_groups))):
                continue
            if path.start > stop or path.stop < start or path.status not in selectors["pathStatutes"]:
                continue
            if path.learner_id not in named:
                continue
            shown = [
                m.index
                for m in path.modules
                if m.status in selectors["moduleStatutes"] and m.module_type in selectors["moduleTypes"]
            ]
            if shown:
                chosen.setdefault(path.learner_id, []).append((path, shown))

        def learner_key(learner_id: int) -> tuple[str, str, int]:
            first, last = self.learners[learner_id]
            return last, first, learner_id

        return [
            (
                learner_id,
                [
                    (p.id, shown)
                    for p, shown in sorted(
                        chosen[learner_id], key=lambda c: (c[0].start, fold(c[0].title), c[0].id)
                    )
                ],
            )
            for learner_id in sorted(chosen, key=learner_key)
        ]


def _user(db: Session, rng: random.Random, n: int, prefix: str) -> User:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    user = User(
        login=f"{prefix}{n}",
        first_name=first,
        last_name=last,
        external_id=f"EXT{prefix}{n}" if rng.random() < 0.5 else None,
    )
    db.add(user)
    return user


def generate(
    db: Session,
    rng: random.Random,
    *,
    viewer_id: int,
    viewer_group_id: int | None = None,
    learners: int = 14,
    paths_per_learner: int = 4,
) -> World:
    """A seeded organisation: `learners` learners in three groups, staff (some of whose accounts are then
    removed), four modules of random types, and up to `paths_per_learner` paths per learner with random
    periods around YEAR, statuses, modules, gradings, signatures and mediations. `viewer_id` is made
    creator, referent or reader of some paths (and `viewer_group_id` a reader group of some)."""
    world = World()
    people = [_user(db, rng, n, "learner") for n in range(learners)]
    staff = [_user(db, rng, n, "staff") for n in range(4)]
    db.flush()
    for person in people:
        world.learners[person.id] = (person.first_name, person.last_name)
    for n in range(3):
        group = Group(name=f"report-group-{n}")
        db.add(group)
        db.flush()
        members = {p.id for p in people if rng.random() < 0.4}
        for person in people:
            if person.id in members:
                person.groups.append(group)
        world.groups[group.id] = members
    reference = Reference(type="module", code="MOD-REF", label="Référence module")
    path_reference = Reference(type="path", code="PATH-REF", label="Référence parcours")
    db.add_all([reference, path_reference])
    db.flush()
    modules = []
    for n in range(4):
        module = TrainingModule(
            name=f"Module {n}",
            module_type=rng.choice(MODULE_TYPES),
            goals=f"Objectifs {n}",
            estimated_duration=rng.choice((0, 30, 90)),
            reference_id=reference.id if n % 2 else None,
            created_at=datetime(YEAR, 1, 1, tzinfo=UTC),
            version=1,
        )
        db.add(module)
        modules.append(module)
    db.flush()
    now = datetime(YEAR, 6, 1, 12, tzinfo=UTC)
    referent_pool = [s.id for s in staff] + [viewer_id]
    for person in people:
        for n in range(rng.randrange(paths_per_learner + 1)):
            start = date(YEAR, 1, 1) + timedelta(days=rng.randrange(-200, 400))
            stop = start + timedelta(days=rng.randrange(0, 150))
            status = rng.choice(PATH_STATUSES)
            creator = rng.choice([s.id for s in staff] + [viewer_id])
            path = TrainingPath(
                title=rng.choice(("Parcours", "parcours", "Écluse", "Atelier")) + f" {n}",
                learner_id=person.id,
                creator_id=creator,
                reference_id=path_reference.id if rng.random() < 0.5 else None,
                status=status,
                created_at=now,
                status_changed_at=now,
                start_date=start,
                stop_date=stop,
                pass_threshold=7,
                validator_id=rng.choice([s.id for s in staff])
                if status in ("validated", "archived")
                else None,
                validated_at=now if status in ("validated", "archived") else None,
                validation_comment="Clos" if status in ("validated", "archived") else None,
                total_items=rng.randrange(0, 6),
            )
            path.done_items = rng.randrange(0, path.total_items + 1)
            db.add(path)
            db.flush()
            row = PathRow(
                path.id, path.title, person.id, start, stop, status, creator, [], set(), set(), set()
            )
            for index, module in enumerate(rng.sample(modules, rng.randrange(0, 4))):
                module_status = rng.choice(MODULE_STATUSES)
                grade = round(rng.uniform(0, 10), 1) if module_status in ("validated", "archived") else None
                assigned = TrainingPathModule(
                    path_id=path.id,
                    position=index,
                    module_id=module.id,
                    start_date=start,
                    stop_date=stop,
                    status=module_status,
                    status_changed_at=now,
                    grade=grade,
                    is_success=None if grade is None else grade >= 7,
                    graded_at=None if grade is None else now,
                    total_items=2,
                    done_items=rng.randrange(3),
                )
                db.add(assigned)
                db.flush()
                referent = rng.choice(referent_pool)
                db.add(TrainingPathReferent(path_module_id=assigned.id, user_id=referent, path_id=path.id))
                row.referents.add(referent)
                if grade is not None:
                    db.add(
                        TrainingPathGrading(
                            path_module_id=assigned.id,
                            grade=grade,
                            comment=f"Commentaire {index}",
                            is_success=grade >= 7,
                            referent_id=rng.choice([s.id for s in staff]),
                            referent_name="Ancien nom",
                            graded_at=now,
                        )
                    )
                    db.add(
                        Signature(
                            record_type=MODULE_RECORD,
                            record_id=assigned.id,
                            signer_id=person.id if rng.random() < 0.5 else rng.choice([s.id for s in staff]),
                            signer_name="Nom imprimé",
                            signed_at=now,
                            meaning="acknowledgement",
                            content_hash="0" * 64,
                        )
                    )
                if rng.random() < 0.3:
                    mediation = Mediation(
                        title=f"Médiation {path.id}-{index}",
                        mediator_id=rng.choice([s.id for s in staff]),
                        created_at=now,
                        updated_at=now,
                        status="validated",
                    )
                    db.add(mediation)
                    db.flush()
                    db.add(
                        TrainingPathMediation(
                            path_module_id=assigned.id,
                            module_item_id=_item(db, module),
                            mediation_id=mediation.id,
                            attached_at=now,
                        )
                    )
                row.modules.append(
                    ModuleRow(assigned.id, index, module_status, module.module_type, grade, module.name)
                )
            if rng.random() < 0.2:
                db.add(TrainingPathVisiblePerson(path_id=path.id, user_id=viewer_id))
                row.visible_persons.add(viewer_id)
            if viewer_group_id is not None and rng.random() < 0.2:
                db.add(TrainingPathVisibleGroup(path_id=path.id, group_id=viewer_group_id))
                row.visible_groups.add(viewer_group_id)
            if status in ("validated", "archived"):
                db.add(
                    Signature(
                        record_type=PATH_RECORD,
                        record_id=path.id,
                        signer_id=creator,
                        signer_name="Signataire",
                        signed_at=now,
                        meaning="approval",
                        content_hash="0" * 64,
                    )
                )
            world.paths.append(row)
    db.flush()
    # Two staff accounts go: their paths, gradings, signatures and mediations print X.
    for gone in staff[:2]:
        world.gone.add(gone.id)
        for path in world.paths:
            if path.creator_id == gone.id:
                path.creator_id = None
            path.referents.discard(gone.id)
        db.execute(delete(User).where(User.id == gone.id))
    db.commit()
    return world


def _item(db: Session, module: TrainingModule) -> int:
    """The module's mediation element (made once per module)."""
    item = db.query(TrainingModuleItem).filter_by(module_id=module.id, kind="mediation").one_or_none()
    if item is None:
        item = TrainingModuleItem(
            module_id=module.id, position=0, kind="mediation", title="Médiation", description=""
        )
        db.add(item)
        db.flush()
    return item.id
