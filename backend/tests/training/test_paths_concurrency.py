"""Two referents grading one module at the same time: one wins, the other answers 409. Each thread sends
its request on an event loop of its own, so the app's statements interleave as they would in several
server processes (as tests/mediations/test_mediations_concurrency.py)."""

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.time import utcnow
from spot.training.modules.models import TrainingModuleItem
from spot.training.paths.models import TrainingPathModule, TrainingPathVisit
from training.paths_support import PATHS, Cast, act, get, make_module, make_path, move_to, path_body

ROUNDS = 4


def _race(calls: list[Callable[[], Any]]) -> Counter:
    barrier = Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return Counter(
            f"{r.status_code} {r.json().get('message', '') if r.status_code != 200 else ''}".strip()
            for r in pool.map(run, calls)
        )


def test_two_referents_grading_at_once_one_wins(
    client: TestClient,
    db: Session,
    make_user,
    login,
) -> None:
    cast = Cast.of(make_user, login)
    second = cast.add("second", make_user, login)
    for _ in range(ROUNDS):
        body = path_body(cast, [make_module(db), make_module(db, "Deux")])
        body["assignedModules"][0]["referents"] = [cast.id("referent"), second.id]
        path_id = client.post(PATHS, json=body, headers=cast.headers["creator"]).json()[0]["id"]
        move_to(client, cast, path_id, "started")
        version = act(client, cast, "referent", path_id, "0/startNow")["version"]
        url = f"{PATHS}/{path_id}/0/grade"
        calls = [
            lambda role=role, grade=grade, url=url, version=version: client.post(
                url, json={"grade": grade, "comment": role, "version": version}, headers=cast.headers[role]
            )
            for role, grade in (("referent", 8), ("second", 4))
        ]
        outcome = _race(calls)
        assert outcome["200"] == 1, outcome
        assert outcome["409 staleVersion"] + outcome["409 conflictingData"] == 1, outcome
        module = get(client, cast, path_id)["assignedModules"][0]
        assert len(module["gradings"]) == 1
        assert module["grading"]["comment"] in ("referent", "second")


def test_two_reloads_at_once_promote_once(
    client: TestClient,
    db: Session,
    make_user,
    login,
) -> None:
    """The learner and the referent reload the path (`POST …/update`) at the moment its module's last
    element is done: both refresh it, the module becomes finished once."""
    cast = Cast.of(make_user, login)
    for _ in range(ROUNDS):
        module_id = make_module(db)
        path_id = make_path(client, cast, [module_id, make_module(db, "Deux")])
        move_to(client, cast, path_id, "started")
        act(client, cast, "referent", path_id, "0/startNow")
        row = db.scalars(
            select(TrainingPathModule).where(
                TrainingPathModule.path_id == path_id, TrainingPathModule.position == 0
            )
        ).one()
        item_id = db.scalars(
            select(TrainingModuleItem.id).where(TrainingModuleItem.module_id == module_id)
        ).one()
        db.add(TrainingPathVisit(path_module_id=row.id, module_item_id=item_id, done_at=utcnow()))
        db.commit()
        url = f"{PATHS}/{path_id}/update"
        calls = [
            lambda role=role, url=url: client.post(url, headers=cast.headers[role])
            for role in ("learner", "referent")
        ]
        assert _race(calls) == Counter({"200": 2})
        history = get(client, cast, path_id)["history"]
        assert [h["event"] for h in history].count("moduleFinished") == 1
