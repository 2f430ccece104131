"""Uploads into one gallery at the same time each get a position of their own (the end of the gallery
as it is when their resource is written), on SQLite as on PostgreSQL. Each thread sends its request on
an event loop of its own, so the app's statements interleave as they would in several server processes."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from resources.gallery import EDIT, PDF, add, gallery_url

UPLOADS = 20


@pytest.fixture
def editor(make_user, login):
    return login(make_user("editeur", [EDIT]))


def test_parallel_uploads_get_distinct_positions(client, test_map, editor) -> None:
    parent = ("subject", test_map.subject("S1"))

    def upload(n: int) -> int:
        return add(client, editor, parent, "pdf", f"Notice {n}", f"notice-{n}.pdf", PDF).status_code

    with ThreadPoolExecutor(UPLOADS) as pool:
        statuses = list(pool.map(upload, range(UPLOADS)))
    assert statuses == [200] * UPLOADS
    gallery = client.get(gallery_url(*parent), headers=editor).json()["resources"]
    assert sorted(r["ordering"] for r in gallery) == list(range(UPLOADS))
