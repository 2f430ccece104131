"""An import of 20,000 people (issue budget: previewed and applied in at most 10 s each), on a fresh
database of each kind: the dry run, the first apply (every row created, with a group or two), and the
same file applied again (every row unchanged). Measured through the service the route and the command
line call, in the process (what the route adds, reading the body, is a few milliseconds of the 1.5 MB).

`python -m bench people [--db sqlite|postgresql|both]`
"""

import tempfile
import time
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bench.runner import save

ROWS = 20_000
GROUPS = 40


def people_file(rows: int = ROWS) -> bytes:
    lines = ["login;firstName;lastName;externalId;email;groups;active"]
    for n in range(rows):
        groups = f"Équipe {n % GROUPS}" + (f"|Équipe {(n * 7) % GROUPS}" if n % 3 == 0 else "")
        lines.append(f"p{n:05d};Prénom{n};Nom{n};HR-{n:05d};p{n:05d}@usine.example;{groups};oui")
    return ("\ufeff" + "\r\n".join(lines) + "\r\n").encode()


def _fresh(url: str) -> str:
    """A new empty database of the same kind, migrated."""
    from spot import db as database

    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        name = "spot_bench_people"
        admin = database.make_engine(parsed.set(database="postgres").render_as_string(hide_password=False))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        fresh = parsed.set(database=name).render_as_string(hide_password=False)
    else:
        fresh = f"sqlite:///{tempfile.mkdtemp(prefix='spot-bench-people-')}/spot.db"
    return fresh


def measure(url: str) -> list[tuple[str, float, str]]:
    import os

    from spot import db as database
    from spot.config import get_settings
    from spot.people import service
    from spot.permissions.models import GroupPermission
    from spot.users.models import Group, User

    os.environ["SPOT_DATABASE_URL"] = url
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    data = people_file()
    with database.session_factory()() as db:
        db.add_all([Group(name=f"Équipe {n}") for n in range(GROUPS)])
        admins = Group(name="Administrateurs", permissions=[GroupPermission(name="perm_SetPermissions")])
        db.add(User(login="admin", groups=[admins]))
        db.commit()
    figures = []
    steps = (("preview (dry run)", True), ("apply: 20,000 created", False), ("apply again: unchanged", False))
    for label, dry_run in steps:
        with database.session_factory()() as db:
            start = time.perf_counter()
            report = service.run(db, data=data, dry_run=dry_run, deactivate_missing=False, importer=None)
            db.commit()
            elapsed = time.perf_counter() - start
        summary = f"created {report.created}, unchanged {report.unchanged}, refused {report.refused}"
        figures.append((label, elapsed, summary))
    database.get_engine().dispose()
    return figures


def main(urls: list[str]) -> None:
    lines = [f"## People import: {ROWS:,} rows (budget 10 s each)", ""]
    lines += ["| database | step | seconds | rows |", "|---|---|---|---|"]
    for url in urls:
        kind = make_url(url).get_backend_name()
        for label, seconds, summary in measure(_fresh(url)):
            lines.append(f"| {kind} | {label} | {seconds:.2f} | {summary} |")
            print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(f"written to {save('people-import', table)}", flush=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:] or [f"sqlite:///{Path(tempfile.mkdtemp()) / 'x.db'}"])
