"""Two status changes of one mediation at the same time: one wins, the other answers 409 (spec 1 §4).
Each thread sends its request on an event loop of its own, so the app's statements interleave as they
would in several server processes (as tests/subjects/test_subjects_concurrency.py)."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

from sqlalchemy import func, select

from spot.mediations.models import TrackingPeriod
from support import API

ROUNDS = 6


def _race(client, calls: list) -> Counter:  # noqa: ANN001
    barrier = Barrier(len(calls))

    def run(call):  # noqa: ANN001, ANN202
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return Counter(
            f"{r.status_code} {r.json().get('message', '') if r.status_code != 200 else ''}".strip()
            for r in pool.map(run, calls)
        )


def test_two_concurrent_status_changes_one_wins(client, cast, new_mediation, db) -> None:  # noqa: ANN001
    headers = cast.headers["mediator"]
    for _ in range(ROUNDS):
        mediation = new_mediation()
        url = f"{API}/mediation/{mediation['id']}/status"
        assert client.post(url, json={"status": "started"}, headers=headers).status_code == 200
        # Pause and stop, both legal from started: exactly one applies.
        calls = [
            lambda url=url: client.post(url, json={"status": "paused"}, headers=headers),
            lambda url=url: client.post(url, json={"status": "stopped"}, headers=headers),
        ]
        outcome = _race(client, calls)
        assert outcome["200"] == 1, outcome
        assert sum(n for status, n in outcome.items() if status.startswith("409")) == 1, outcome
        final = client.get(url.removesuffix("/status"), headers=headers).json()
        assert final["status"] in ("paused", "stopped")
        assert final["version"] == mediation["version"] + 2
        # One period, closed once.
        assert len(final["trackingPeriods"]) == 1 and final["trackingPeriods"][0]["stop"] is not None


def test_two_concurrent_identical_changes_one_wins(client, cast, new_mediation, db) -> None:  # noqa: ANN001
    headers = cast.headers["mediator"]
    for _ in range(ROUNDS):
        mediation = new_mediation()
        url = f"{API}/mediation/{mediation['id']}/status"
        calls = [lambda url=url: client.post(url, json={"status": "started"}, headers=headers)] * 2
        outcome = _race(client, calls)
        assert outcome["200"] == 1, outcome
        assert outcome["409 illegalTransition"] + outcome["409 conflictingData"] == 1, outcome
        db.expire_all()
        periods = db.scalar(
            select(func.count())
            .select_from(TrackingPeriod)
            .where(TrackingPeriod.mediation_id == mediation["id"])
        )
        assert periods == 1
