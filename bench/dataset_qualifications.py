"""The bench dataset's qualifications (a separate step of `python -m bench`, after
bench.dataset_training.top_up_paths): 2,000 qualifications, and a group of 500 learners with current
paths and graded modules whose dashboards the scenario `qualifications` reads."""

import calendar
import random
import time
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import Engine, func, select, text

from bench.dataset import (
    CARTOGRAPHIES,
    CARTOGRAPHY_IDS_FROM,
    EPOCH,
    FUNCTION_IDS_FROM,
    FUNCTIONS,
    OF,
    USERS,
    WHERE,
    load,
    random_time,
)
from bench.dataset_training import (
    MODULE_STATUSES_IN,
    MODULE_TOPICS,
    MODULES,
    load_paths,
)
from spot import db as database
from spot.querylang.text import fold

QUALIFICATIONS = 2_000
# The group whose path-progress and qualification dashboards the scenario `qualifications` reads: 500
# learners (users QUALIFIED_FROM to QUALIFIED_FROM + 499), each with current paths and graded modules.
QUALIFIED_GROUP = 3
QUALIFIED_FROM = 1001
QUALIFIED_LEARNERS = 500
# Its first member: My dashboard is measured as this learner (all bench users share the password).
MEASURED_LEARNER = QUALIFIED_FROM
# The cartography of the qualification dashboard: QUALIFICATIONS_ON_MAP qualifications name it, over
# QUALIFICATION_MODULES modules each of which has a spot element on one of its functions and one on a
# subject of that function (the coverage); MEASURED_QUALIFICATION is the first.
QUALIFICATION_CARTOGRAPHY = 7
QUALIFICATIONS_ON_MAP = 12
QUALIFICATION_MODULES = FUNCTIONS
MEASURED_QUALIFICATION = 1
QUALIFICATION_TOPICS = ["Habilitation", "Qualification", "Certificat", "Autorisation", "Recyclage"]
_QUALIFYING_PATH = "Parcours qualifiant"


def _add_months(day: date, months: int) -> date:
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def top_up_qualifications(engine: Engine) -> None:
    """Add QUALIFICATIONS qualifications and what their dashboards read (a separate step, after
    top_up_paths): the group QUALIFIED_GROUP of QUALIFIED_LEARNERS learners; QUALIFICATION_MODULES
    periodic or permanent modules, each on a function of QUALIFICATION_CARTOGRAPHY and a subject of it;
    per learner two current paths (started a few months ago, ending in years: they stay current) and
    one archived path of years ago, over those modules and others, graded as the path service grades
    (valid until the grading day + the periodicity), so that validities are good, warn, expired, never
    and in progress; QUALIFICATIONS_ON_MAP qualifications on that cartography for that group, the
    others on other cartographies for the administrators' group. Dates are relative to the day of the
    top-up. Each qualification has its discussion."""
    tables = database.Base.metadata.tables
    qualifications = tables["qualification"]
    links = ["qualification_cartography", "qualification_group", "qualification_module"]
    with engine.connect() as conn:
        if (conn.scalar(select(func.count()).select_from(qualifications)) or 0) >= QUALIFICATIONS:
            return
    started = time.monotonic()
    print("adding qualifications…", flush=True)
    paths, assigned = tables["training_path"], tables["training_path_module"]
    modules, items = tables["training_module"], tables["training_module_item"]
    discussions, members, groups = tables["discussion"], tables["user_group"], tables["group"]
    with engine.begin() as conn:  # what an interrupted top-up may have left
        for name in links:
            conn.execute(tables[name].delete())
        conn.execute(qualifications.delete())
        conn.execute(discussions.delete().where(discussions.c.parent_type == "qualification"))
        ours = select(paths.c.id).where(paths.c.title.like(f"{_QUALIFYING_PATH}%"))
        ours_modules = select(assigned.c.id).where(assigned.c.path_id.in_(ours))
        conn.execute(
            tables["training_path_grading"]
            .delete()
            .where(tables["training_path_grading"].c.path_module_id.in_(ours_modules))
        )
        for name in ("training_path_referent", "training_path_event", "training_path_module"):
            conn.execute(tables[name].delete().where(tables[name].c.path_id.in_(ours)))
        conn.execute(paths.delete().where(paths.c.title.like(f"{_QUALIFYING_PATH}%")))
        conn.execute(items.delete().where(items.c.module_id > MODULES))
        conn.execute(modules.delete().where(modules.c.id > MODULES))
        conn.execute(members.delete().where(members.c.group_id == QUALIFIED_GROUP))
        conn.execute(groups.delete().where(groups.c.id == QUALIFIED_GROUP))
        first = {
            name: (conn.scalar(select(func.max(tables[name].c.id))) or 0) + 1
            for name in (
                "training_module_item",
                "training_path",
                "training_path_module",
                "training_path_grading",
                "training_path_event",
                "discussion",
            )
        }
        cartography = QUALIFICATION_CARTOGRAPHY
        function_ids = [
            FUNCTION_IDS_FROM + (cartography - CARTOGRAPHY_IDS_FROM - 1) * FUNCTIONS + 1 + f
            for f in range(FUNCTIONS)
        ]
        subject_of: dict[int, int] = dict(
            conn.execute(
                select(tables["subject"].c.function_id, func.min(tables["subject"].c.id))
                .where(tables["subject"].c.function_id.in_(function_ids))
                .group_by(tables["subject"].c.function_id)
            )
            .tuples()
            .all()
        )
        thresholds = dict(conn.execute(select(modules.c.id, modules.c.pass_threshold)).tuples().all())
        periodicity = dict(conn.execute(select(modules.c.id, modules.c.periodicity)).tuples().all())
    rng = random.Random(29)
    now = datetime.now(UTC)
    today = now.date()

    # The group and its learners.
    load(engine, groups, [{"id": QUALIFIED_GROUP, "name": "Équipe qualifiée"}])
    learners = list(range(QUALIFIED_FROM, QUALIFIED_FROM + QUALIFIED_LEARNERS))
    load(engine, members, [{"user_id": u, "group_id": QUALIFIED_GROUP} for u in learners])

    # The modules of the cartography's functions.
    module_ids = list(range(MODULES + 1, MODULES + QUALIFICATION_MODULES + 1))
    module_rows: list[dict] = []
    item_rows: list[dict] = []
    for n, (mid, function_id) in enumerate(zip(module_ids, function_ids, strict=False)):
        name = f"{QUALIFICATION_TOPICS[n % len(QUALIFICATION_TOPICS)]} fonction {function_id}"
        months = [0, 12, 24, 36][n % 4]
        module_rows.append(
            {
                "id": mid,
                "name": name,
                "name_folded": fold(name),
                "module_type": "qualification",
                "reference_id": None,
                "goals": "Tenir le poste en sécurité",
                "goals_folded": fold("Tenir le poste en sécurité"),
                "estimated_duration": 120,
                "periodicity": months,
                "pass_threshold": 6,
                "enabled": True,
                "creator_id": 1,
                "created_at": EPOCH,
                "version": 1,
            }
        )
        thresholds[mid], periodicity[mid] = 6, months
        spots = [("function", function_id)]
        if function_id in subject_of:
            spots.append(("subject", subject_of[function_id]))
        for position, (kind, item_id) in enumerate(spots):
            item_rows.append(
                {
                    "id": first["training_module_item"] + len(item_rows),
                    "module_id": mid,
                    "position": position,
                    "kind": "spot",
                    "spot_item_type": kind,
                    "spot_item_id": item_id,
                    "title": None,
                    "description": None,
                    "url": None,
                    "label": None,
                    "lms_item_id": None,
                }
            )
    load(engine, modules, module_rows)
    load(engine, items, item_rows)

    # Per learner: an archived path of years ago and two current ones.
    path_rows: list[dict] = []
    path_modules: list[dict] = []
    referents: list[dict] = []
    gradings: list[dict] = []
    events: list[dict] = []
    others = sorted(m for m in thresholds if m <= MODULES)

    def add_path(learner: int, status: str, start: date, stop: date, chosen: list[int]) -> None:
        pid = first["training_path"] + len(path_rows)
        created = datetime.combine(start, datetime.min.time(), UTC) - timedelta(days=3)
        total = done = 0
        for position, module_id in enumerate(chosen):
            mid = first["training_path_module"] + len(path_modules)
            if status == "archived":
                module_status = "archived"
            else:
                module_status = rng.choice(MODULE_STATUSES_IN["started"])
            began = created + timedelta(days=rng.randrange(3, 20))
            graded = module_status in ("validated", "archived")
            graded_at = (
                min(began + timedelta(days=rng.randrange(10, 200)), now - timedelta(days=1))
                if graded
                else None
            )
            grade = round(rng.uniform(4, 10), 1) if graded else None
            success = grade >= thresholds[module_id] if grade is not None else None
            months = periodicity[module_id]
            valid_until = _add_months(graded_at.date(), months) if graded_at and months else None
            signed_at = graded_at + timedelta(days=1) if graded_at and module_status == "archived" else None
            referent = rng.randrange(2, QUALIFIED_FROM)
            referents.append({"path_module_id": mid, "user_id": referent, "path_id": pid})
            items_count = 2
            finished_items = {"notStarted": 0, "started": rng.randrange(0, 2)}.get(module_status, items_count)
            total, done = total + items_count, done + finished_items
            path_modules.append(
                {
                    "id": mid,
                    "path_id": pid,
                    "position": position,
                    "module_id": module_id,
                    "start_date": start,
                    "stop_date": stop,
                    "status": module_status,
                    "status_changed_at": signed_at or graded_at or began,
                    "started_at": None if module_status == "notStarted" else began,
                    "total_items": items_count,
                    "done_items": finished_items,
                    "grade": grade,
                    "is_success": success,
                    "valid_until": valid_until,
                    "graded_at": graded_at,
                    "signature_comment": "Module suivi." if signed_at else None,
                    "signature_satisfaction": 4 if signed_at else None,
                    "signed_at": signed_at,
                }
            )
            if graded_at is not None:
                comment = "Acquis." if success else "À revoir."
                gradings.append(
                    {
                        "id": first["training_path_grading"] + len(gradings),
                        "path_module_id": mid,
                        "grade": grade,
                        "comment": comment,
                        "is_success": success,
                        "referent_id": referent,
                        "referent_name": f"Utilisateur {referent}",
                        "valid_until": valid_until,
                        "graded_at": graded_at,
                    }
                )
                events.append(
                    {
                        "id": first["training_path_event"] + len(events),
                        "path_id": pid,
                        "position": position,
                        "at": graded_at,
                        "user_id": referent,
                        "user_name": f"Utilisateur {referent}",
                        "event": "moduleGraded",
                        "grade": grade,
                        "comment": comment,
                    }
                )
        closed = created + timedelta(days=240) if status == "archived" else None
        title = f"{_QUALIFYING_PATH} {rng.choice(MODULE_TOPICS).lower()}"
        path_rows.append(
            {
                "id": pid,
                "title": title,
                "title_folded": fold(title),
                "reference_id": None,
                "learner_id": learner,
                "creator_id": 1,
                "status": status,
                "created_at": created,
                "version": 1,
                "start_date": start,
                "stop_date": stop,
                "pass_threshold": 6,
                "status_changed_at": closed + timedelta(days=2) if closed else created + timedelta(days=2),
                "accepted_at": created + timedelta(days=1),
                "validator_id": 1 if closed else None,
                "validation_comment": "Parcours terminé." if closed else None,
                "validated_at": closed,
                "signature_comment": "Merci." if closed else None,
                "signature_satisfaction": 4 if closed else None,
                "signed_at": closed + timedelta(days=2) if closed else None,
                "total_items": total,
                "done_items": done,
            }
        )

    for learner in learners:
        years_ago = today - timedelta(days=rng.randrange(700, 1400))
        add_path(learner, "archived", years_ago, years_ago + timedelta(days=300), rng.sample(module_ids, 6))
        for _ in range(2):
            start = today - timedelta(days=rng.randrange(30, 240))
            chosen = rng.sample(module_ids, 3) + rng.sample(others, rng.randrange(1, 4))
            add_path(learner, "started", start, today + timedelta(days=rng.randrange(700, 1500)), chosen)
    load_paths(engine, path_rows, path_modules)
    load(engine, tables["training_path_referent"], referents)
    load(engine, tables["training_path_grading"], gradings)
    load(engine, tables["training_path_event"], events)

    # The qualifications, with their discussions.
    other_cartographies = [
        c
        for c in range(CARTOGRAPHY_IDS_FROM + 1, CARTOGRAPHY_IDS_FROM + CARTOGRAPHIES + 1)
        if c != cartography
    ]
    rows, with_cartographies, with_groups, with_modules, threads = [], [], [], [], []
    for qid in range(1, QUALIFICATIONS + 1):
        on_map = qid <= QUALIFICATIONS_ON_MAP
        name = f"{rng.choice(QUALIFICATION_TOPICS)} {rng.choice(OF)} {rng.choice(WHERE)}"
        created = random_time(rng)
        discussion_id = first["discussion"] + qid - 1
        threads.append({"id": discussion_id, "parent_type": "qualification", "parent_id": qid})
        rows.append(
            {
                "id": qid,
                "name": name,
                "name_folded": fold(name),
                "creator_id": 1 if qid % 10 == 0 else rng.randrange(2, USERS + 1),
                "created_at": created,
                "updated_at": created,
                "version": 1,
                "discussion_id": discussion_id,
            }
        )
        if on_map:
            chosen_cartographies = [cartography]
            chosen_groups = [QUALIFIED_GROUP]
            chosen_modules = rng.sample(module_ids, rng.randrange(2, 5))
        else:
            chosen_cartographies = rng.sample(other_cartographies, rng.randrange(1, 4))
            chosen_groups = [1]
            chosen_modules = rng.sample(others, rng.randrange(1, 7))
        with_cartographies += [{"qualification_id": qid, "cartography_id": c} for c in chosen_cartographies]
        with_groups += [{"qualification_id": qid, "group_id": g} for g in chosen_groups]
        with_modules += [
            {"qualification_id": qid, "module_id": m, "position": p} for p, m in enumerate(chosen_modules)
        ]
    load(engine, discussions, threads)
    load(engine, qualifications, rows)
    load(engine, tables["qualification_cartography"], with_cartographies)
    load(engine, tables["qualification_group"], with_groups)
    load(engine, tables["qualification_module"], with_modules)

    touched = ["group", "user_group", "training_module", "training_module_item", "training_path"]
    touched += ["training_path_module", "training_path_referent", "training_path_grading"]
    touched += ["training_path_event", "discussion", "qualification", *links]
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for name in touched:
                if "id" in tables[name].columns:
                    sequence = f"pg_get_serial_sequence('\"{name}\"', 'id')"
                    conn.execute(text(f'SELECT setval({sequence}, (SELECT MAX(id) FROM "{name}"))'))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in touched:
                conn.execute(text(f'VACUUM ANALYZE "{name}"'))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"qualifications added in {time.monotonic() - started:.0f} s", flush=True)
