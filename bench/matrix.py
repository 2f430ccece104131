"""The skills matrix (issue budget: 500 people × 60 functions answered within 200 ms, exported within
3 s), on a fresh database of each kind: a cartography of 60 functions, 500 people in 5 teams of 100,
40 periodic modules (and 10 that are not), 30 qualifications naming the cartography (20 naming 3 to 6
functions they open, 10 naming none, whose modules' spot elements on 2 to 4 functions say it), each
qualifiable for one or two teams, and a closed path per (person, module of their teams'
qualifications) graded 4 times in 5 successfully, valid until a day from 200 days ago to 800 days
ahead; a path in progress for one person in ten on one of those modules. Each person's row then has
cells in every state.

Served by `spot serve` and asked over HTTP as the page and its buttons ask, by a manager
(perm_TableauBord) who sees the whole map: the matrix 30 times in a row (the JSON, p50 / p95 / max,
and its size), the Excel file and the PDF 3 times each (the whole download).

`python -m bench matrix [--db sqlite|postgresql|both]`
"""

import os
import random
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import insert, select, text
from sqlalchemy.engine import make_url

from bench.runner import save
from bench.upload import _serve

API = "/backend/api/v2"
PEOPLE = 500
TEAMS = 5
FUNCTIONS = 60
MODULES = 50
PERIODIC = 40
QUALIFICATIONS = 30
NAMING = 20
MATRIX_RUNS = 30
FILE_RUNS = 3
BUDGET = {"matrix": 0.200, "excel": 3.0, "pdf": 3.0}
MANAGER, PASSWORD = "bench-manager", "bench-password"


def _fresh(url: str) -> str:
    from spot import db as database

    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        name = "spot_bench_matrix"
        admin = database.make_engine(parsed.set(database="postgres").render_as_string(hide_password=False))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return parsed.set(database=name).render_as_string(hide_password=False)
    return f"sqlite:///{tempfile.mkdtemp(prefix='spot-bench-matrix-')}/spot.db"


def _generate(day: date) -> int:
    """The organisation above, relative to `day`; the cartography's id."""
    from bench.dataset import load
    from spot import db as database
    from spot.core.passwords import hash_password
    from spot.mapping.models import Cartography, Function, Site
    from spot.qualifications import validity
    from spot.qualifications.models import ModuleHold
    from spot.training.modules.models import TrainingModule
    from spot.users.models import User

    engine = database.get_engine()
    tables = database.Base.metadata.tables
    rng = random.Random(31)
    t0 = datetime(2024, 1, 1, 8, tzinfo=UTC)

    with database.session_factory()() as db:
        site = Site(code="BENCH", name="Usine du banc")
        db.add(site)
        db.flush()
        cartography = Cartography(site_id=site.id, code="ATL", name="Atelier du banc")
        db.add(cartography)
        db.flush()
        functions = []
        for f in range(FUNCTIONS):
            function = Function(
                cartography_id=cartography.id, ordering=f, code=f"P{f:02d}", name=f"Poste {f:02d}"
            )
            db.add(function)
            functions.append(function)
        db.flush()
        cartography_id, function_ids = cartography.id, [f.id for f in functions]
        db.commit()

    def rows(name: str, values: list[dict]) -> None:
        with engine.begin() as conn:
            for start in range(0, len(values), 5000):
                conn.execute(tables[name].insert(), values[start : start + 5000])

    password = hash_password(PASSWORD)
    team_of = {n: (n - 1) % TEAMS + 1 for n in range(1, PEOPLE + 1)}
    people = [
        {
            "id": n,
            "login": f"p{n:04d}",
            "first_name": f"Prénom{n}",
            "last_name": f"Nom{rng.randint(1, 400):03d}",
            "password_hash": "",
        }
        for n in range(1, PEOPLE + 1)
    ]
    people.append(
        {
            "id": PEOPLE + 1,
            "login": MANAGER,
            "first_name": "Marc",
            "last_name": "Banc",
            "password_hash": password,
        }
    )
    rows("user", people)
    managers = TEAMS + 1
    rows(
        "group",
        [{"id": g, "name": f"Équipe {g}"} for g in range(1, TEAMS + 1)]
        + [{"id": managers, "name": "Encadrement"}],
    )
    rows("group_permission", [{"group_id": managers, "name": "perm_TableauBord"}])
    rows(
        "user_group",
        [{"user_id": n, "group_id": team_of[n]} for n in team_of]
        + [{"user_id": PEOPLE + 1, "group_id": managers}],
    )
    periodicity = {m: rng.choice((12, 24, 36)) if m <= PERIODIC else 0 for m in range(1, MODULES + 1)}
    rows(
        "training_module",
        [
            {"id": m, "name": f"Module {m}", "periodicity": periodicity[m], "created_at": t0}
            for m in range(1, MODULES + 1)
        ],
    )
    items, qualification_rows, links, named, qualifiable, places = [], [], [], [], [], []
    team_modules: dict[int, set[int]] = {g: set() for g in range(1, TEAMS + 1)}
    for q in range(1, QUALIFICATIONS + 1):
        qualification_rows.append({"id": q, "name": f"Habilitation {q}", "created_at": t0, "updated_at": t0})
        modules = rng.sample(range(1, MODULES + 1), rng.randint(1, 3))
        links += [{"qualification_id": q, "module_id": m, "position": i} for i, m in enumerate(modules)]
        places.append({"qualification_id": q, "cartography_id": cartography_id})
        if q <= NAMING:
            named += [
                {"qualification_id": q, "function_id": f} for f in rng.sample(function_ids, rng.randint(3, 6))
            ]
        else:
            for m in modules:
                for f in rng.sample(function_ids, rng.randint(2, 4)):
                    items.append(
                        {
                            "module_id": m,
                            "position": len(items),
                            "kind": "spot",
                            "spot_item_type": "function",
                            "spot_item_id": f,
                        }
                    )
        for g in rng.sample(range(1, TEAMS + 1), rng.randint(1, 2)):
            qualifiable.append({"qualification_id": q, "group_id": g})
            team_modules[g].update(modules)
    rows("training_module_item", items)
    rows("qualification", qualification_rows)
    rows("qualification_module", links)
    rows("qualification_cartography", places)
    rows("qualification_function", named)
    rows("qualification_group", qualifiable)

    paths, path_modules = [], []

    def path(learner: int, status: str, start: date) -> int:
        paths.append(
            {
                "id": len(paths) + 1,
                "title": f"Parcours {len(paths) + 1}",
                "title_folded": f"parcours {len(paths) + 1}",
                "learner_id": learner,
                "status": status,
                "created_at": datetime.combine(start, datetime.min.time(), tzinfo=UTC),
                "version": 1,
                "start_date": start,
                "stop_date": start + timedelta(days=30),
                "pass_threshold": 5,
                "status_changed_at": datetime.combine(start, datetime.min.time(), tzinfo=UTC),
                "total_items": 0,
                "done_items": 0,
                "opened_by_spot": False,
            }
        )
        return len(paths)

    for person in range(1, PEOPLE + 1):
        modules = sorted(team_modules[team_of[person]])
        for m in modules:
            until = day + timedelta(days=rng.randint(-200, 800))
            # Graded a periodicity before its last day, never later than yesterday.
            months = periodicity[m] or 12
            graded_day = min(until - timedelta(days=months * 365 // 12), day - timedelta(days=1))
            graded = datetime.combine(graded_day, datetime.min.time(), tzinfo=UTC)
            success = rng.random() < 0.8
            p = path(person, "archived", graded.date())
            path_modules.append(
                {
                    "id": len(path_modules) + 1,
                    "path_id": p,
                    "position": 0,
                    "module_id": m,
                    "start_date": graded.date(),
                    "stop_date": graded.date(),
                    "status": "archived",
                    "status_changed_at": graded,
                    "total_items": 0,
                    "done_items": 0,
                    "grade": 8.0 if success else 3.0,
                    "is_success": success,
                    "valid_until": (until if m <= PERIODIC else None) if success else None,
                    "graded_at": graded,
                }
            )
        if modules and person % 10 == 0:
            p = path(person, "started", day - timedelta(days=5))
            path_modules.append(
                {
                    "id": len(path_modules) + 1,
                    "path_id": p,
                    "position": 0,
                    "module_id": rng.choice(modules),
                    "start_date": day,
                    "stop_date": day + timedelta(days=20),
                    "status": "started",
                    "status_changed_at": datetime.combine(day, datetime.min.time(), tzinfo=UTC),
                    "total_items": 0,
                    "done_items": 0,
                    "grade": None,
                    "is_success": None,
                    "valid_until": None,
                    "graded_at": None,
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
            for name in (
                "user",
                "group",
                "training_module",
                "training_path",
                "training_path_module",
                "qualification",
            ):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), {10**6})"))
        conn.execute(text("ANALYZE"))
    print(f"{len(paths)} paths, {len(path_modules)} path modules", flush=True)
    return cartography_id


def _timed(client: httpx.Client, url: str, runs: int) -> tuple[list[float], int]:
    times, size = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url)
        response.raise_for_status()
        size = len(response.content)
        times.append(time.perf_counter() - started)
    return times, size


def measure(url: str) -> list[tuple[str, str, str, str]]:
    from spot import db as database
    from spot.config import get_settings
    from spot.core.time import today

    os.environ["SPOT_DATABASE_URL"] = url
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    started = time.perf_counter()
    cartography_id = _generate(today())
    print(f"generated in {time.perf_counter() - started:.1f} s", flush=True)
    database.get_engine().dispose()
    workdir = Path(tempfile.mkdtemp(prefix="spot-bench-matrix-data-"))
    # The daily scan at the day's last minute: not while the calls are timed.
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": url,
        "SPOT_DATA_DIR": str(workdir),
        "SPOT_DAILY_SCAN_AT": "23:59",
    }
    server, base = _serve(env)
    figures = []
    try:
        token = httpx.post(
            f"{base}{API}/account/login", json={"username": MANAGER, "password": PASSWORD}
        ).json()["token"]
        with httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=60) as client:
            matrix = f"{API}/dashboards/cartography/{cartography_id}/matrix"
            answer = client.get(matrix).json()
            cells = len(answer["rows"]) * len(answer["columns"])
            print(
                f"{len(answer['rows'])} people × {len(answer['columns'])} functions = {cells} cells",
                flush=True,
            )
            _timed(client, matrix, 3)  # warm: the first requests load the modules and the statements
            times, size = _timed(client, matrix, MATRIX_RUNS)
            ordered = [t * 1000 for t in sorted(times)]
            p50, p95 = statistics.median(ordered), ordered[int(0.95 * len(ordered)) - 1]
            figures.append(
                (
                    f"matrix JSON ({len(answer['rows'])} × {len(answer['columns'])}, {size / 1e6:.2f} MB)",
                    f"≤ {BUDGET['matrix'] * 1000:.0f} ms",
                    f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms",
                    "within" if statistics.median(times) <= BUDGET["matrix"] else "over",
                )
            )
            for kind in ("excel", "pdf"):
                times, size = _timed(client, f"{matrix}/{kind}", FILE_RUNS)
                figures.append(
                    (
                        f"{kind} ({size / 1e3:.0f} KB)",
                        f"≤ {BUDGET[kind]:.0f} s",
                        ", ".join(f"{t:.2f} s" for t in times),
                        "within" if max(times) <= BUDGET[kind] else "over",
                    )
                )
                print(figures[-1], flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    return figures


def main(urls: list[str]) -> None:
    lines = [
        f"## Skills matrix: {PEOPLE} people × {FUNCTIONS} functions (budgets: answer 200 ms, export 3 s)",
        "",
    ]
    lines += ["| database | call | budget | measured | |", "|---|---|---|---|---|"]
    for url in urls:
        kind = make_url(url).get_backend_name()
        for call, budget, measured, verdict in measure(_fresh(url)):
            lines.append(f"| {kind} | {call} | {budget} | {measured} | {verdict} |")
            print(lines[-1], flush=True)
    print(f"written to {save('matrix', chr(10).join(lines))}", flush=True)
