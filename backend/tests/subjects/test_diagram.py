"""A subject's diagram (docs/mind-map.md 'The diagram'): upload (a JPEG or PNG image or a PDF, the
resources' upload rules), removal, serving; perm_EditNotBasse for the writes; hasDiagram follows."""

import hashlib
from urllib.parse import quote

import pytest
from sqlalchemy import select

from mapping.maps import load, restrict
from resources.gallery import PDF, image, stored_files
from spot.core.history_models import HistoryEntry
from spot.mapping.models import Subject
from spot.subjects.mindmap import diagram
from support import API, assert_error, field_codes

EDIT = "perm_EditNotBasse"
PNG, JPEG = image(40, 20), image(40, 20, fmt="JPEG")
GIF = image(10, 10, fmt="GIF")


def url(subject_id, suffix=""):
    return f"{API}/subject/{subject_id}/diagram{suffix}"


def upload(client, headers, subject_id, body, name="schéma.png"):
    return client.post(
        url(subject_id),
        content=body,
        headers={**headers, "name": quote(name), "Content-Type": "application/octet-stream"},
    )


@pytest.fixture
def new_files(test_map):
    before = stored_files()
    return lambda: stored_files() - before


@pytest.fixture
def editor(test_map, make_user, login):
    return login(make_user("dessinateur", [EDIT]))


@pytest.fixture
def subject(test_map):
    # S2 has no diagram; S1 was imported with hasDiagram and no file (the legacy application's).
    return test_map.subject("S2")


def has_diagram(client, headers, subject_id):
    return client.get(f"{API}/subject/{subject_id}", headers=headers).json()["hasDiagram"]


@pytest.mark.parametrize(
    "body, name, media_type",
    [
        (PNG, "plan.png", "image/png"),
        (JPEG, "photo.jpg", "image/jpeg"),
        (PDF, "schéma.pdf", "application/pdf"),
    ],
)
def test_an_image_or_a_pdf_is_accepted_and_served(client, editor, subject, body, name, media_type):
    assert has_diagram(client, editor, subject) is False
    response = upload(client, editor, subject, body, name)
    assert response.status_code == 200, response.text
    sha = hashlib.sha256(body).hexdigest()
    assert response.json() == {
        "name": name,
        "mediaType": media_type,
        "url": f"{url(subject, '/file')}?v={sha[:12]}",
    }
    assert has_diagram(client, editor, subject) is True
    served = client.get(url(subject, "/file"), headers=editor)
    assert served.status_code == 200
    assert served.content == body
    assert served.headers["content-type"] == media_type
    assert served.headers["etag"] == f'"{sha}"'
    assert served.headers["content-disposition"].startswith("inline;")
    assert served.headers["cache-control"] == "private, no-cache"
    versioned = client.get(response.json()["url"], headers=editor)
    assert versioned.headers["cache-control"] == "private, max-age=31536000, immutable"
    again = client.get(url(subject, "/file"), headers={**editor, "If-None-Match": f'"{sha}"'})
    assert (again.status_code, again.content) == (304, b"")


@pytest.mark.parametrize(
    "body, code",
    [
        (GIF, "badFileFormat"),
        (b"juste du texte\n", "badFileFormat"),
        (PNG[:40] + bytes(200), "fileUploadError"),
        (b"", "emptyFieldError"),
    ],
)
def test_other_files_are_refused_and_nothing_is_kept(client, editor, subject, new_files, body, code):
    response = upload(client, editor, subject, body)
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("file", code)}
    assert has_diagram(client, editor, subject) is False
    assert new_files() == set()


def test_a_file_over_the_limit_is_refused(client, editor, subject, new_files, monkeypatch):
    monkeypatch.setattr(diagram, "MAX_BYTES", len(PNG) - 1)
    response = upload(client, editor, subject, PNG)
    assert_error(response, 413, "fileTooBig")
    assert field_codes(response) == {("file", "fileTooBig")}
    assert new_files() == set()
    monkeypatch.setattr(diagram, "MAX_BYTES", len(PNG))
    assert upload(client, editor, subject, PNG).status_code == 200


def test_the_limit_is_the_resources_one():
    assert diagram.MAX_BYTES == 30_000_000


# Who may do what: role × action --------------------------------------------------------------

ROLES = {
    "none": [],
    "diagram editor": [EDIT],
    "others": ["perm_EditPdv", "perm_EditNotHaute", "perm_ValidNotHaute"],
}
ACTIONS = {"upload": EDIT, "delete": EDIT, "file": None}


def perform(client, headers, subject_id, action):
    if action == "upload":
        return upload(client, headers, subject_id, JPEG, "autre.jpg")
    if action == "delete":
        return client.delete(url(subject_id), headers=headers)
    return client.get(url(subject_id, "/file"), headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, make_user, login, editor, subject, role, action):
    assert upload(client, editor, subject, PNG).status_code == 200
    headers = login(make_user(permissions=ROLES[role]))
    response = perform(client, headers, subject, action)
    if ACTIONS[action] is None or ACTIONS[action] in ROLES[role]:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")


@pytest.mark.parametrize("action", ACTIONS)
def test_hidden_subject_403_unknown_404(client, db, test_map, make_user, login, editor, subject, action):
    assert upload(client, editor, subject, PNG).status_code == 200
    outsider = make_user("exterieur", [EDIT])
    restrict(db, outsider, test_map.cartography("C2"))
    headers = login(outsider)
    assert_error(perform(client, headers, subject, action), 403)
    assert_error(perform(client, editor, 987654, action), 404, "subjectNotFound")


# Effects -------------------------------------------------------------------------------------


def history_events(db, subject_id):
    db.expire_all()
    return [
        e.event
        for e in db.scalars(
            select(HistoryEntry)
            .where(
                HistoryEntry.item_type == "subject",
                HistoryEntry.item_id == subject_id,
                HistoryEntry.mode == "W",
            )
            .order_by(HistoryEntry.id)
        )
    ]


def test_delete_removes_the_diagram_and_its_file(client, db, editor, subject, new_files):
    before = history_events(db, subject)
    assert upload(client, editor, subject, PNG).status_code == 200
    assert history_events(db, subject) == [*before, "updated"]
    assert len(new_files()) == 1
    response = client.delete(url(subject), headers=editor)
    assert response.status_code == 204
    assert has_diagram(client, editor, subject) is False
    assert new_files() == set()
    assert_error(client.get(url(subject, "/file"), headers=editor), 404, "diagramNotFound")
    assert history_events(db, subject) == [*before, "updated", "updated"]
    row = db.get(Subject, subject)
    assert (row.diagram_ref, row.diagram_media_type, row.diagram_sha256, row.diagram_name) == (None,) * 4


def test_a_new_diagram_replaces_the_former_and_its_file_goes(client, editor, subject, new_files):
    assert upload(client, editor, subject, PNG).status_code == 200
    first = new_files()
    second = upload(client, editor, subject, PDF, "plan.pdf")
    assert second.status_code == 200
    assert len(new_files()) == 1 and new_files() != first
    assert client.get(url(subject, "/file"), headers=editor).content == PDF


def test_the_diagram_does_not_move_the_tree_version(client, db, editor, subject):
    before = db.get(Subject, subject).mind_map_version
    assert upload(client, editor, subject, PNG).status_code == 200
    db.expire_all()
    assert db.get(Subject, subject).mind_map_version == before


def test_deleting_the_subject_collects_its_diagram(client, make_user, login, editor, subject, new_files):
    assert upload(client, editor, subject, PNG).status_code == 200
    remover = login(make_user("effaceur", ["perm_RemPdv"]))
    assert client.delete(f"{API}/subject/{subject}", headers=remover).status_code == 204
    assert new_files() == set()


def test_a_copy_shares_the_stored_diagram_not_a_legacy_one(
    client, test_map, make_user, login, editor, subject, new_files
):
    """Create from / duplicate: the copy shows the same file, which stays while either refers to it; a
    diagram kept by the legacy application is not the copy's."""
    assert upload(client, editor, subject, PNG).status_code == 200
    user = login(make_user("copiste", ["perm_EditPdv", "perm_RemPdv"]))
    copy = client.post(f"{API}/subject/{subject}/duplicate", headers=user).json()["id"]
    assert has_diagram(client, user, copy) is True
    assert client.get(url(copy, "/file"), headers=user).content == PNG
    assert client.delete(f"{API}/subject/{subject}", headers=user).status_code == 204
    assert client.get(url(copy, "/file"), headers=user).content == PNG
    assert len(new_files()) == 1
    legacy_copy = client.post(f"{API}/subject/{test_map.subject('S1')}/duplicate", headers=user).json()["id"]
    assert has_diagram(client, user, legacy_copy) is False


def test_a_legacy_diagram_keeps_has_diagram_without_a_file(client, test_map, editor):
    legacy = test_map.subject("S1")
    assert has_diagram(client, editor, legacy) is True
    assert_error(client.get(url(legacy, "/file"), headers=editor), 404, "diagramNotFound")
    assert has_diagram(client, editor, legacy) is True
    # Removing it clears the flag.
    assert client.delete(url(legacy), headers=editor).status_code == 204
    assert has_diagram(client, editor, legacy) is False


def test_importing_the_map_again_keeps_a_stored_diagram(client, db, editor, subject):
    assert upload(client, editor, subject, PNG).status_code == 200
    load(db)  # the bundle says nothing of S2's diagram
    assert has_diagram(client, editor, subject) is True
    assert client.get(url(subject, "/file"), headers=editor).status_code == 200
