"""Tomorrow's coverage (docs/qualifications.md) on the skills matrix's organisation (bench/matrix.py: 500
people in 5 teams, a cartography of 60 functions, 30 qualifications naming it, a closed path per person
and module of their teams' qualifications, valid until a day from 200 days ago to 800 days ahead, and
a function in three needing exactly the people qualified for it today, so that it falls with the first
hold that ends), on a fresh database of each kind:

- the daily scan's coverageWarnings step (notifications.coverage.warn), in process, the first time
  (every fall new: the messages written) and a second time the same day (nothing new);
- served by `spot serve` and asked over HTTP by the manager (perm_TableauBord, the whole map): the plan's
  answer (GET /dashboards/cartography/{id}/coverage) and the cartography's qualification dashboard that
  carries the same forecast, 30 times each, and the bell (GET /account/alerts), which reads the falls the
  scan recorded, 100 times.

`python -m bench coverage [--db sqlite|postgresql|both]`
"""

import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from sqlalchemy import func, select, text, update
from sqlalchemy.engine import make_url

from bench.matrix import MANAGER, PASSWORD, _generate, _timed
from bench.runner import save
from bench.upload import _serve

API = "/backend/api/v2"
RUNS = 30
BELL_RUNS = 100


def _fresh(url: str) -> str:
    """A fresh database of the kind of `url` (PostgreSQL: a database of its own, so that the matrix's
    bench may run meanwhile)."""
    from spot import db as database

    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        name = "spot_bench_coverage"
        admin = database.make_engine(parsed.set(database="postgres").render_as_string(hide_password=False))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return parsed.set(database=name).render_as_string(hide_password=False)
    return f"sqlite:///{tempfile.mkdtemp(prefix='spot-bench-coverage-')}/spot.db"


def _figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * len(ordered)) - 1]
    p50 = statistics.median(times)
    return f"p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"


def measure(url: str) -> list[tuple[str, str]]:
    from spot import db as database
    from spot.account.service import principal_of
    from spot.config import get_settings
    from spot.core.principal import Principal
    from spot.core.time import today
    from spot.mapping.models import Function
    from spot.notifications import coverage
    from spot.notifications.scan_models import CoverageWarning
    from spot.qualifications import dashboards
    from spot.users.models import User

    os.environ["SPOT_DATABASE_URL"] = url
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    day = today()
    cartography_id = _generate(day)
    figures = []
    with database.session_factory()() as db:
        # A function in three needs exactly the people qualified for it today: it falls with the first
        # hold that ends; the manager has an address, so that the messages are written.
        everything = Principal(
            id=0,
            display_name="",
            permission_names=frozenset(),
            group_ids=frozenset(),
            sees_every_cartography=True,
        )
        for f in dashboards.forecasts(db, user=everything, cartography_ids=[cartography_id], today=day):
            if f.function.id % 3 == 0:
                minimum = f.points[0].valid
                db.execute(
                    update(Function).where(Function.id == f.function.id).values(minimum_qualified=minimum)
                )
        db.execute(update(User).where(User.login == MANAGER).values(email="manager@banc.example"))
        db.commit()
        for run in ("first", "again the same day"):
            started = time.perf_counter()
            queued = coverage.warn(db, day=day)
            db.commit()
            elapsed = time.perf_counter() - started
            falls = db.scalar(select(func.count()).select_from(CoverageWarning))
            figures.append(
                (f"scan step coverageWarnings, {run}", f"{elapsed:.2f} s ({falls} falls, {queued} messages)")
            )
            print(figures[-1], flush=True)
        manager = principal_of(db, user_id=db.scalar(select(User.id).where(User.login == MANAGER)))
        times = []
        for _ in range(BELL_RUNS):
            started = time.perf_counter()
            coverage.alerts(db, user=manager, limit=50)
            times.append(time.perf_counter() - started)
        figures.append(("the bell's functionUnderMinimum provider, in process", _figures(times)))
        print(figures[-1], flush=True)
    database.get_engine().dispose()
    workdir = Path(tempfile.mkdtemp(prefix="spot-bench-coverage-data-"))
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": url,
        "SPOT_DATA_DIR": str(workdir),
        "SPOT_DAILY_SCAN_AT": "23:59",
    }
    server, base = _serve(env)
    try:
        token = httpx.post(
            f"{base}{API}/account/login", json={"username": MANAGER, "password": PASSWORD}
        ).json()["token"]
        with httpx.Client(base_url=base, headers={"x-access-token": token}, timeout=60) as client:
            plan = f"{API}/dashboards/cartography/{cartography_id}/coverage"
            outlooks = [f["outlook"] for f in client.get(plan).json()["functions"]]
            counted = ", ".join(f"{o} {outlooks.count(o)}" for o in ("nobody", "under", "falling", "enough"))
            for name, address, runs in (
                (f"plan's coverage (60 functions: {counted})", plan, RUNS),
                (
                    "cartography qualification dashboard (with the forecast)",
                    f"{API}/dashboards/qualifications/cartography/{cartography_id}",
                    RUNS,
                ),
                ("bell (the recorded falls)", f"{API}/account/alerts", BELL_RUNS),
            ):
                _timed(client, address, 3)  # warm
                times, size = _timed(client, address, runs)
                figures.append((f"{name}, {size / 1e3:.0f} KB", _figures(times)))
                print(figures[-1], flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    return figures


def main(urls: list[str]) -> None:
    lines = ["## Tomorrow's coverage: 500 people × 60 functions (the matrix's organisation)", ""]
    lines += ["| database | what | measured |", "|---|---|---|"]
    for url in urls:
        kind = make_url(url).get_backend_name()
        for what, measured in measure(_fresh(url)):
            lines.append(f"| {kind} | {what} | {measured} |")
            print(lines[-1], flush=True)
    print(f"written to {save('coverage', chr(10).join(lines))}", flush=True)
