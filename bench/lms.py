"""A cmi5 course of 1,000 units (as the ADL test course 101 has), on a fresh database of each kind: its
import from a bare `cmi5.xml`, then a learner's first launch of a unit. No unit has a moveOn, so that
launch satisfies all 1,000 and the course at once (cmi5 §9.6.1): one roll-up, the heaviest launch
(`satisfaction`, imported here, is what records it).

Measured in the process, through `lms.service` as the routes call it (each in its transaction,
committed).

`python -m bench lms [--db sqlite|postgresql|both]`
"""

import tempfile
import time
from pathlib import Path

from sqlalchemy.engine import make_url

from bench.runner import save
from bench.scan import _fresh

UNITS = 1_000
COURSE = "https://example.com/bench/course/one-thousand-units"


def _structure() -> str:
    units = "".join(
        f'<au id="{COURSE}/au/{n}"><title><langstring lang="en">Unit {n}</langstring></title>'
        f'<description><langstring lang="en">Unit {n}</langstring></description>'
        "<url>https://example.com/index.html</url></au>"
        for n in range(UNITS)
    )
    return (
        '<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">'
        f'<course id="{COURSE}"><title><langstring lang="en">One thousand units</langstring></title>'
        '<description><langstring lang="en">One thousand units</langstring></description></course>'
        f"{units}</courseStructure>"
    )


def measure(url: str) -> tuple[float, float, int]:
    import os

    from sqlalchemy import func, select

    from spot import db as database
    from spot.account.service import principal_of
    from spot.config import get_settings
    from spot.lms import (
        satisfaction,  # noqa: F401 (importing it registers the roll-up with the launch)
        service,
    )
    from spot.lms.models import LmsItem, LmsSatisfaction
    from spot.users.models import User

    os.environ["SPOT_DATABASE_URL"] = url
    os.environ["SPOT_DATA_DIR"] = tempfile.mkdtemp(prefix="spot-bench-lms-")
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    source = Path(os.environ["SPOT_DATA_DIR"]) / "cmi5.xml"
    with database.session_factory()() as db:
        learner = User(login="learner", first_name="Léa", last_name="Martin")
        db.add(learner)
        db.commit()
        source.write_text(_structure())
        started = time.perf_counter()
        course = service.import_course(db, path=source, user_id=learner.id)
        db.commit()
        imported = time.perf_counter() - started
        first = db.scalars(
            select(LmsItem.id).where(LmsItem.course_id == course.id).order_by(LmsItem.position)
        ).first()
        user = principal_of(db, user_id=learner.id)
        started = time.perf_counter()
        service.launch(db, user=user, item_id=first, mode=None)
        db.commit()
        launched = time.perf_counter() - started
        satisfied = db.scalar(
            select(func.count()).select_from(LmsSatisfaction).where(LmsSatisfaction.course_id == course.id)
        )
    database.get_engine().dispose()
    return imported, launched, satisfied or 0


def main(urls: list[str]) -> None:
    lines = [f"## A cmi5 course of {UNITS:,} units: its import and a first launch satisfying them all", ""]
    lines += ["| database | import (s) | first launch (s) | satisfactions recorded |", "|---|---|---|---|"]
    for url in urls:
        kind = make_url(url).get_backend_name()
        imported, launched, satisfied = measure(_fresh(url))
        lines.append(f"| {kind} | {imported:.2f} | {launched:.2f} | {satisfied:,} |")
        print(lines[-1], flush=True)
    print(f"written to {save('lms', chr(10).join(lines))}", flush=True)
