"""The learning platform under concurrent calls: first launches of a course at once share one
registration, and a statement sent several times at once is stored once and accepted each time (xAPI:
only another statement under the same id conflicts). Each thread sends its request on an event loop
of its own, so the app's statements interleave as they would in several server processes (as
tests/training/test_paths_concurrency.py)."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import func, select

from lms.conftest import Runtime, leaves
from spot.lms.models import LmsAttempt, LmsCompletion, LmsRegistration, LmsStatement
from support import API

CALLS = 10


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("learner"))


@pytest.fixture
def units(demo_course) -> dict[str, dict[str, Any]]:
    return leaves(demo_course)


def test_first_launches_at_once_share_one_registration(client, db, learner, units) -> None:
    ids = [unit["id"] for unit in units.values()] * (CALLS // 2)
    responses = race(
        [
            lambda item_id=item_id: client.post(f"{API}/lms/items/{item_id}/launch", headers=learner)
            for item_id in ids
        ]
    )
    assert [r.status_code for r in responses] == [200] * len(ids), [r.text for r in responses]
    registrations = {parse_qs(urlsplit(r.json()["url"]).query)["registration"][0] for r in responses}
    assert len(registrations) == 1
    assert db.scalar(select(func.count()).select_from(LmsRegistration)) == 1


def test_one_statement_sent_twice_at_once_is_stored_once_and_accepted(
    client, db, launch, learner, units
) -> None:
    runtime: Runtime = launch(learner, units["Quiz consignation"]["id"]).begin()
    passed = runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True})
    responses = race([lambda: runtime.put(passed) for _ in range(CALLS)])
    assert [r.status_code for r in responses] == [204] * CALLS, [r.text for r in responses]
    assert (
        db.scalar(
            select(func.count()).select_from(LmsStatement).where(LmsStatement.statement_id == passed["id"])
        )
        == 1
    )
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 1
    # Another statement under the same id still conflicts.
    assert runtime.put({**passed, "timestamp": "2026-12-03T10:00:00Z"}).status_code == 409


def test_of_completed_statements_at_once_one_is_accepted(client, db, launch, learner, units) -> None:
    # cmi5 §9.3: one completed statement per session and registration; the session's statements are
    # taken one request at a time, so of ten sent at once exactly one is stored.
    runtime: Runtime = launch(learner, units["Les bases de la consignation"]["id"]).begin()
    statements = [runtime.statement("completed", {"completion": True}) for _ in range(CALLS)]
    responses = race([lambda statement=statement: runtime.put(statement) for statement in statements])
    codes = sorted(r.status_code for r in responses)
    assert codes == [204] + [403] * (CALLS - 1), [r.text for r in responses]
    assert db.scalar(select(func.count()).select_from(LmsCompletion)) == 1
    completed = select(func.count()).select_from(LmsStatement).where(LmsStatement.verb.endswith("/completed"))
    assert db.scalar(completed) == 1
