"""A large organisation for the benchmarks: 20,000 users, 100,000 subjects, 1,000,000 mind-map nodes,
5,000,000 history rows, 10,000 mediations, 2,000 training modules, 50,000 training paths, 2,000
qualifications (and a group of 500 learners with current paths, for the dashboards).

Rows are generated with fixed seeds (the same data every time) and loaded in bulk: executemany
on SQLite, COPY on PostgreSQL. Migrations create the schema, so the benchmark runs on the real one.
"""

import calendar
import random
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from itertools import islice

from sqlalchemy import Engine, Integer, Table, delete, func, insert, select, text

from spot import db as database
from spot.core.passwords import hash_password
from spot.permissions.names import ALL_PERMISSIONS
from spot.qualifications import validity
from spot.qualifications.models import ModuleHold
from spot.querylang.text import fold
from spot.training.modules.models import TrainingModule
from spot.users.models import User

USERS = 20_000
SITES = 5
CARTOGRAPHIES_PER_SITE = 5
TOP_ACTIVITIES = 8
SUB_ACTIVITIES = 2
FUNCTIONS = 20
SUBJECTS = 100_000
NODES = 1_000_000  # the main node of each subject (generate) and 9 more each (top_up_nodes)
HISTORY = 5_000_000
# Sites, cartographies, activities and functions share one id space (map_item_id), as in Spot: an id
# of a location filter names one item. Each type takes a block of it, in that order.
CARTOGRAPHIES = SITES * CARTOGRAPHIES_PER_SITE
ACTIVITIES = CARTOGRAPHIES * TOP_ACTIVITIES * (1 + SUB_ACTIVITIES)
CARTOGRAPHY_IDS_FROM = SITES
ACTIVITY_IDS_FROM = CARTOGRAPHY_IDS_FROM + CARTOGRAPHIES
FUNCTION_IDS_FROM = ACTIVITY_IDS_FROM + ACTIVITIES
ADMIN_LOGIN = "bench-admin"
ADMIN_PASSWORD = "bench-password"

# fmt: off
FIRST = ["Alice", "Bernard", "Claire", "David", "Émilie", "François", "Gabriel", "Hélène", "Inès", "Jules",
         "Karim", "Léa", "Mathis", "Nadia", "Octave", "Pauline", "Quentin", "Rose", "Sébastien", "Théo"]
LAST = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
        "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent",
        "Fournier"]
WHAT = ["Fuite", "Usure", "Blocage", "Surchauffe", "Réglage", "Nettoyage", "Contrôle", "Changement",
        "Graissage", "Calibrage", "Vibration", "Bruit", "Chute", "Coupure", "Écrasement", "Projection",
        "Démarrage", "Arrêt"]
OF = ["de la pompe", "du convoyeur", "de la presse", "du tour", "de la fraiseuse", "du compresseur",
      "de la vanne", "du moteur", "de l'outil", "du chariot", "de la soudeuse", "du four", "du robot",
      "de la cuve", "du filtre"]
# The names of the mind-map nodes below the main one: an action on a part or a practice, now and then when.
ACTION = ["Vérifier", "Remplacer", "Nettoyer", "Contrôler", "Réparer", "Former l'opérateur à", "Sécuriser",
          "Mesurer", "Inspecter", "Régler", "Signaler", "Étiqueter", "Lubrifier", "Documenter"]
PART = ["le joint", "la courroie", "le roulement", "l'arrêt d'urgence", "le capteur", "la pompe hydraulique",
        "le carter", "la procédure", "l'éclairage", "le câblage", "l'étanchéité", "le débit", "la pression",
        "le protège-mains", "la température", "l'échangeur", "le réducteur", "la grille de protection"]
WHEN = ["", "", "", " avant démarrage", " chaque semaine", " après l'arrêt", " en début de poste",
        " selon la fiche", " à la maintenance préventive"]
WHERE = ["poste 1", "poste 2", "ligne A", "ligne B", "atelier nord", "atelier sud", "quai", "magasin"]
# fmt: on
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def _chunks(rows: Iterable[dict], size: int = 20_000) -> Iterator[list[dict]]:
    iterator = iter(rows)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _load(engine: Engine, table: Table, rows: Iterable[dict]) -> None:
    if engine.dialect.name == "postgresql":
        columns = [c.name for c in table.columns]
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            quoted = ", ".join(f'"{c}"' for c in columns)
            with cursor.copy(f'COPY "{table.name}" ({quoted}) FROM STDIN') as copy:  # type: ignore[attr-defined]
                for row in rows:
                    copy.write_row([row.get(c) for c in columns])
            raw.commit()
        finally:
            raw.close()
        return
    with engine.begin() as conn:
        for chunk in _chunks(rows):
            conn.execute(table.insert(), chunk)


# module_hold's triggers on path modules (migration 3b9e6c1d7a52).
_HOLD_TRIGGERS = ["module_hold_path_module_inserted"]


def _load_paths(engine: Engine, paths: Iterable[dict], path_modules: Iterable[dict]) -> None:
    """Paths, then their modules, then each (learner, module)'s hold filled once from the rule
    (validity.computed). On PostgreSQL a COPY would fire module_hold's trigger per row with a plan
    made for the table as it was before the load; it is off during the load."""
    tables = database.Base.metadata.tables
    postgresql = engine.dialect.name == "postgresql"
    _load(engine, tables["training_path"], paths)
    if postgresql:
        with engine.begin() as conn:
            for name in _HOLD_TRIGGERS:
                conn.execute(text(f"ALTER TABLE training_path_module DISABLE TRIGGER {name}"))
    _load(engine, tables["training_path_module"], path_modules)
    with engine.begin() as conn:
        if postgresql:
            for name in _HOLD_TRIGGERS:
                conn.execute(text(f"ALTER TABLE training_path_module ENABLE TRIGGER {name}"))
        conn.execute(delete(ModuleHold))
        columns = ["user_id", "module_id", "validation_path_id", "valid_until", "requalification_path_id"]
        everyone, every_module = select(User.id), select(TrainingModule.id)
        conn.execute(insert(ModuleHold).from_select(columns, validity.computed(everyone, every_module)))


def _at(rng: random.Random) -> datetime:
    return EPOCH + timedelta(seconds=rng.randrange(0, 3 * 365 * 86400))


def present(engine: Engine) -> bool:
    database.load_models()
    tables = database.Base.metadata.tables
    try:
        with engine.connect() as conn:
            return (conn.scalar(select(func.count()).select_from(tables["subject"])) or 0) >= SUBJECTS
    except Exception:  # no schema yet
        return False


def top_up_nodes(engine: Engine) -> None:
    """Complete a dataset to NODES mind-map nodes: 9 children of each subject's main node (codes 1 to 9,
    positions 0 to 8, ids after the main nodes', the main node of subject n having id n). A separate
    step, so that a dataset generated before it is completed rather than generated again; it runs when
    the nodes are fewer than NODES."""
    tables = database.Base.metadata.tables
    nodes = tables["mind_map_item"]
    with engine.connect() as conn:
        if (conn.scalar(select(func.count()).select_from(nodes)) or 0) >= NODES:
            return
    started = time.monotonic()
    print("adding mind-map nodes…", flush=True)
    with engine.begin() as conn:  # what an interrupted top-up may have left
        conn.execute(nodes.delete().where(nodes.c.code > 0))
    rng = random.Random(13)
    per_subject = NODES // SUBJECTS - 1
    statuses = ["empty", "inProgress", "toValidate", "validated"]
    _load(
        engine,
        nodes,
        (
            {
                "id": SUBJECTS + (sid - 1) * per_subject + code,
                "subject_id": sid,
                "code": code,
                "name": f"{rng.choice(ACTION)} {rng.choice(PART)}{rng.choice(WHEN)}",
                "status": rng.choice(statuses),
                "parent_id": sid,
                "position": code - 1,
                "text": "",
            }
            for sid in range(1, SUBJECTS + 1)
            for code in range(1, per_subject + 1)
        ),
    )
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence('mind_map_item', 'id'), "
                    "(SELECT MAX(id) FROM mind_map_item))"
                )
            )
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE mind_map_item"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"mind-map nodes added in {time.monotonic() - started:.0f} s", flush=True)


def top_up_node_parents(engine: Engine) -> None:
    """Nodes loaded by an older top_up_nodes have no parent: in one UPDATE, each node but a main one
    without a parent becomes a child of its subject's main node, at the position code - 1 (codes 1 to 9:
    positions 0 to 8, contiguous). Nothing to do on a dataset loaded since."""
    with engine.begin() as conn:
        updated = conn.execute(
            text(
                "UPDATE mind_map_item SET parent_id = (SELECT main.id FROM mind_map_item main "
                "WHERE main.subject_id = mind_map_item.subject_id AND main.code = 0), position = code - 1 "
                "WHERE parent_id IS NULL AND code > 0"
            )
        ).rowcount
    if updated:
        print(f"{updated} mind-map nodes put under their main node", flush=True)


# The subjects whose mind map is a tree of TREE_NODES nodes (the scenario `mindmap`): MEASURED_SUBJECT
# is read and edited at concurrency 1; at 16 each connection edits one of them (an edit carries the tree's
# version: two connections on one tree would answer 409 to each other).
MEASURED_SUBJECT = 70_001
TREE_SUBJECTS = range(MEASURED_SUBJECT, MEASURED_SUBJECT + 16)
TREE_NODES = 500
# The tree's shape: 8 children of the main node, 8 under each of them, the rest (427) spread over those
# 64 as a fourth level (depth 3 below the main node).
TREE_BRANCHING = (8, 8)


def _tree_rows(subject_id: int, main_id: int, first_id: int, rng: random.Random) -> list[dict]:
    """The TREE_NODES - 1 nodes under the main node `main_id`, parents before children, ids from
    `first_id`, codes from 1; positions contiguous among siblings."""
    statuses = ["empty", "inProgress", "toValidate", "validated"]
    rows: list[dict] = []

    def node(parent_id: int, position: int) -> int:
        node_id = first_id + len(rows)
        rows.append(
            {
                "id": node_id,
                "subject_id": subject_id,
                "code": len(rows) + 1,
                "name": f"{rng.choice(ACTION)} {rng.choice(PART)}{rng.choice(WHEN)}",
                "status": rng.choice(statuses),
                "parent_id": parent_id,
                "position": position,
                "text": "",
            }
        )
        return node_id

    level = [main_id]
    for branching in TREE_BRANCHING:
        level = [node(parent, position) for parent in level for position in range(branching)]
    rest = TREE_NODES - 1 - len(rows)
    for index, parent in enumerate(level):
        for position in range(rest // len(level) + (1 if index < rest % len(level) else 0)):
            node(parent, position)
    assert len(rows) == TREE_NODES - 1
    return rows


def top_up_trees(engine: Engine) -> None:
    """Give each subject of TREE_SUBJECTS a mind map of TREE_NODES nodes, four levels deep (its 9 nodes
    from top_up_nodes replaced). Runs when MEASURED_SUBJECT's tree is smaller."""
    tables = database.Base.metadata.tables
    nodes = tables["mind_map_item"]
    with engine.connect() as conn:
        count = conn.scalar(
            select(func.count()).select_from(nodes).where(nodes.c.subject_id == MEASURED_SUBJECT)
        )
        if (count or 0) >= TREE_NODES:
            return
    started = time.monotonic()
    print("adding the measured mind-map trees…", flush=True)
    with engine.begin() as conn:
        subject_ids = list(TREE_SUBJECTS)
        conn.execute(nodes.delete().where(nodes.c.subject_id.in_(subject_ids), nodes.c.code > 0))
        mains = dict(
            conn.execute(
                select(nodes.c.subject_id, nodes.c.id).where(
                    nodes.c.subject_id.in_(subject_ids), nodes.c.code == 0
                )
            ).all()
        )
        first_id = (conn.scalar(select(func.max(nodes.c.id))) or 0) + 1
    rng = random.Random(19)
    rows: list[dict] = []
    for subject_id in TREE_SUBJECTS:
        rows += _tree_rows(subject_id, mains[subject_id], first_id + len(rows), rng)
    _load(engine, nodes, rows)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence('mind_map_item', 'id'), "
                    "(SELECT MAX(id) FROM mind_map_item))"
                )
            )
        conn.execute(text("ANALYZE mind_map_item"))
    print(f"mind-map trees added in {time.monotonic() - started:.0f} s", flush=True)


MEDIATIONS = 10_000
MEDIATION_STATUSES = ["created", "started", "paused", "stopped", "validated", "archived", "canceled"]
MEDIATION_TOPICS = ["Accueil", "Retour d'expérience", "Point sécurité", "Revue", "Consignation", "Formation"]


def top_up_mediations(engine: Engine) -> None:
    """Add MEDIATIONS mediations (a separate step, like top_up_nodes, so that a dataset generated before
    mediations existed is completed): each with a mediator and 1 to 5 participants among the users, some
    visible to a group or persons, one to three tracking periods once started, and a report of a few
    history entries once stopped (most) or validated. The bench administrator (user 1) created one in
    ten, leads one in 25 and takes part in one in 40; the mediations of one in five are visible to its
    group: it reads about a third of them, as the list's visibility test would see in real life."""
    tables = database.Base.metadata.tables
    mediations = tables["mediation"]
    with engine.connect() as conn:
        if (conn.scalar(select(func.count()).select_from(mediations)) or 0) >= MEDIATIONS:
            return
    started = time.monotonic()
    print("adding mediations…", flush=True)
    linked = ["mediation_report_item", "mediation_tracking_period", "mediation_visible_person"]
    linked += ["mediation_visible_group", "mediation_participant", "mediation"]
    with engine.begin() as conn:  # what an interrupted top-up may have left
        for name in linked:
            conn.execute(tables[name].delete())
    rng = random.Random(17)
    rows: list[dict] = []
    participants: list[dict] = []
    groups: list[dict] = []
    persons: list[dict] = []
    periods: list[dict] = []
    items: list[dict] = []
    for mid in range(1, MEDIATIONS + 1):
        status = rng.choice(MEDIATION_STATUSES)
        created = _at(rng)
        creator = 1 if mid % 10 == 0 else rng.randrange(2, USERS + 1)
        mediator = 1 if mid % 25 == 0 else rng.randrange(2, USERS + 1)
        people = {rng.randrange(2, USERS + 1) for _ in range(rng.randrange(1, 6))} - {mediator}
        if mid % 40 == 0 and mediator != 1:
            people.add(1)
        participants += [{"mediation_id": mid, "user_id": user_id} for user_id in sorted(people)]
        if mid % 5 == 0:
            groups.append({"mediation_id": mid, "group_id": 1})
        if rng.random() < 0.3:
            persons.append({"mediation_id": mid, "user_id": rng.randrange(2, USERS + 1)})
        scheduled = None if rng.random() < 0.2 else created + timedelta(days=rng.randrange(0, 30))
        spans: list[tuple[datetime, datetime | None]] = []
        if status not in ("created", "canceled") or (status == "canceled" and rng.random() < 0.5):
            start = (scheduled or created) + timedelta(minutes=rng.randrange(0, 120))
            for _ in range(rng.randrange(1, 4)):
                stop = start + timedelta(minutes=rng.randrange(5, 90))
                spans.append((start, stop))
                start = stop + timedelta(minutes=rng.randrange(2, 60))
            if status == "started":  # its last period runs
                spans[-1] = (spans[-1][0], None)
        for start, stop in spans:
            periods.append({"id": len(periods) + 1, "mediation_id": mid, "start": start, "stop": stop})
        reported = status in ("validated", "archived") or (status == "stopped" and rng.random() < 0.7)
        last = spans[-1][1] if spans and spans[-1][1] else None
        if reported and spans:
            for position in range(rng.randrange(0, 6)):
                sid = rng.randrange(1, SUBJECTS + 1)
                write = rng.random() < 0.3
                items.append(
                    {
                        "id": len(items) + 1,
                        "mediation_id": mid,
                        "position": position,
                        "tracking_id": rng.randrange(1, HISTORY + 1),
                        "entity_type": "subject",
                        "entity_id": sid,
                        "date": spans[0][0],
                        "mode": "W" if write else "R",
                        "content": f"{'Modification' if write else 'Consultation'} du sujet P{sid}",
                    }
                )
        title = f"{rng.choice(MEDIATION_TOPICS)} {rng.choice(OF)} {rng.choice(WHERE)}"
        description = f"{rng.choice(ACTION)} {rng.choice(PART)}{rng.choice(WHEN)}"
        updated = (last or created) + timedelta(minutes=rng.randrange(0, 600))
        rows.append(
            {
                "id": mid,
                "title": title,
                "title_folded": fold(title),
                "description": description,
                "description_folded": fold(description),
                "status": status,
                "scheduling_date": scheduled,
                "creator_id": creator,
                "mediator_id": mediator,
                "created_at": created,
                "updated_by": mediator,
                "updated_at": updated,
                "execution_start": spans[0][0] if spans else None,
                "execution_stop": spans[-1][1] if spans else None,
                "report_comment": "Compte rendu de la séance." if reported else "",
                "reported_at": updated if reported else None,
                "discussion_id": None,
                "version": 1,
            }
        )
    _load(engine, mediations, rows)
    _load(engine, tables["mediation_participant"], participants)
    _load(engine, tables["mediation_visible_group"], groups)
    _load(engine, tables["mediation_visible_person"], persons)
    _load(engine, tables["mediation_tracking_period"], periods)
    _load(engine, tables["mediation_report_item"], items)
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for name in ("mediation", "mediation_tracking_period", "mediation_report_item"):
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                conn.execute(text(f"SELECT setval({sequence}, (SELECT MAX(id) FROM {name}))"))
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in linked:
                conn.execute(text(f"VACUUM ANALYZE {name}"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"mediations added in {time.monotonic() - started:.0f} s", flush=True)


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
# The module that scenario `modules` reads: one element of every kind (dataset.top_up_modules).
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
    _load(
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
    _load(
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
    _load(
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
                "created_at": _at(rng),
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
    _load(engine, modules, rows)
    _load(engine, items, elements)
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
    _load(
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
        created = _at(rng)
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
    _load_paths(engine, rows, path_modules)
    _load(engine, tables["training_path_referent"], referents)
    _load(engine, tables["training_path_visible_person"], persons)
    _load(engine, tables["training_path_visible_group"], groups)
    _load(engine, tables["training_path_grading"], gradings)
    _load(engine, tables["training_path_event"], events)
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


def generate(engine: Engine, database_url: str) -> None:
    started = time.monotonic()
    database.migrate(database_url)
    tables = database.Base.metadata.tables
    rng = random.Random(42)
    password = hash_password(ADMIN_PASSWORD)

    _load(engine, tables["group"], [{"id": 1, "name": "Administrateurs"}, {"id": 2, "name": "Opérateurs"}])
    _load(engine, tables["group_permission"], [{"group_id": 1, "name": p} for p in ALL_PERMISSIONS])
    users = [
        {
            "id": 1,
            "login": ADMIN_LOGIN,
            "first_name": "Admin",
            "last_name": "Bench",
            "external_id": None,
            "password_hash": password,
            "created_at": EPOCH,
        }
    ]
    users += [
        {
            "id": i,
            "login": f"user{i}",
            "first_name": rng.choice(FIRST),
            "last_name": rng.choice(LAST),
            "external_id": f"M{i:06d}",
            "password_hash": password,
            "created_at": _at(rng),
        }
        for i in range(2, USERS + 1)
    ]
    _load(engine, tables["user"], users)
    _load(
        engine,
        tables["user_group"],
        [{"user_id": 1, "group_id": 1}] + [{"user_id": i, "group_id": 2} for i in range(2, USERS + 1)],
    )

    sites, cartographies, activities, functions = [], [], [], []
    leaf_activities: dict[int, list[int]] = {}
    function_ids: dict[int, list[int]] = {}
    for s in range(1, SITES + 1):
        sites.append({"id": s, "code": f"S{s}", "name": f"Usine {s}"})
        for c in range(CARTOGRAPHIES_PER_SITE):
            cid = CARTOGRAPHY_IDS_FROM + len(cartographies) + 1
            cartographies.append(
                {
                    "id": cid,
                    "site_id": s,
                    "code": f"C{cid}",
                    "name": f"Atelier {cid}",
                    "ordering": c,
                    "image_ref": None,
                    "image_media_type": None,
                    "image_sha256": None,
                    "image_width": 0,
                    "image_height": 0,
                }
            )
            leaf_activities[cid] = []
            for a in range(TOP_ACTIVITIES):
                top = ACTIVITY_IDS_FROM + len(activities) + 1
                activities.append(
                    {
                        "id": top,
                        "cartography_id": cid,
                        "parent_id": None,
                        "ordering": a,
                        "code": f"A{top}",
                        "name": f"Activité {top}",
                    }
                )
                leaf_activities[cid].append(top)
                for b in range(SUB_ACTIVITIES):
                    sub = ACTIVITY_IDS_FROM + len(activities) + 1
                    activities.append(
                        {
                            "id": sub,
                            "cartography_id": cid,
                            "parent_id": top,
                            "ordering": b,
                            "code": f"A{sub}",
                            "name": f"Sous-activité {sub}",
                        }
                    )
                    leaf_activities[cid].append(sub)
            function_ids[cid] = []
            for f in range(FUNCTIONS):
                fid = FUNCTION_IDS_FROM + len(functions) + 1
                functions.append(
                    {
                        "id": fid,
                        "cartography_id": cid,
                        "ordering": f,
                        "code": f"F{fid}",
                        "name": f"Fonction {fid}",
                    }
                )
                function_ids[cid].append(fid)
    kinds = [
        ("site", sites),
        ("cartography", cartographies),
        ("activity", activities),
        ("function", functions),
    ]
    _load(
        engine,
        tables["map_item_id"],
        [{"id": item["id"], "type": kind} for kind, items in kinds for item in items],
    )
    _load(engine, tables["site"], sites)
    _load(engine, tables["cartography"], cartographies)
    _load(engine, tables["activity"], activities)
    _load(engine, tables["function"], functions)

    subject_cartography: list[int] = []

    def subjects() -> Iterator[dict]:
        for sid in range(1, SUBJECTS + 1):
            cid = CARTOGRAPHY_IDS_FROM + rng.randrange(1, len(cartographies) + 1)
            subject_cartography.append(cid)
            created = _at(rng)
            updated = created + timedelta(days=rng.randrange(0, 200))
            frequency, gravity = rng.randrange(0, 6), rng.randrange(0, 6)
            marks = {}
            for mark in ("followed", "resolved", "criticity", "standardized"):
                done = rng.random() < 0.3
                marks[f"{mark}_by"] = rng.randrange(1, USERS + 1) if done else None
                marks[f"{mark}_at"] = updated if done else None
            kind = rng.choice(["risk", "quality"])
            name = f"{rng.choice(WHAT)} {rng.choice(OF)} {rng.choice(WHERE)}"
            yield {
                "id": sid,
                "code": f"P{sid}",
                "code_folded": fold(f"P{sid}"),
                "type": kind,
                "name": name,
                "name_folded": fold(name),
                "main_node_status": None,  # set by the mind-map trigger
                "cartography_id": cid,
                "function_id": rng.choice(function_ids[cid]),
                "activity_id": rng.choice(leaf_activities[cid]),
                "frequency": frequency,
                "gravity": gravity,
                "detectability": 0,
                "criticity_score": round(frequency * gravity / 25 * 100) if frequency and gravity else None,
                "created_by": rng.randrange(1, USERS + 1),
                "created_at": created,
                "updated_by": rng.randrange(1, USERS + 1),
                "updated_at": updated,
                **marks,
                "standardized_comment": "",
                "has_diagram": rng.random() < 0.2,
                "picture_ref": None,
                "picture_media_type": None,
                "picture_sha256": None,
                "last_mindmap_update": updated,
                "mind_map_version": 1,
                "version": 1,
            }

    _load(engine, tables["subject"], subjects())
    statuses = ["empty", "inProgress", "toValidate", "validated"]
    _load(
        engine,
        tables["mind_map_item"],
        (
            {
                "id": sid,
                "subject_id": sid,
                "code": 0,
                "name": f"Nœud {sid}",
                "status": rng.choice(statuses),
                "position": 0,
                "text": "",
            }
            for sid in range(1, SUBJECTS + 1)
        ),
    )
    _load(
        engine,
        tables["subject_visit"],
        ({"user_id": 1, "subject_id": sid, "visited_at": _at(rng)} for sid in range(1, SUBJECTS + 1, 5)),
    )

    def history() -> Iterator[dict]:
        for hid in range(1, HISTORY + 1):
            sid = rng.randrange(1, SUBJECTS + 1)
            write = rng.random() < 0.2
            yield {
                "id": hid,
                "at": _at(rng),
                "user_id": rng.randrange(1, USERS + 1),
                "item_type": "subject",
                "item_id": sid,
                "item_key": f"P{sid}",
                "item_name": "",
                "mode": "W" if write else "R",
                "event": "updated" if write else None,
                "cartography_id": subject_cartography[sid - 1],
            }

    if engine.dialect.name == "postgresql":
        # The counters' trigger fires once per row at the end of the COPY, and 5,000,000 updates of
        # a few rows in one transaction leave chains of versions that every update walks again:
        # the counters are summed once instead, as the trigger would have kept them.
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE history_entry DISABLE TRIGGER history_entry_counted"))
        _load(engine, tables["history_entry"], history())
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE history_entry ENABLE TRIGGER history_entry_counted"))
            conn.execute(
                text(
                    "INSERT INTO cartography_counter (cartography_id, reads, writes) "
                    "SELECT cartography_id, count(*) FILTER (WHERE mode = 'R'), "
                    "count(*) FILTER (WHERE mode = 'W') "
                    "FROM history_entry WHERE cartography_id IS NOT NULL GROUP BY cartography_id"
                )
            )
    else:
        _load(engine, tables["history_entry"], history())  # counted per cartography by the database's trigger
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            for table in tables.values():
                if "id" in table.columns and isinstance(table.columns["id"].type, Integer):
                    conn.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                            f'(SELECT COALESCE(MAX(id), 1) FROM "{table.name}"))'
                        )
                    )
        # A live database is vacuumed by autovacuum; a freshly loaded one not yet: without the
        # visibility map, counts read the whole table instead of an index (10 ms instead of 5).
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"dataset generated in {time.monotonic() - started:.0f} s", flush=True)


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
    _load(engine, groups, [{"id": QUALIFIED_GROUP, "name": "Équipe qualifiée"}])
    learners = list(range(QUALIFIED_FROM, QUALIFIED_FROM + QUALIFIED_LEARNERS))
    _load(engine, members, [{"user_id": u, "group_id": QUALIFIED_GROUP} for u in learners])

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
    _load(engine, modules, module_rows)
    _load(engine, items, item_rows)

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
    _load_paths(engine, path_rows, path_modules)
    _load(engine, tables["training_path_referent"], referents)
    _load(engine, tables["training_path_grading"], gradings)
    _load(engine, tables["training_path_event"], events)

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
        created = _at(rng)
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
    _load(engine, discussions, threads)
    _load(engine, qualifications, rows)
    _load(engine, tables["qualification_cartography"], with_cartographies)
    _load(engine, tables["qualification_group"], with_groups)
    _load(engine, tables["qualification_module"], with_modules)

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
