import io
from urllib.parse import quote

import pytest
from PIL import Image
from sqlalchemy import delete, select

from mapping.maps import restrict
from resources.gallery import EDIT, PDF, add, gallery_url, image, post_in_chunks
from spot.core.history_models import HistoryEntry
from spot.mapping.models import Cartography
from spot.resources.models import Resource
from support import API, assert_error, field_codes

VIDEO = "dQw4w9WgXcQ"


@pytest.fixture
def editor(test_map, make_user, login):
    """(The test map first: it is put back into an empty database only.)"""
    return login(make_user("editeur", [EDIT]))


@pytest.fixture
def subject(test_map):
    return ("subject", test_map.subject("S1"))


def names(client, headers, parent):
    return [r["name"] for r in client.get(gallery_url(*parent), headers=headers).json()["resources"]]


# Who may do what: role × action --------------------------------------------------------------

ROLES = {"nobody": [], "editor": [EDIT], "others": ["perm_EditPdv", "perm_RemPdv", "perm_SetPermissions"]}
ACTIONS = {"read": None, "create": EDIT, "update": EDIT, "reorder": EDIT, "delete": EDIT, "file": None}


def perform(client, headers, parent, action, resource):
    url = gallery_url(*parent)
    if action == "read":
        return client.get(url, headers=headers)
    if action == "create":
        return add(client, headers, parent, "link", "Site", "https://example.org")
    if action == "update":
        body = {
            "name": "Nouveau",
            "link": "https://example.org/2",
            "comment": "",
            "version": resource["version"],
        }
        return client.post(f"{url}/{resource['id']}/update", json=body, headers=headers)
    if action == "reorder":
        return client.post(f"{url}/reorder", json=[resource["id"]], headers=headers)
    if action == "delete":
        return client.delete(f"{url}/{resource['id']}", headers=headers)
    return client.get(f"{url}/{resource['id']}/file", headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, make_user, login, editor, subject, role, action):
    resource = add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF).json()
    headers = login(make_user(permissions=ROLES[role]))
    allowed = ACTIONS[action] is None or ACTIONS[action] in ROLES[role]
    response = perform(client, headers, subject, action, resource)
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")
    can = client.get(gallery_url(*subject), headers=headers).json()["can"]
    assert can == {"edit": EDIT in ROLES[role]}


@pytest.mark.parametrize(
    "method, suffix, body",
    [
        ("GET", "", None),
        ("POST", "", None),
        ("POST", "/reorder", []),
        ("POST", "/{id}/update", {"name": "n", "link": "https://a.b", "comment": "", "version": 1}),
        ("DELETE", "/{id}", None),
        ("GET", "/{id}/file", None),
        ("GET", "/{id}/thumbnail", None),
    ],
)
def test_a_hidden_parent_answers_403_and_an_unknown_one_404(
    client, db, test_map, make_user, login, editor, method, suffix, body
):
    hidden = ("subject", test_map.subject("T1"))
    resource = add(client, editor, hidden, "image", "Photo", "photo.png", image()).json()
    user = make_user(permissions=[EDIT])
    restrict(db, user, test_map.cartography("C1"))
    headers = {**login(user), "resourceType": "link", "name": "n", "link": "https://a.b"}
    path = suffix.replace("{id}", str(resource["id"]))
    for parent, status in [
        (hidden, 403),
        (("function", test_map.function("G1")), 403),
        (("cartography", test_map.cartography("C2")), 403),
        (("subject", 987654), 404),
        (("planet", 1), 404),
    ]:
        response = client.request(method, gallery_url(*parent) + path, json=body, headers=headers)
        assert_error(response, status)
    assert names(client, editor, hidden) == ["Photo"]


def test_a_resource_is_only_reached_through_its_own_parent(client, test_map, editor, subject):
    resource = add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF).json()
    other = gallery_url("subject", test_map.subject("S2"))
    assert_error(client.get(f"{other}/{resource['id']}/file", headers=editor), 404, "resourceNotFound")
    assert_error(client.delete(f"{other}/{resource['id']}", headers=editor), 404)
    assert names(client, editor, subject) == ["Notice"]


# Adding each type ----------------------------------------------------------------------------


def test_each_type_is_added_at_the_end_of_the_gallery(client, db, editor, subject):
    assert add(client, editor, subject, "image", "Photo", "photo.jpg", image(fmt="JPEG")).status_code == 200
    assert add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF).status_code == 200
    assert add(client, editor, subject, "file", "Données", "mesures.csv", b"a;b\n1;2\n").status_code == 200
    assert add(client, editor, subject, "link", "Norme", "https://example.org/norme").status_code == 200
    video = add(client, editor, subject, "youtube", "Vidéo", f"https://www.youtube.com/watch?v={VIDEO}")
    assert video.status_code == 200, video.text
    body = client.get(gallery_url(*subject), headers=editor).json()
    resources = body["resources"]
    assert [(r["resourceType"], r["ordering"]) for r in resources] == [
        ("image", 0),
        ("pdf", 1),
        ("file", 2),
        ("link", 3),
        ("youtube", 4),
    ]
    photo, notice, data, link, youtube = resources
    assert set(photo) == {
        "id", "parentType", "parentId", "resourceType", "name", "link", "comment", "ordering",
        "mediaType", "size", "fileUrl", "thumbnailUrl", "version",
    }  # fmt: skip
    assert (photo["parentType"], photo["parentId"]) == subject
    assert photo["mediaType"] == "image/jpeg" and photo["thumbnailUrl"] and photo["fileUrl"]
    assert (notice["mediaType"], notice["size"], notice["link"]) == (
        "application/pdf",
        len(PDF),
        "notice.pdf",
    )
    assert notice["thumbnailUrl"] is None and data["thumbnailUrl"] is None
    assert (link["link"], link["fileUrl"], link["mediaType"]) == ("https://example.org/norme", None, None)
    assert youtube["link"] == VIDEO
    assert body["can"] == {"edit": True}


def test_accents_and_line_breaks_survive_the_headers(client, editor, subject):
    name, comment = "Schéma de câblage — été", "Première ligne\nDeuxième « ligne »"
    response = add(client, editor, subject, "file", name, "câblage été.txt", b"contenu", comment=comment)
    assert response.status_code == 200, response.text
    assert (response.json()["name"], response.json()["comment"]) == (name, comment)
    assert response.json()["link"] == "câblage été.txt"


@pytest.mark.parametrize(
    "name, link, errors",
    [
        ("", "https://a.b", {("name", "emptyFieldError")}),
        ("  ", "https://a.b", {("name", "emptyFieldError")}),
        (" Norme", "https://a.b", {("name", "beginEndWhitespaceError")}),
        ("Norme", "", {("link", "emptyFieldError")}),
        ("Norme", "https://a.b ", {("link", "beginEndWhitespaceError")}),
        ("No\x07rme", "https://a.b", {("name", "invalidCharacter")}),
    ],
)
def test_name_and_link_follow_the_general_text_rule(client, editor, subject, name, link, errors):
    response = add(client, editor, subject, "link", name, link)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == errors


def test_headers_left_out_are_empty_fields(client, editor, subject):
    response = client.post(gallery_url(*subject), headers={**editor, "resourceType": "link"})
    assert field_codes(response) == {("name", "emptyFieldError"), ("link", "emptyFieldError")}
    no_type = client.post(gallery_url(*subject), headers={**editor, "name": "a", "link": "https://a.b"})
    assert field_codes(no_type) == {("resourceType", "emptyFieldError")}
    bad_type = client.post(gallery_url(*subject), headers={**editor, "resourceType": "video"})
    assert_error(bad_type, 422)


@pytest.mark.parametrize("link", ["ftp://example.org", "www.example.org", "example", "javascript:alert(1)"])
def test_a_link_starts_with_http_or_https(client, editor, subject, link):
    response = add(client, editor, subject, "link", "Lien", link)
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("link", "urlMustBeginBy")}


@pytest.mark.parametrize(
    "address, video",
    [
        (f"https://www.youtube.com/watch?v={VIDEO}", VIDEO),
        (f"https://youtube.com/watch?feature=share&v={VIDEO}&t=42", VIDEO),
        (f"http://m.youtube.com/watch?v={VIDEO}", VIDEO),
        (f"https://www.youtube.com/embed/{VIDEO}", VIDEO),
        (f"https://www.youtube-nocookie.com/embed/{VIDEO}?start=3", VIDEO),
        (f"https://www.youtube.com/shorts/{VIDEO}", VIDEO),
        (f"https://youtu.be/{VIDEO}?si=abc", VIDEO),
        ("https://youtu.be/abc-DEF_12", "abc-DEF_12"),
        ("https://youtu.be/a1b2c3d4e5f6g7h8i9j0", "a1b2c3d4e5f6g7h8i9j0"),
    ],
)
def test_each_youtube_form_keeps_the_video_id(client, editor, subject, address, video):
    response = add(client, editor, subject, "youtube", "Vidéo", address)
    assert response.status_code == 200, response.text
    assert response.json()["link"] == video


@pytest.mark.parametrize(
    "address",
    [
        "https://youtu.be/short1234",  # 9 characters
        "https://youtu.be/a1b2c3d4e5f6g7h8i9j0k",  # 21 characters
        f"https://vimeo.com/watch?v={VIDEO}",
        f"https://www.youtube.com/playlist?list={VIDEO}",
        f"youtube.com/watch?v={VIDEO}",
        "https://youtu.be/dQw4w9WgXc%",
        VIDEO,
    ],
)
def test_a_bad_youtube_address_is_refused(client, editor, subject, address):
    response = add(client, editor, subject, "youtube", "Vidéo", address)
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("link", "notValidYoutubeUrl")}


@pytest.mark.parametrize("resource_type", ["image", "pdf", "file"])
def test_a_file_is_required_on_add(client, editor, subject, resource_type):
    response = add(client, editor, subject, resource_type, "Sans fichier", "rien.bin")
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("file", "emptyFieldError")}


@pytest.mark.parametrize(
    "resource_type, link, body",
    [
        ("pdf", "plan.pdf", image()),  # a PNG named .pdf
        ("pdf", "notice.pdf", b"%PD not quite a pdf"),
        ("image", "notice.png", PDF),
        ("image", "photo.gif", b"GIF89a" + bytes(100)),
        ("image", "texte.jpg", b"just some text"),
        ("image", "broken.png", image()[:60]),  # a PNG's signature, then nothing readable
    ],
)
def test_images_and_pdfs_are_judged_by_their_bytes(
    new_files, client, editor, subject, resource_type, link, body
):
    response = add(client, editor, subject, resource_type, "Fichier", link, body)
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("file", "badFileFormat")}
    assert names(client, editor, subject) == []
    assert new_files() == set()


def test_a_file_of_any_kind_is_served_as_an_attachment(client, editor, subject):
    content = b"<html><script>alert(1)</script></html>"
    resource = add(client, editor, subject, "file", "Page", "pièce «jointe».html", content).json()
    response = client.get(resource["fileUrl"], headers=editor)
    assert response.status_code == 200
    assert response.content == content
    assert response.headers["content-type"] == "application/octet-stream"
    assert response.headers["x-content-type-options"] == "nosniff"
    disposition = response.headers["content-disposition"]
    assert disposition.startswith("attachment; ")
    assert "filename*=UTF-8''pi%C3%A8ce%20%C2%ABjointe%C2%BB.html" in disposition
    assert 'filename="pi_ce _jointe_.html"' in disposition


def test_a_file_name_cannot_break_out_of_the_header(client, editor, subject):
    resource = add(client, editor, subject, "pdf", "Notice", 'a"; filename=evil.exe;\\..\\x.pdf', PDF).json()
    disposition = client.get(resource["fileUrl"], headers=editor).headers["content-disposition"]
    plain = disposition.split('filename="')[1].split('"')[0]
    assert '"' not in plain and "\\" not in plain and ";" not in plain
    assert disposition.count("filename=") == 1 and disposition.count("filename*=") == 1


# Size -----------------------------------------------------------------------------------------

LIMIT = 30_000_000


def test_a_file_of_30_000_000_bytes_is_accepted(new_files, client, editor, subject):
    response = add(client, editor, subject, "file", "Gros", "gros.bin", bytes(LIMIT))
    assert response.status_code == 200, response.text
    assert response.json()["size"] == LIMIT
    assert len(new_files()) == 1


def test_one_byte_more_is_refused_and_nothing_is_kept(new_files, client, editor, subject):
    response = add(client, editor, subject, "file", "Trop gros", "gros.bin", bytes(LIMIT + 1))
    assert_error(response, 413, "fileTooBig")
    assert field_codes(response) == {("file", "fileTooBig")}
    assert names(client, editor, subject) == []
    assert new_files() == set()


def test_the_body_is_refused_as_soon_as_it_passes_the_limit(new_files, app, editor, subject):
    chunk = bytes(1 << 20)
    headers = {**editor, "resourceType": "file", "name": "Flux", "link": "flux.bin"}
    status, body, read = post_in_chunks(app, gallery_url(*subject), headers, [chunk] * 40)
    assert status == 413 and b"fileTooBig" in body
    # The 29th megabyte passes 30,000,000 bytes: the rest is never read.
    assert read == 29
    assert new_files() == set()


def test_a_declared_length_over_the_limit_is_refused_before_reading(new_files, app, editor, subject):
    headers = {
        **editor,
        "resourceType": "file",
        "name": "Flux",
        "link": "flux.bin",
        "content-length": str(LIMIT + 1),
    }
    status, body, read = post_in_chunks(app, gallery_url(*subject), headers, [bytes(10)])
    assert (status, read) == (413, 0)
    assert new_files() == set()


def test_bad_metadata_is_refused_before_reading_the_body(app, editor, subject):
    headers = {**editor, "resourceType": "link", "name": "Lien", "link": "ftp://example.org"}
    status, _body, read = post_in_chunks(app, gallery_url(*subject), headers, [bytes(10)] * 3)
    assert (status, read) == (400, 0)


# Thumbnails and serving -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "width, height, fmt, mode, expected",
    [
        (800, 300, "PNG", "RGB", (160, 60)),
        (300, 900, "JPEG", "RGB", (33, 100)),
        (1600, 1000, "JPEG", "RGB", (160, 100)),
        (400, 400, "PNG", "RGBA", (100, 100)),
        (80, 40, "PNG", "RGB", (80, 40)),
    ],
)
def test_images_get_a_thumbnail_within_160_by_100(
    client, editor, subject, width, height, fmt, mode, expected
):
    resource = add(client, editor, subject, "image", "Photo", "photo", image(width, height, fmt, mode)).json()
    response = client.get(resource["thumbnailUrl"], headers=editor)
    assert response.status_code == 200
    thumbnail = Image.open(io.BytesIO(response.content))
    assert thumbnail.size == expected
    assert thumbnail.format == ("PNG" if mode == "RGBA" else "JPEG")
    assert response.headers["content-type"] == f"image/{thumbnail.format.lower()}"
    assert response.headers["content-disposition"].startswith("inline; ")
    assert response.headers["x-content-type-options"] == "nosniff"


def test_files_are_served_inline_with_caching_headers(client, editor, subject):
    photo = image(640, 480, "JPEG")
    resource = add(client, editor, subject, "image", "Photo", "photo d'été.jpg", photo).json()
    response = client.get(resource["fileUrl"], headers=editor)
    assert response.content == photo
    assert response.headers["content-type"] == "image/jpeg"
    assert response.headers["content-length"] == str(len(photo))
    assert response.headers["content-disposition"].startswith("inline; ")
    assert response.headers["cache-control"] == "private, max-age=31536000, immutable"
    etag = response.headers["etag"]
    again = client.get(resource["fileUrl"], headers={**editor, "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    bare = client.get(resource["fileUrl"].split("?")[0], headers=editor)
    assert bare.content == photo and bare.headers["cache-control"] == "private, no-cache"
    pdf = add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF).json()
    served = client.get(pdf["fileUrl"], headers=editor)
    assert served.headers["content-type"] == "application/pdf"
    assert served.headers["content-disposition"].startswith("inline; ")


def test_links_and_videos_have_no_file(client, editor, subject):
    link = add(client, editor, subject, "link", "Lien", "https://example.org").json()
    url = gallery_url(*subject) + f"/{link['id']}"
    assert_error(client.get(f"{url}/file", headers=editor), 404, "fileNotFound")
    assert_error(client.get(f"{url}/thumbnail", headers=editor), 404, "thumbnailNotFound")


# Update ---------------------------------------------------------------------------------------


def update(client, headers, resource, **fields):
    body = {"name": resource["name"], "link": resource["link"], "comment": resource["comment"]}
    body |= {"version": resource["version"], **fields}
    url = gallery_url(resource["parentType"], resource["parentId"]) + f"/{resource['id']}/update"
    return client.post(url, json=body, headers=headers)


def test_update_changes_name_link_and_comment(client, editor, subject):
    resource = add(client, editor, subject, "link", "Lien", "https://example.org").json()
    response = update(client, editor, resource, name="Référence", link="http://example.org/réf", comment="vu")
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["name"], body["link"], body["comment"]) == ("Référence", "http://example.org/réf", "vu")
    assert body["version"] == resource["version"] + 1
    assert_error(update(client, editor, resource, name="Autre"), 409, "staleVersion")
    assert field_codes(update(client, editor, body, link="example.org")) == {("link", "urlMustBeginBy")}
    assert field_codes(update(client, editor, body, name=" x")) == {("name", "beginEndWhitespaceError")}


def test_the_specs_update_payload_without_a_version_applies(client, editor, subject):
    resource = add(client, editor, subject, "link", "Lien", "https://example.org").json()
    assert update(client, editor, resource, name="Premier").status_code == 200
    url = gallery_url(*subject) + f"/{resource['id']}/update"
    spec_payload = {"name": "Second", "link": "https://example.org", "comment": ""}
    response = client.post(url, json=spec_payload, headers=editor)
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Second"
    assert response.json()["version"] == resource["version"] + 2


def test_a_video_keeps_its_id_on_update(client, editor, subject):
    resource = add(client, editor, subject, "youtube", "Vidéo", f"https://youtu.be/{VIDEO}").json()
    body = update(client, editor, resource, link="https://www.youtube.com/shorts/abcdefghij").json()
    assert body["link"] == "abcdefghij"
    assert field_codes(update(client, editor, body, link=VIDEO)) == {("link", "notValidYoutubeUrl")}


def test_the_type_cannot_change_on_edit(client, editor, subject):
    resource = add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF).json()
    response = update(client, editor, resource, resourceType="link", link="https://example.org")
    assert_error(response, 400, "atLeastOneErrorLeft")
    assert field_codes(response) == {("resourceType", "resourceTypeCannotChange")}
    same = update(client, editor, resource, resourceType="pdf", name="Notice v2")
    assert same.status_code == 200
    assert same.json()["resourceType"] == "pdf" and same.json()["fileUrl"] == resource["fileUrl"]


# Reorder and delete -----------------------------------------------------------------------------


def test_reorder(client, test_map, editor, subject):
    ids = [add(client, editor, subject, "link", name, "https://example.org").json()["id"] for name in "ABC"]
    response = client.post(gallery_url(*subject) + "/reorder", json=[ids[2], ids[0], ids[1]], headers=editor)
    assert response.status_code == 200, response.text
    assert [r["name"] for r in response.json()["resources"]] == ["C", "A", "B"]
    assert [r["ordering"] for r in response.json()["resources"]] == [0, 1, 2]
    assert names(client, editor, subject) == ["C", "A", "B"]
    elsewhere = add(client, editor, ("subject", test_map.subject("S2")), "link", "D", "https://a.b").json()[
        "id"
    ]
    for wrong in ([ids[0], ids[1]], [*ids, elsewhere], [ids[0], ids[0], ids[1], ids[2]], [*ids, 987654], []):
        refused = client.post(gallery_url(*subject) + "/reorder", json=wrong, headers=editor)
        assert_error(refused, 400, "atLeastOneErrorLeft")
        assert field_codes(refused) == {("resourceIds", "invalidValue")}
    assert names(client, editor, subject) == ["C", "A", "B"]


def test_delete_removes_the_resource_and_its_files(new_files, client, editor, subject):
    resource = add(client, editor, subject, "image", "Photo", "photo.png", image()).json()
    assert len(new_files()) == 2
    url = gallery_url(*subject) + f"/{resource['id']}"
    response = client.delete(url, headers=editor)
    assert response.status_code == 204 and response.content == b""
    assert names(client, editor, subject) == []
    assert new_files() == set()
    assert_error(client.delete(url, headers=editor), 404, "resourceNotFound")


def test_a_new_resource_comes_after_the_others_once_some_are_deleted(client, editor, subject):
    first = add(client, editor, subject, "link", "A", "https://a.b").json()
    add(client, editor, subject, "link", "B", "https://a.b")
    client.delete(gallery_url(*subject) + f"/{first['id']}", headers=editor)
    add(client, editor, subject, "link", "C", "https://a.b")
    assert names(client, editor, subject) == ["B", "C"]


def test_resources_go_with_their_parent(client, db, test_map, make_user, login, editor, subject):
    add(client, editor, subject, "link", "Lien", "https://a.b")
    function = ("function", test_map.function("G1"))
    add(client, editor, function, "link", "Lien", "https://a.b")
    cartography = ("cartography", test_map.cartography("C2"))
    add(client, editor, cartography, "link", "Lien", "https://a.b")
    assert client.delete(f"{API}/subject/{subject[1]}", headers=login(make_user(permissions=["perm_RemPdv"])))
    db.execute(delete(Cartography).where(Cartography.id == cartography[1]))
    db.commit()
    left = db.scalars(select(Resource.parent_type)).all()
    assert left == []


def test_changes_are_writes_of_the_parent_in_its_history(client, db, test_map, editor):
    function = ("function", test_map.function("F1"))
    resource = add(client, editor, function, "link", "Lien", "https://a.b").json()
    update(client, editor, resource, name="Lien 2")
    client.delete(gallery_url(*function) + f"/{resource['id']}", headers=editor)
    db.expire_all()
    entries = db.execute(
        select(HistoryEntry.mode, HistoryEntry.event, HistoryEntry.cartography_id)
        .where(HistoryEntry.item_type == "function", HistoryEntry.item_id == function[1])
        .order_by(HistoryEntry.id)
    ).all()
    cartography = test_map.cartography("C1")
    assert [tuple(e) for e in entries] == [
        ("W", "resourceCreated", cartography),
        ("W", "resourceUpdated", cartography),
        ("W", "resourceDeleted", cartography),
    ]


def test_a_failed_save_keeps_no_file(new_files, client, editor, subject, monkeypatch):
    from spot.resources import service

    def fail(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "_written", fail)
    with pytest.raises(RuntimeError):
        add(client, editor, subject, "image", "Photo", "photo.png", image())
    assert new_files() == set()


def test_header_values_are_uri_decoded_once(client, editor, subject):
    response = add(client, editor, subject, "link", "100%25 sûr", "https://example.org/?q=a%20b")
    assert response.json()["name"] == "100%25 sûr"
    assert response.json()["link"] == "https://example.org/?q=a%20b"
    raw = client.post(
        gallery_url(*subject),
        headers={**editor, "resourceType": "link", "name": quote("Été"), "link": "https://a.b"},
    )
    assert raw.json()["name"] == "Été"


def test_deleting_the_subject_removes_its_resources_files(new_files, client, make_user, login, subject):
    editor = login(make_user("remover", [EDIT, "perm_RemPdv"]))
    add(client, editor, subject, "image", "Photo", "photo.png", image())
    add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF)
    assert len(new_files()) == 3
    assert client.delete(f"{API}/subject/{subject[1]}", headers=editor).status_code in (200, 204)
    assert new_files() == set()
    assert_error(client.get(gallery_url(*subject), headers=editor), 404, "subjectNotFound")
