"""The bench dataset's training modules and paths (separate steps of `python -m bench`, after
bench.dataset.generate): 2,000 modules with their elements, 50,000 paths over them and the users, and
the module and path that the scenarios `modules` and `paths` read."""

import random
import time
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import Engine, delete, func, insert, select, text

from bench.dataset import (
    ACTION,
    ACTIVITIES,
    ACTIVITY_IDS_FROM,
    CARTOGRAPHIES,
    CARTOGRAPHY_IDS_FROM,
    EPOCH,
    FUNCTION_IDS_FROM,
    FUNCTIONS,
    OF,
    PART,
    SITES,
    SUBJECTS,
    USERS,
    WHEN,
    WHERE,
    load,
    random_time,
)
from spot import db as database
from spot.qualifications import validity
from spot.qualifications.models import ModuleHold
from spot.querylang.text import fold
from spot.training.modules.models import TrainingModule
from spot.users.models import User

MODULES = 2_000
MODULE_REFERENCES = 40
# A course of the learning platform that module elements point to: resources and quizzes.
COURSE_UNITS = 20
MODULE_TOPICS = [
    "Consignation",
    "Habilitation",
    "Conduite",
    "Réglage",
    "Maintenance",
    "Accueil sécurité",
    "Contrôle",
    "Manutention",
    "Prévention des TMS",
    "Levage",
]
MODULE_TYPES = ["training", "qualification", "other"]
# The module that scenario `modules` reads: one element of every kind (top_up_modules).
MEASURED_MODULE = 1000


def top_up_modules(engine: Engine) -> None:
    """Add MODULES training modules with 1 to 8 elements each (a separate step, like top_up_nodes), over
    MODULE_REFERENCES module references and one course of COURSE_UNITS units; rows of those tables are
    added after any already there. MEASURED_MODULE holds one element of each kind and spot type."""
    tables = database.Base.metadata.tables
    modules, items = tables["training_module"], tables["training_module_item"]
    references, courses, units = tables["training_reference"], tables["lms_course"], tables["lms_item"]
    with engine.connect() as conn:
        if (conn.scalar(select(func.count()).select_from(modules)) or 0) >= MODULES:
            return
    started = time.monotonic()
    print("adding training modules…", flush=True)
    with engine.begin() as conn:  # what an interrupted top-up may have left
        conn.execute(items.delete())
        conn.execute(modules.delete())
        conn.execute(references.delete().where(references.c.code.like("BENCH-%")))
        conn.execute(courses.delete().where(courses.c.activity_id == "https://bench.spot.example/course"))
        first_reference = (conn.scalar(select(func.max(references.c.id))) or 0) + 1
        course_id = (conn.scalar(select(func.max(courses.c.id))) or 0) + 1
        first_unit = (conn.scalar(select(func.max(units.c.id))) or 0) + 1
    rng = random.Random(19)
    reference_ids = list(range(first_reference, first_reference + MODULE_REFERENCES))
    load(
        engine,
        references,
        (
            {
                "id": rid,
                "type": "module",
                "code": f"BENCH-{n:03d}",
                "code_folded": fold(f"BENCH-{n:03d}"),
                "label": f"{MODULE_TOPICS[n % len(MODULE_TOPICS)]} {n}",
                "label_folded": fold(f"{MODULE_TOPICS[n % len(MODULE_TOPICS)]} {n}"),
                "description": "",
                "description_folded": "",
                "disabled": False,
                "version": 1,
            }
            for n, rid in enumerate(reference_ids)
        ),
    )
    load(
        engine,
        courses,
        [
            {
                "id": course_id,
                "activity_id": "https://bench.spot.example/course",
                "title": "Cours de référence",
                "description": "",
                "lang": "fr",
                "content_key": "0" * 64,
                "imported_at": EPOCH,
                "imported_by": 1,
                "removed_at": None,
                "version": 1,
            }
        ],
    )
    unit_ids = list(range(first_unit, first_unit + COURSE_UNITS))
    load(
        engine,
        units,
        (
            {
                "id": uid,
                "course_id": course_id,
                "parent_id": None,
                "kind": "quiz" if n % 2 else "resource",
                "activity_id": f"https://bench.spot.example/course/{n}",
                "name": f"{'Quiz' if n % 2 else 'Module'} {n}",
                "description": "",
                "url": "index.html",
                "move_on": None,
                "mastery_score": 0.8 if n % 2 else None,
                "launch_parameters": None,
                "position": n,
                "removed_at": None,
            }
            for n, uid in enumerate(unit_ids)
        ),
    )
    map_items = {
        "site": (1, SITES),
        "cartography": (CARTOGRAPHY_IDS_FROM + 1, CARTOGRAPHY_IDS_FROM + CARTOGRAPHIES),
        "activity": (ACTIVITY_IDS_FROM + 1, ACTIVITY_IDS_FROM + ACTIVITIES),
        "function": (FUNCTION_IDS_FROM + 1, FUNCTION_IDS_FROM + CARTOGRAPHIES * FUNCTIONS),
        "subject": (1, SUBJECTS),
    }
    empty = {"spot_item_type": None, "spot_item_id": None, "title": None, "description": None}
    empty |= {"url": None, "label": None, "lms_item_id": None}

    def element(kind: str, spot_type: str | None = None) -> dict:
        if kind == "spot":
            spot_type = spot_type or rng.choice(list(map_items))
            return {
                **empty,
                "kind": kind,
                "spot_item_type": spot_type,
                "spot_item_id": rng.randint(*map_items[spot_type]),
            }
        if kind == "mediation":
            return {
                **empty,
                "kind": kind,
                "title": f"{rng.choice(ACTION)} {rng.choice(PART)}",
                "description": f"Démonstration au poste, {rng.choice(WHERE)}",
            }
        if kind == "url":
            return {
                **empty,
                "kind": kind,
                "url": f"https://www.inrs.fr/risques/{rng.randrange(100)}.html",
                "label": "Dossier INRS",
            }
        return {**empty, "kind": kind, "lms_item_id": rng.choice(unit_ids)}

    rows: list[dict] = []
    elements: list[dict] = []
    for mid in range(1, MODULES + 1):
        name = f"{rng.choice(MODULE_TOPICS)} {rng.choice(OF)} {rng.choice(WHERE)}"
        goals = f"{rng.choice(ACTION)} {rng.choice(PART)}{rng.choice(WHEN)}"
        rows.append(
            {
                "id": mid,
                "name": name,
                "name_folded": fold(name),
                "module_type": rng.choice(MODULE_TYPES),
                "reference_id": rng.choice(reference_ids) if rng.random() < 0.8 else None,
                "goals": goals,
                "goals_folded": fold(goals),
                "estimated_duration": rng.choice([0, 30, 60, 90, 120, 240, 420]),
                "periodicity": rng.choice([0, 0, 12, 24, 36, 60]),
                "pass_threshold": rng.randrange(5, 11),
                "enabled": rng.random() < 0.9,
                "creator_id": rng.randrange(1, USERS + 1),
                "created_at": random_time(rng),
                "version": 1,
            }
        )
        if mid == MEASURED_MODULE:
            kinds = [("spot", t) for t in map_items] + [("mediation", None), ("url", None), ("lms", None)]
        else:
            kinds = [
                (rng.choice(["spot", "spot", "mediation", "url", "lms"]), None)
                for _ in range(rng.randrange(1, 9))
            ]
        for position, (kind, spot_type) in enumerate(kinds):
            elements.append(
                {"id": len(elements) + 1, "module_id": mid, "position": position, **element(kind, spot_type)}
            )
    load(engine, modules, rows)
    load(engine, items, elements)
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for name in (
                "training_module",
                "training_module_item",
                "training_reference",
                "lms_course",
                "lms_item",
            ):
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                conn.execute(text(f"SELECT setval({sequence}, (SELECT MAX(id) FROM {name}))"))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in (
                "training_module",
                "training_module_item",
                "training_reference",
                "lms_course",
                "lms_item",
            ):
                conn.execute(text(f"VACUUM ANALYZE {name}"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"training modules added in {time.monotonic() - started:.0f} s", flush=True)


PATHS = 50_000
PATH_REFERENCES = 20
PATH_STATUSES = ["notAccepted", "accepted", "started", "finished", "validated", "archived", "canceled"]
PATH_STATUS_WEIGHTS = [10, 10, 35, 10, 10, 20, 5]
# What a path's modules may be in, by the path's status (spec 2 §4): none graded before the path
# starts, all graded once it is finished.
MODULE_STATUSES_IN = {
    "notAccepted": ["notStarted"],
    "accepted": ["notStarted"],
    "started": ["notStarted", "started", "started", "finished", "validated", "archived"],
    "finished": ["validated", "archived"],
    "validated": ["validated", "archived"],
    "archived": ["archived"],
    "canceled": ["notStarted", "started", "finished", "validated", "archived"],
}
# The path that scenario `paths` reads: started, created by the bench administrator, ten modules in
# every module status, MEASURED_MODULE (one element of each kind) first.
MEASURED_PATH = 25_000
MEASURED_PATH_MODULES = [
    "started",
    "notStarted",
    "started",
    "finished",
    "validated",
    "archived",
    "disabled",
    "started",
    "validated",
    "notStarted",
]


def top_up_paths(engine: Engine) -> None:
    """Add PATHS training paths over the MODULES modules and the users (a separate step, after
    top_up_modules): each with a learner, 1 to 10 assigned modules with 1 to 3 referents each, in
    every status (modules in the statuses their path allows, graded ones with their grading, signed
    ones with the learner's comment), some under one of PATH_REFERENCES path references, some visible
    to persons or to the administrators' group, and a history of the steps they went through. The
    bench administrator (user 1) holds perm_TrainingPathAdmin, so it reads them all; it also created
    one in ten and follows a module of one in 50."""
    tables = database.Base.metadata.tables
    paths = tables["training_path"]
    references, module_items = tables["training_reference"], tables["training_module_item"]
    linked = ["training_path_event", "training_path_grading", "training_path_visible_group"]
    linked += ["training_path_visible_person", "training_path_referent", "training_path_module"]
    linked += ["training_path"]
    with engine.connect() as conn:
        if (conn.scalar(select(func.count()).select_from(paths)) or 0) >= PATHS:
            return
    started = time.monotonic()
    print("adding training paths…", flush=True)
    with engine.begin() as conn:  # what an interrupted top-up may have left
        for name in linked:
            conn.execute(tables[name].delete())
        conn.execute(references.delete().where(references.c.code.like("PARCOURS-%")))
        first_reference = (conn.scalar(select(func.max(references.c.id))) or 0) + 1
        modules = tables["training_module"]
        thresholds = dict(conn.execute(select(modules.c.id, modules.c.pass_threshold)).tuples().all())
        periodicity = dict(conn.execute(select(modules.c.id, modules.c.periodicity)).tuples().all())
        elements = dict(
            conn.execute(select(module_items.c.module_id, func.count()).group_by(module_items.c.module_id))
            .tuples()
            .all()
        )
    module_ids = sorted(thresholds)
    rng = random.Random(23)
    reference_ids = list(range(first_reference, first_reference + PATH_REFERENCES))
    load(
        engine,
        references,
        (
            {
                "id": rid,
                "type": "path",
                "code": f"PARCOURS-{n:02d}",
                "code_folded": fold(f"PARCOURS-{n:02d}"),
                "label": f"Parcours {MODULE_TOPICS[n % len(MODULE_TOPICS)]}",
                "label_folded": fold(f"Parcours {MODULE_TOPICS[n % len(MODULE_TOPICS)]}"),
                "description": "",
                "description_folded": "",
                "disabled": False,
                "version": 1,
            }
            for n, rid in enumerate(reference_ids)
        ),
    )
    rows: list[dict] = []
    path_modules: list[dict] = []
    referents: list[dict] = []
    persons: list[dict] = []
    groups: list[dict] = []
    gradings: list[dict] = []
    events: list[dict] = []

    def event(
        pid: int, at: datetime, user_id: int, name: str, position: int | None = None, **more: object
    ) -> None:
        events.append(
            {
                "id": len(events) + 1,
                "path_id": pid,
                "position": position,
                "at": at,
                "user_id": user_id,
                "user_name": f"Utilisateur {user_id}",
                "event": name,
                "grade": more.get("grade"),
                "comment": more.get("comment"),
            }
        )

    for pid in range(1, PATHS + 1):
        measured = pid == MEASURED_PATH
        status = "started" if measured else rng.choices(PATH_STATUSES, PATH_STATUS_WEIGHTS)[0]
        created = random_time(rng)
        creator = 1 if pid % 10 == 0 else rng.randrange(2, USERS + 1)
        learner = rng.randrange(2, USERS + 1)
        while learner == creator:
            learner = rng.randrange(2, USERS + 1)
        start = created.date() + timedelta(days=rng.randrange(0, 30))
        stop = start + timedelta(days=rng.randrange(30, 365))
        accepted = None if status == "notAccepted" else created + timedelta(days=rng.randrange(1, 10))
        began = accepted + timedelta(days=rng.randrange(0, 10)) if accepted else None
        event(pid, created, creator, "created")
        if accepted:
            event(pid, accepted, learner, "accepted")
        if began and status != "accepted":
            event(pid, began, creator, "started")
        if measured:
            chosen = [MEASURED_MODULE] + rng.sample([m for m in module_ids if m != MEASURED_MODULE], 9)
            statuses = MEASURED_PATH_MODULES
        else:
            chosen = rng.sample(module_ids, rng.randrange(1, 11))
            statuses = [rng.choice(MODULE_STATUSES_IN[status]) for _ in chosen]
            if status not in ("notAccepted", "finished", "validated", "archived"):
                statuses = ["disabled" if rng.random() < 0.05 else s for s in statuses]
        moment = began or created
        total = done = 0
        for position, (module_id, module_status) in enumerate(zip(chosen, statuses, strict=True)):
            mid = len(path_modules) + 1
            items = elements.get(module_id, 0)
            finished_items = {
                "notStarted": 0,
                "started": 0 if measured else rng.randrange(0, items) if items else 0,
                "disabled": 0,
            }.get(module_status, items)
            module_started = (
                moment + timedelta(days=rng.randrange(0, 5))
                if module_status not in ("notStarted", "disabled")
                else None
            )
            graded = module_status in ("validated", "archived")
            graded_at = (
                module_started + timedelta(days=rng.randrange(1, 60)) if graded and module_started else None
            )
            grade = round(rng.uniform(3, 10), 1) if graded else None
            success = grade >= thresholds[module_id] if grade is not None else None
            months = periodicity[module_id]
            valid_until = (graded_at + timedelta(days=30 * months)).date() if graded_at and months else None
            signed_at = (
                graded_at + timedelta(days=rng.randrange(0, 10))
                if graded_at and module_status == "archived"
                else None
            )
            referent_ids = {rng.randrange(2, USERS + 1) for _ in range(rng.randrange(1, 4))} - {learner}
            if pid % 50 == 0 or measured:
                referent_ids.add(1)
            referent_ids = referent_ids or {1}
            referents += [
                {"path_module_id": mid, "user_id": user_id, "path_id": pid}
                for user_id in sorted(referent_ids)
            ]
            grader = min(referent_ids)
            path_modules.append(
                {
                    "id": mid,
                    "path_id": pid,
                    "position": position,
                    "module_id": module_id,
                    "start_date": start,
                    "stop_date": stop,
                    "status": module_status,
                    "status_changed_at": signed_at or graded_at or module_started or created,
                    "started_at": module_started,
                    "total_items": items,
                    "done_items": finished_items,
                    "grade": grade,
                    "is_success": success,
                    "valid_until": valid_until,
                    "graded_at": graded_at,
                    "signature_comment": "Module suivi." if signed_at else None,
                    "signature_satisfaction": rng.randrange(1, 6) if signed_at else None,
                    "signed_at": signed_at,
                }
            )
            if module_status != "disabled":
                total, done = total + items, done + finished_items
            if module_started:
                event(pid, module_started, grader, "moduleStarted", position)
            if graded_at is not None and grade is not None:
                comment = "Acquis." if success else "À revoir."
                gradings.append(
                    {
                        "id": len(gradings) + 1,
                        "path_module_id": mid,
                        "grade": grade,
                        "comment": comment,
                        "is_success": success,
                        "referent_id": grader,
                        "referent_name": f"Utilisateur {grader}",
                        "valid_until": valid_until,
                        "graded_at": graded_at,
                    }
                )
                event(pid, graded_at, grader, "moduleGraded", position, grade=grade, comment=comment)
            if signed_at:
                event(pid, signed_at, learner, "moduleSigned", position)
        closed = (
            moment + timedelta(days=rng.randrange(60, 120)) if status in ("validated", "archived") else None
        )
        signed = closed + timedelta(days=rng.randrange(0, 10)) if closed and status == "archived" else None
        if closed:
            event(pid, closed, creator, "validated", comment="Parcours terminé.")
        if signed:
            event(pid, signed, learner, "signed")
        if status == "canceled":
            event(pid, moment + timedelta(days=1), creator, "canceled")
        if pid % 7 == 0:
            persons.append({"path_id": pid, "user_id": rng.randrange(2, USERS + 1)})
        if pid % 5 == 0:
            groups.append({"path_id": pid, "group_id": 1})
        title = f"Parcours {rng.choice(MODULE_TOPICS).lower()} {rng.choice(WHERE)}"
        rows.append(
            {
                "id": pid,
                "title": title,
                "title_folded": fold(title),
                "reference_id": rng.choice(reference_ids) if rng.random() < 0.6 else None,
                "learner_id": learner,
                "creator_id": creator,
                "status": status,
                "created_at": created,
                "version": 1,
                "start_date": start,
                "stop_date": stop,
                "pass_threshold": rng.randrange(5, 11),
                "status_changed_at": signed or closed or began or accepted or created,
                "accepted_at": accepted,
                "validator_id": creator if closed else None,
                "validation_comment": "Parcours terminé." if closed else None,
                "validated_at": closed,
                "signature_comment": "Merci." if signed else None,
                "signature_satisfaction": rng.randrange(1, 6) if signed else None,
                "signed_at": signed,
                "total_items": total,
                "done_items": done,
            }
        )
    load_paths(engine, rows, path_modules)
    load(engine, tables["training_path_referent"], referents)
    load(engine, tables["training_path_visible_person"], persons)
    load(engine, tables["training_path_visible_group"], groups)
    load(engine, tables["training_path_grading"], gradings)
    load(engine, tables["training_path_event"], events)
    sequenced = ["training_path", "training_path_module", "training_path_grading", "training_path_event"]
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for name in [*sequenced, "training_reference"]:
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                conn.execute(text(f"SELECT setval({sequence}, (SELECT MAX(id) FROM {name}))"))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in [*linked, "training_reference"]:
                conn.execute(text(f"VACUUM ANALYZE {name}"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"training paths added in {time.monotonic() - started:.0f} s", flush=True)


# module_hold's triggers on path modules (migration 3b9e6c1d7a52).
_HOLD_TRIGGERS = ["module_hold_path_module_inserted"]


def load_paths(engine: Engine, paths: Iterable[dict], path_modules: Iterable[dict]) -> None:
    """Paths, then their modules, then each (learner, module)'s hold filled once from the rule
    (validity.computed). On PostgreSQL a COPY would fire module_hold's trigger per row with a plan
    made for the table as it was before the load; it is off during the load."""
    tables = database.Base.metadata.tables
    postgresql = engine.dialect.name == "postgresql"
    load(engine, tables["training_path"], paths)
    if postgresql:
        with engine.begin() as conn:
            for name in _HOLD_TRIGGERS:
                conn.execute(text(f"ALTER TABLE training_path_module DISABLE TRIGGER {name}"))
    load(engine, tables["training_path_module"], path_modules)
    with engine.begin() as conn:
        if postgresql:
            for name in _HOLD_TRIGGERS:
                conn.execute(text(f"ALTER TABLE training_path_module ENABLE TRIGGER {name}"))
        conn.execute(delete(ModuleHold))
        columns = ["user_id", "module_id", "validation_path_id", "valid_until", "requalification_path_id"]
        everyone, every_module = select(User.id), select(TrainingModule.id)
        conn.execute(insert(ModuleHold).from_select(columns, validity.computed(everyone, every_module)))
