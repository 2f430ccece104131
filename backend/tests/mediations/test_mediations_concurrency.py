"""Two status changes of one mediation at the same time: one wins, the other answers 409 (spec 1 §4).
Each thread sends its request on an event loop of its own, so the app's statements interleave as they
would in several server processes (as tests/subjects/test_subjects_concurrency.py)."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from sqlalchemy import func, select

from spot.mediations.models import TrackingPeriod
from support import API

ROUNDS = 6


def _race(client, calls: list) -> Counter:
    barrier = Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return Counter(
            f"{r.status_code} {r.json().get('message', '') if r.status_code != 200 else ''}".strip()
            for r in pool.map(run, calls)
        )


@pytest.mark.parametrize("target", ["paused", "stopped", "canceled"])
def test_two_concurrent_status_changes_one_wins(client, cast, new_mediation, db, target) -> None:
    """The same change sent twice at once (two tabs, a double click): it applies once."""
    headers = cast.headers["mediator"]
    for _ in range(ROUNDS):
        mediation = new_mediation()
        url = f"{API}/mediation/{mediation['id']}/status"
        assert client.post(url, json={"status": "started"}, headers=headers).status_code == 200
        calls = [lambda url=url: client.post(url, json={"status": target}, headers=headers)] * 2
        outcome = _race(client, calls)
        assert outcome["200"] == 1, outcome
        assert outcome["409 illegalTransition"] + outcome["409 conflictingData"] == 1, outcome
        final = client.get(url.removesuffix("/status"), headers=headers).json()
        assert final["status"] == target
        assert final["version"] == mediation["version"] + 2
        # One period, closed once.
        assert len(final["trackingPeriods"]) == 1 and final["trackingPeriods"][0]["stop"] is not None


def test_pause_and_stop_at_once_end_stopped_or_refused(client, cast, new_mediation) -> None:
    """Pause and stop sent at once: whichever runs second sees the other's status; a stop after the
    pause is legal, a pause after the stop is refused. Never both on the same status read."""
    headers = cast.headers["mediator"]
    for _ in range(ROUNDS):
        mediation = new_mediation()
        url = f"{API}/mediation/{mediation['id']}/status"
        assert client.post(url, json={"status": "started"}, headers=headers).status_code == 200
        calls = [
            lambda url=url: client.post(url, json={"status": "paused"}, headers=headers),
            lambda url=url: client.post(url, json={"status": "stopped"}, headers=headers),
        ]
        outcome = _race(client, calls)
        final = client.get(url.removesuffix("/status"), headers=headers).json()
        assert (
            outcome["200"] in (1, 2)
            and outcome["200"] + sum(n for status, n in outcome.items() if status.startswith("409")) == 2
        ), outcome
        assert final["version"] == mediation["version"] + 1 + outcome["200"]
        if outcome["200"] == 2:
            assert final["status"] == "stopped"
        assert len(final["trackingPeriods"]) == 1 and final["trackingPeriods"][0]["stop"] is not None


def test_two_concurrent_identical_changes_one_wins(client, cast, new_mediation, db) -> None:
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
