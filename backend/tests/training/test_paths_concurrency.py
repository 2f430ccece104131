"""Two referents grading one module at the same time (issue 16 contract 'Grading'): one wins, the other
answers 409. Each thread sends its request on an event loop of its own, so the app's statements
interleave as they would in several server processes (as tests/mediations/test_mediations_concurrency.py)."""

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from training.paths_support import PATHS, Cast, act, get, make_module, move_to, path_body

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
    login,  # noqa: ANN001
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
