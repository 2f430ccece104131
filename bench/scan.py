"""The daily scan (notifications.scan; issue budget: over 20,000 people and 50,000 paths in at most
10 s), on a fresh database of each kind: 20,000 people in 40 teams of 500 (and a group of everyone
that no qualification names), two managers per team (perm_TableauBord), 100 periodic modules, 400
qualifications of one to three modules each qualifiable for one to three teams, and 50,000 closed
paths each grading the modules of one qualification of its learner's team (and one more), valid until
a day from 400 days ago to 800 days ahead: about 7 % of the holds end within 90 days; and two
messages kept for the digest of each person (40,000), which the scan gathers in 20,000 digests.

Measured in the process, through `scan.run` as `spot notify` and `spot serve` call it: the first scan
(every hold already in a window is told at once and every person's digest sent, the heaviest day), a
second scan the same day (nothing new), and the scan of the next day (the holds entering a window that
day).

`python -m bench scan [--db sqlite|postgresql|both]`
"""

import random
import tempfile
import time
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import func, insert, select, text
from sqlalchemy.engine import make_url

from bench.runner import save

PEOPLE = 20_000
TEAMS = 40
MODULES = 100
QUALIFICATIONS = 400
PATHS = 50_000
EVERYONE = TEAMS + 1
MANAGERS = TEAMS + 2


def _fresh(url: str) -> str:
    from spot import db as database

    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        name = "spot_bench_scan"
        admin = database.make_engine(parsed.set(database="postgres").render_as_string(hide_password=False))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return parsed.set(database=name).render_as_string(hide_password=False)
    return f"sqlite:///{tempfile.mkdtemp(prefix='spot-bench-scan-')}/spot.db"


def _generate(day: date) -> None:
    """The organisation above, relative to `day`."""
    from bench.dataset import load
    from spot import db as database
    from spot.qualifications import validity
    from spot.qualifications.models import ModuleHold
    from spot.training.modules.models import TrainingModule
    from spot.users.models import User

    engine = database.get_engine()
    tables = database.Base.metadata.tables
    rng = random.Random(30)
    t0 = datetime(2024, 1, 1, 8, tzinfo=UTC)

    def insert_rows(name: str, rows: list[dict]) -> None:
        with engine.begin() as conn:
            for start in range(0, len(rows), 5000):
                conn.execute(tables[name].insert(), rows[start : start + 5000])

    team_of = {n: (n - 1) % TEAMS + 1 for n in range(1, PEOPLE + 1)}
    insert_rows(
        "user",
        [
            {
                "id": n,
                "login": f"p{n:05d}",
                "first_name": f"Prénom{n}",
                "last_name": f"Nom{n}",
                "email": f"p{n:05d}@usine.example",
                "language": "en" if n % 5 == 0 else "fr",
                "password_hash": "",
            }
            for n in range(1, PEOPLE + 1)
        ],
    )
    groups = [{"id": g, "name": f"Équipe {g}"} for g in range(1, TEAMS + 1)]
    groups += [{"id": EVERYONE, "name": "Tout le monde"}, {"id": MANAGERS, "name": "Responsables"}]
    insert_rows("group", groups)
    insert_rows("group_permission", [{"group_id": MANAGERS, "name": "perm_TableauBord"}])
    members = [{"user_id": n, "group_id": team_of[n]} for n in team_of]
    members += [{"user_id": n, "group_id": EVERYONE} for n in team_of]
    members += [{"user_id": n, "group_id": MANAGERS} for n in range(1, 2 * TEAMS + 1)]  # two per team
    insert_rows("user_group", members)
    # The day's digests: two messages each person chose to read in the digest (a followed subject
    # changed), kept since the day before.
    kept_at = datetime.combine(day - timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    insert_rows(
        "outbox_message",
        [
            {
                "created_at": kept_at,
                "kind": "subjectChanged",
                "user_id": n,
                "to_address": f"p{n:05d}@usine.example",
                "language": "en" if n % 5 == 0 else "fr",
                "subject": f"Sujet {n}-{k} modifié",
                "text_body": "Texte",
                "html_body": "<p>Texte</p>",
                "link": f"http://127.0.0.1:8000/spotv2/subject/{k + 1}",
                "status": "held",
                "attempts": 0,
                "next_attempt_at": kept_at,
                "uncertain": False,
            }
            for n in range(1, PEOPLE + 1)
            for k in range(2)
        ],
    )
    insert_rows(
        "training_module",
        [
            {"id": m, "name": f"Module {m}", "periodicity": rng.choice((12, 24, 36)), "created_at": t0}
            for m in range(1, MODULES + 1)
        ],
    )
    qualification_modules: dict[int, list[int]] = {}
    team_qualifications: dict[int, list[int]] = {g: [] for g in range(1, TEAMS + 1)}
    qualifications, links, qualifiable = [], [], []
    for q in range(1, QUALIFICATIONS + 1):
        qualifications.append({"id": q, "name": f"Habilitation {q}", "created_at": t0, "updated_at": t0})
        qualification_modules[q] = rng.sample(range(1, MODULES + 1), rng.randint(1, 3))
        links += [
            {"qualification_id": q, "module_id": m, "position": i}
            for i, m in enumerate(qualification_modules[q])
        ]
        for g in rng.sample(range(1, TEAMS + 1), rng.randint(1, 3)):
            qualifiable.append({"qualification_id": q, "group_id": g})
            team_qualifications[g].append(q)
    insert_rows("qualification", qualifications)
    insert_rows("qualification_module", links)
    insert_rows("qualification_group", qualifiable)
    paths, path_modules = [], []
    path_module_id = 0
    for p in range(1, PATHS + 1):
        learner = rng.randint(1, PEOPLE)
        chosen = list(qualification_modules[rng.choice(team_qualifications[team_of[learner]] or [1])])
        chosen += [m for m in [rng.randint(1, MODULES)] if m not in chosen]
        until = day + timedelta(days=rng.randint(-400, 800))
        graded = datetime.combine(until - timedelta(days=365), datetime.min.time(), tzinfo=UTC)
        paths.append(
            {
                "id": p,
                "title": f"Parcours {p}",
                "title_folded": f"parcours {p}",
                "learner_id": learner,
                "status": "archived",
                "created_at": graded - timedelta(days=30),
                "version": 1,
                "start_date": (graded - timedelta(days=30)).date(),
                "stop_date": graded.date(),
                "pass_threshold": 5,
                "status_changed_at": graded,
                "total_items": 0,
                "done_items": 0,
            }
        )
        for position, module_id in enumerate(chosen):
            path_module_id += 1
            path_modules.append(
                {
                    "id": path_module_id,
                    "path_id": p,
                    "position": position,
                    "module_id": module_id,
                    "start_date": (graded - timedelta(days=30)).date(),
                    "stop_date": graded.date(),
                    "status": "archived",
                    "status_changed_at": graded,
                    "total_items": 0,
                    "done_items": 0,
                    "grade": 8.0,
                    "is_success": True,
                    "valid_until": until,
                    "graded_at": graded,
                }
            )
    postgresql = engine.dialect.name == "postgresql"
    load(engine, tables["training_path"], paths)
    trigger = "module_hold_path_module_inserted"
    with engine.begin() as conn:
        conn.execute(
            text(f"ALTER TABLE training_path_module DISABLE TRIGGER {trigger}")
            if postgresql
            else text(f"DROP TRIGGER {trigger}")
        )
    load(engine, tables["training_path_module"], path_modules)
    with engine.begin() as conn:
        if postgresql:
            conn.execute(text(f"ALTER TABLE training_path_module ENABLE TRIGGER {trigger}"))
        columns = ["user_id", "module_id", "validation_path_id", "valid_until", "requalification_path_id"]
        conn.execute(
            insert(ModuleHold).from_select(
                columns, validity.computed(select(User.id), select(TrainingModule.id))
            )
        )
        if postgresql:
            for name in ("user", "group", "training_module", "training_path", "training_path_module"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), {10**6})"))
            conn.execute(text("ANALYZE"))
        else:
            conn.execute(text("ANALYZE"))


def measure(url: str) -> list[tuple[str, float, str]]:
    import os

    from spot import db as database
    from spot.config import get_settings
    from spot.core.time import midnight, today
    from spot.notifications import scan
    from spot.notifications.models import OutboxMessage

    os.environ["SPOT_DATABASE_URL"] = url
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    day = today()
    started = time.perf_counter()
    _generate(day)
    print(f"generated in {time.perf_counter() - started:.1f} s", flush=True)
    writing: list[float] = []
    record = scan.record

    def timed(db, reminders):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return record(db, reminders)
        finally:
            writing.append(time.perf_counter() - start)

    scan.record = timed  # type: ignore[assignment]
    figures = []
    steps = (("first scan (every current window)", day), ("again the same day", day))
    steps += (("the next day", day + timedelta(days=1)),)
    for label, scan_day in steps:
        count_before = _count(database, OutboxMessage)
        start = time.perf_counter()
        result = scan.run(database.session_factory(), now=midnight(scan_day) + timedelta(hours=6))
        elapsed = time.perf_counter() - start
        queued = _count(database, OutboxMessage) - count_before
        wrote = f", writes {writing[-1]:.2f} s" if writing and result["expiryReminders"] else ""
        writing.clear()
        figures.append((label, elapsed, f"{queued} messages{wrote} ({result})"))
        print(figures[-1], flush=True)
    database.get_engine().dispose()
    return figures


def _count(database, table) -> int:  # type: ignore[no-untyped-def]
    with database.session_factory()() as db:
        return db.scalar(select(func.count()).select_from(table)) or 0


def main(urls: list[str]) -> None:
    lines = [f"## Daily scan: {PEOPLE:,} people, {PATHS:,} paths (budget 10 s)", ""]
    lines += [
        "| database | scan | seconds | queued (the writes' share: SQLite's write lock) |",
        "|---|---|---|---|",
    ]
    for url in urls:
        kind = make_url(url).get_backend_name()
        for label, seconds, summary in measure(_fresh(url)):
            lines.append(f"| {kind} | {label} | {seconds:.2f} | {summary} |")
            print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(f"written to {save('scan', table)}", flush=True)
