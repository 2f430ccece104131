"""Concurrent clicks on one subject: marks (follow, resolve, rate, standardize) carry no version and
simply apply; a read never fails because of a write running at the same time. Each thread sends its
requests on an event loop of its own, so the app's statements interleave as they would in several
server processes."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from support import API

THREADS = 8
ROUNDS = 12


def _statuses(calls: list) -> Counter:
    """Run the calls (each a function answering a response) from THREADS threads at once."""
    with ThreadPoolExecutor(THREADS) as pool:
        return Counter(
            f"{r.status_code} {r.text[:80] if r.status_code != 200 else ''}"
            for r in pool.map(lambda call: call(), calls)
        )


def test_concurrent_marks_all_apply(client: TestClient, test_map, make_user, login) -> None:
    subject = test_map.subject("S1")
    users = [login(make_user(permissions=["perm_ValidNotHaute"])) for _ in range(4)]
    bodies = {
        "follow": None,
        "resolve": None,
        "rate": {"frequency": 3, "gravity": 4, "detectability": 0},
        "standardize": {"comment": "ok"},
    }
    calls = [
        (
            lambda mark=mark, headers=headers: client.post(
                f"{API}/subject/{subject}/{mark}", json=bodies[mark], headers=headers
            )
        )
        for _ in range(ROUNDS)
        for mark in bodies
        for headers in users
    ]
    assert _statuses(calls) == Counter({"200 ": len(calls)})
    final = client.get(f"{API}/subject/{subject}", headers=users[0]).json()
    assert final["version"] == 1 + len(calls)


def test_reads_never_fail_while_the_subject_is_rated(client: TestClient, test_map, make_user, login) -> None:
    subject = test_map.subject("S1")
    headers = login(make_user())
    rating = {"frequency": 2, "gravity": 5, "detectability": 0}
    calls = [
        (lambda n=n: client.post(f"{API}/subject/{subject}/rate", json=rating, headers=headers))
        if n % 2
        else (lambda: client.get(f"{API}/subject/{subject}", headers=headers))
        for n in range(THREADS * ROUNDS * 2)
    ]
    assert _statuses(calls) == Counter({"200 ": len(calls)})
