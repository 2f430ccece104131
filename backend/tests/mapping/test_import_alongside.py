"""A map import is a job (mapping.jobs), run by the server's runner outside the request: while a big
bundle is written, other requests, reads and the writes of a subject page alike, are answered; on SQLite
the import commits in steps so that other writers get the database's lock between them
(bundle.SUBJECTS_PER_STEP).

The import is held at one of its steps (after a commit on SQLite, mid-transaction on PostgreSQL) until
the other requests have been answered: were the import run on the event loop, or holding SQLite's
lock, those requests would wait for it and the test would fail, whatever the machine's speed."""

import threading
import time

from fastapi.testclient import TestClient

from mapping.maps import document, load, make_zip
from spot.mapping import bundle
from support import API

SUBJECTS = 60
# Generous: only reached when the other requests cannot be answered while the import runs.
HELD_AT_MOST = 120


def _big_bundle() -> bytes:
    doc = document()
    cartography = doc["cartographies"][0]
    doc["code"], cartography["code"], doc["cartographies"] = "BIG", "BIGC", [cartography]
    cartography["subjects"] = [
        {"code": f"X{i}", "name": f"Sujet {i}", "type": "risk", "function": "F1", "activity": "A11"}
        for i in range(SUBJECTS)
    ]
    return make_zip(doc)


def test_other_requests_are_answered_while_a_map_imports(app, db, make_user, login, monkeypatch):
    test_map = load(db)
    headers = login(make_user(permissions=["perm_SetPermissions", "perm_EditPdv"]))
    holding, answered = threading.Event(), threading.Event()
    step = bundle._Writer.step

    def held_step(writer: bundle._Writer, done: int) -> None:
        step(writer, done)
        if done == SUBJECTS // 2:
            holding.set()
            assert answered.wait(HELD_AT_MOST), "the other requests were not answered during the import"

    monkeypatch.setattr(bundle._Writer, "step", held_step)
    with TestClient(app) as client:  # Spot starts: its runner runs the import's job
        asked = client.post(
            f"{API}/mapping/import",
            content=_big_bundle(),
            headers=headers | {"content-type": "application/zip"},
        )
        assert asked.status_code == 202, asked.text
        assert holding.wait(HELD_AT_MOST), "the import reached its middle"
        subject = f"{API}/subject/{test_map.subject('S1')}"
        reads = [client.get(url, headers=headers).status_code for url in (f"{API}/site", subject)]
        current = client.get(subject, headers=headers).json()
        renamed = {
            key: current[key] for key in ("type", "cartographyId", "functionId", "activityId", "version")
        }
        write = client.post(subject, json={**renamed, "name": "Renommé pendant l'import"}, headers=headers)
        answered.set()
        deadline = time.monotonic() + HELD_AT_MOST
        while (job := client.get(f"{API}/jobs/{asked.json()['id']}", headers=headers).json())["status"] in (
            "queued",
            "running",
        ):
            assert time.monotonic() < deadline, "the import's job never ended"
            time.sleep(0.05)
    assert (job["status"], job["summary"]["created"]["subjects"]) == ("succeeded", SUBJECTS)
    assert reads == [200, 200]
    assert write.status_code == 200, write.text
