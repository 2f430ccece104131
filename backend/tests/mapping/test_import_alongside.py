"""A map import is a work route (core.routing): while a big bundle is written, other requests, reads
and the writes of a subject page alike, are answered; on SQLite the import commits in steps so that
other writers get the database's lock between them (bundle.SUBJECTS_PER_STEP)."""

import threading
import time

from fastapi.testclient import TestClient

from mapping.maps import document, load, make_zip
from support import API

SUBJECTS = 600


def _big_bundle() -> bytes:
    doc = document()
    cartography = doc["cartographies"][0]
    doc["code"], cartography["code"], doc["cartographies"] = "BIG", "BIGC", [cartography]
    cartography["subjects"] = [
        {"code": f"X{i}", "name": f"Sujet {i}", "type": "risk", "function": "F1", "activity": "A11"}
        for i in range(SUBJECTS)
    ]
    return make_zip(doc)


def test_other_requests_are_answered_while_a_map_imports(app, db, make_user, login):  # noqa: ANN001
    test_map = load(db)
    admin = make_user(permissions=["perm_SetPermissions"])
    headers = login(admin)
    data = _big_bundle()
    answers: list[tuple[int, float]] = []
    imported: list[int] = []
    with TestClient(app) as client:

        def run_import() -> None:
            response = client.post(
                f"{API}/mapping/import", content=data, headers=headers | {"content-type": "application/zip"}
            )
            imported.append(response.status_code)

        importer = threading.Thread(target=run_import)
        importer.start()
        time.sleep(0.3)
        while importer.is_alive():
            for url in (f"{API}/site", f"{API}/subject/{test_map.subject('S1')}"):
                started = time.monotonic()
                status = client.get(url, headers=headers).status_code
                answers.append((status, time.monotonic() - started))
        importer.join()
    assert imported == [200]
    assert len(answers) >= 4, "the import lasted long enough for others to ask meanwhile"
    assert {status for status, _ in answers} == {200}
    assert max(seconds for _, seconds in answers) < 2.0, answers
