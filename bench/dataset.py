"""A large organisation for the benchmarks: 20,000 users, 100,000 subjects, 1,000,000 mind-map nodes,
5,000,000 history rows, 10,000 mediations, 2,000 training modules, 50,000 training paths, 2,000
qualifications (and a group of 500 learners with current paths, for the dashboards).

Rows are generated with fixed seeds (the same data every time) and loaded in bulk: executemany
on SQLite, COPY on PostgreSQL. Migrations create the schema, so the benchmark runs on the real one.
This module holds the map, users, subjects, history and mediations, and the helpers every step loads
with; training modules and paths are bench.dataset_training's, qualifications
bench.dataset_qualifications'.
"""

import random
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from itertools import chain, islice

from sqlalchemy import Engine, Integer, Table, func, select, text

from spot import db as database
from spot.core.passwords import hash_password
from spot.permissions.names import ALL_PERMISSIONS
from spot.querylang.text import fold

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


def chunks(rows: Iterable[dict], size: int = 20_000) -> Iterator[list[dict]]:
    iterator = iter(rows)
    while chunk := list(islice(iterator, size)):
        yield chunk


def load(engine: Engine, table: Table, rows: Iterable[dict]) -> None:
    if engine.dialect.name == "postgresql":
        rows = iter(rows)
        first = next(rows, None)
        if first is None:
            return
        rows = chain([first], rows)
        # A column the rows leave out takes its server default (COPY would write null into it).
        columns = [c.name for c in table.columns if c.name in first or c.server_default is None]
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
        for chunk in chunks(rows):
            conn.execute(table.insert(), chunk)


def random_time(rng: random.Random) -> datetime:
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
    load(
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
    load(engine, nodes, rows)
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
        created = random_time(rng)
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
    load(engine, mediations, rows)
    load(engine, tables["mediation_participant"], participants)
    load(engine, tables["mediation_visible_group"], groups)
    load(engine, tables["mediation_visible_person"], persons)
    load(engine, tables["mediation_tracking_period"], periods)
    load(engine, tables["mediation_report_item"], items)
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


def generate(engine: Engine, database_url: str) -> None:
    started = time.monotonic()
    database.migrate(database_url)
    tables = database.Base.metadata.tables
    rng = random.Random(42)
    password = hash_password(ADMIN_PASSWORD)

    load(engine, tables["group"], [{"id": 1, "name": "Administrateurs"}, {"id": 2, "name": "Opérateurs"}])
    load(engine, tables["group_permission"], [{"group_id": 1, "name": p} for p in ALL_PERMISSIONS])
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
            "created_at": random_time(rng),
        }
        for i in range(2, USERS + 1)
    ]
    load(engine, tables["user"], users)
    load(
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
    load(
        engine,
        tables["map_item_id"],
        [{"id": item["id"], "type": kind} for kind, items in kinds for item in items],
    )
    load(engine, tables["site"], sites)
    load(engine, tables["cartography"], cartographies)
    load(engine, tables["activity"], activities)
    load(engine, tables["function"], functions)

    subject_cartography: list[int] = []

    def subjects() -> Iterator[dict]:
        for sid in range(1, SUBJECTS + 1):
            cid = CARTOGRAPHY_IDS_FROM + rng.randrange(1, len(cartographies) + 1)
            subject_cartography.append(cid)
            created = random_time(rng)
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

    load(engine, tables["subject"], subjects())
    statuses = ["empty", "inProgress", "toValidate", "validated"]
    load(
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
    load(
        engine,
        tables["subject_visit"],
        (
            {"user_id": 1, "subject_id": sid, "visited_at": random_time(rng)}
            for sid in range(1, SUBJECTS + 1, 5)
        ),
    )

    def history() -> Iterator[dict]:
        for hid in range(1, HISTORY + 1):
            sid = rng.randrange(1, SUBJECTS + 1)
            write = rng.random() < 0.2
            yield {
                "id": hid,
                "at": random_time(rng),
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
        load(engine, tables["history_entry"], history())
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
        load(engine, tables["history_entry"], history())  # counted per cartography by the database's trigger
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
        # visibility map, counts read the whole table instead of an index only, and the bench would
        # measure a database unlike any live one.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
    else:
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"dataset generated in {time.monotonic() - started:.0f} s", flush=True)
