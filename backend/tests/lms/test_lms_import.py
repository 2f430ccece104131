"""Importing cmi5 course packages: the tree they give, re-import, and every way a package is refused."""

import io
import os
import zipfile
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from lms.conftest import COURSE_ID, au, course_package, langstring, leaves, structure, upload, zip_of
from spot.cli import app as cli
from spot.demo import lms as demo
from spot.lms import package
from spot.lms.models import LmsCourse, LmsItem
from support import API, assert_error, damaged_deflate_zip, field_codes


def test_blocks_become_groups_and_units_resources_or_quizzes(client, manager):
    response = upload(client, manager, course_package())
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["created"] is True and result["title"] == "Cours de test" and result["items"] == 3
    tree = client.get(f"{API}/lms/courses/{result['id']}", headers=manager).json()
    assert tree["id"] == result["id"] and tree["type"] == "group" and tree["name"] == "Cours de test"
    assert tree["description"] == "Un cours"
    block, exam = tree["children"]
    assert block["type"] == "group" and block["name"] == "Bloc 1"
    assert [(c["name"], c["type"], c["masteryScore"]) for c in block["children"]] == [
        ("Lecture", "resource", None),
        ("Quiz", "quiz", 0.8),
    ]
    # moveOn Passed makes a unit assessed even without a mastery score.
    assert (exam["name"], exam["type"], exam["masteryScore"]) == ("Examen", "quiz", None)
    courses = client.get(f"{API}/lms/courses", headers=manager).json()
    assert [(c["id"], c["title"], c["resources"], c["quizzes"]) for c in courses] == [
        (result["id"], "Cours de test", 1, 2)
    ]
    assert courses[0]["importedAt"].endswith("Z")


@pytest.mark.parametrize("move_on", ["CompletedAndPassed", "Passed"])
def test_units_needing_passed_are_quizzes(client, manager, move_on):
    data = course_package(au("u", "Unité", attributes=f'moveOn="{move_on}"'))
    course_id = upload(client, manager, data).json()["id"]
    assert (
        leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Unité"]["type"]
        == "quiz"
    )


@pytest.mark.parametrize("move_on", ["Completed", "CompletedOrPassed", "NotApplicable"])
def test_units_not_assessed_are_resources(client, manager, move_on):
    """A unit a learner may satisfy by reading it through (CompletedOrPassed: the CATAPULT examples' pages)
    is a reading; with a masteryScore it is a quiz whatever its moveOn."""
    data = course_package(au("u", "Unité", attributes=f'moveOn="{move_on}"'))
    course_id = upload(client, manager, data).json()["id"]
    assert (
        leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Unité"]["type"]
        == "resource"
    )


def test_reimport_updates_matched_items_and_marks_vanished_ones_removed(client, db, manager):
    first = upload(client, manager, course_package()).json()
    tree = client.get(f"{API}/lms/courses/{first['id']}", headers=manager).json()
    before = leaves(tree)
    changed = course_package(
        au("quiz", "Quiz renommé", attributes='masteryScore="0.5"') + au("nouveau", "Nouvelle lecture")
    )
    second = upload(client, manager, changed).json()
    assert second["id"] == first["id"] and second["created"] is False and second["items"] == 2
    after = leaves(client.get(f"{API}/lms/courses/{first['id']}", headers=manager).json())
    assert set(after) == {"Quiz renommé", "Nouvelle lecture"}
    assert after["Quiz renommé"]["id"] == before["Quiz"]["id"]
    assert after["Quiz renommé"]["masteryScore"] == 0.5
    removed = {item.name for item in db.scalars(select(LmsItem).where(LmsItem.removed_at.is_not(None)))}
    assert removed == {"Bloc 1", "Lecture", "Examen"}
    names = client.post(
        f"{API}/lms/items/names", json=[before["Lecture"]["id"], before["Quiz"]["id"]], headers=manager
    ).json()
    assert [n["id"] for n in names] == [before["Quiz"]["id"]]
    # Coming back in a later package brings a removed item back, with its id.
    upload(client, manager, course_package())
    again = leaves(client.get(f"{API}/lms/courses/{first['id']}", headers=manager).json())
    assert again["Lecture"]["id"] == before["Lecture"]["id"]
    assert len(db.scalars(select(LmsCourse)).all()) == 1


def test_reimport_replaces_the_stored_package(client, db, manager):
    upload(client, manager, course_package())
    key = db.scalar(select(LmsCourse.content_key))
    upload(client, manager, course_package())
    db.expire_all()
    assert db.scalar(select(LmsCourse.content_key)) != key


def test_reimport_brings_a_removed_course_back(client, manager):
    course_id = upload(client, manager, course_package()).json()["id"]
    assert client.delete(f"{API}/lms/courses/{course_id}", headers=manager).status_code == 204
    assert upload(client, manager, course_package()).json()["id"] == course_id
    assert client.get(f"{API}/lms/courses/{course_id}", headers=manager).status_code == 200


def _zip_with_names(*names: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("cmi5.xml", structure(au("a", "A")))
        archive.writestr("index.html", "x")
        for name in names:
            archive.writestr(zipfile.ZipInfo(name), "x")
    return buffer.getvalue()


@pytest.mark.parametrize(
    "name",
    ["../evil.html", "content/../../evil.html", "/etc/passwd", "C:/evil.html", "a\\..\\b.html", "a/./b"],
)
def test_entries_outside_the_package_folder_are_refused(client, manager, name):
    response = upload(client, manager, _zip_with_names(name))
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {(name, "unsafeEntryName")}


def test_an_entry_name_with_nul_is_refused(client, manager):
    # zipfile writes a name cut at its NUL: the name is put in the archive's bytes afterwards.
    data = _zip_with_names("evil.htmlXpayload.html").replace(
        b"evil.htmlXpayload.html", b"evil.html\x00payload.html"
    )
    response = upload(client, manager, data)
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("evil.html\x00payload.html", "unsafeEntryName")}


def test_safe_names():
    assert package.safe_name("a/b/c.html") and package.safe_name("dir/")
    for name in ("", "..", "a/../b", "/a", "a//b", "a\x00b", "c:x", "./a"):
        assert not package.safe_name(name), name


def test_a_body_over_the_limit_is_413(client, manager, settings_env):
    settings_env(SPOT_COURSE_MAX_BYTES="5000")
    response = upload(client, manager, b"0" * 5001)
    assert_error(response, 413, "fileTooBig")


def test_the_limit_is_500_megabytes_by_default_and_the_entry_bounds_scale_with_it(settings_env):
    assert package.max_package_bytes() == 500_000_000
    settings_env(SPOT_COURSE_MAX_BYTES="1000000")
    assert (package.max_entry_bytes(), package.max_total_bytes()) == (2_000_000, 4_000_000)


def test_a_package_over_the_former_30_mb_is_imported_as_it_streams_in_and_served_in_pieces(
    client, manager, launch
):
    """A 31 MB package (a video that barely compresses): received in pieces into a file, read there and
    moved into the store; the video is served back as it is read from the package, in pieces."""
    video = os.urandom(31_000_000)
    data = zip_of(
        {"cmi5.xml": structure(au("a", "A", url="index.html")), "index.html": "x", "film.mp4": video}
    )
    response = upload(client, manager, data)
    assert response.status_code == 200, response.text
    assert response.json()["items"] == 1
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    page = urlsplit(launch(manager, leaves(tree)["A"]["id"]).url).path
    film = page.removesuffix("index.html") + "film.mp4"
    with client.stream("GET", film) as served:
        assert served.status_code == 200
        assert served.headers["content-type"] == "video/mp4"
        assert "content-length" not in served.headers  # sent as read, in chunks
        pieces = list(served.iter_raw())
    assert b"".join(pieces) == video
    assert client.get(page.removesuffix("index.html") + "missing.mp4").status_code == 404


def test_a_zip_bomb_is_refused(client, manager):
    bomb = zip_of({"cmi5.xml": structure(au("a", "A")), "index.html": "x", "zeros.bin": b"\0" * 5_000_000})
    response = upload(client, manager, bomb)
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("zeros.bin", "fileTooBig")}


def test_the_uncompressed_total_is_bounded(client, manager, settings_env):
    settings_env(SPOT_COURSE_MAX_BYTES="2000")  # entries up to 4,000 bytes, 8,000 in all
    texts = {f"big{n}.txt": "abcdefghij" * 300 for n in (1, 2, 3)}
    data = zip_of({"cmi5.xml": structure(au("a", "A")), "index.html": "x", **texts})
    response = upload(client, manager, data)
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("big3.txt", "fileTooBig")}


def test_the_number_of_entries_is_bounded(client, manager, monkeypatch):
    monkeypatch.setattr(package, "MAX_ENTRIES", 3)
    data = zip_of({"cmi5.xml": structure(au("a", "A")), "index.html": "x", "a": "1", "b": "2"})
    assert field_codes(upload(client, manager, data)) == {("package", "tooManyEntries")}


def test_not_a_zip_is_refused(client, manager):
    response = upload(client, manager, b"PK not really a zip")
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("package", "notAZipFile")}


def test_a_corrupt_entry_is_refused(client, manager):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("cmi5.xml", structure(au("a", "A")))
        archive.writestr("index.html", "<html lang='fr'>contenu</html>")
    data = buffer.getvalue().replace(b"contenu", b"CONTENU")  # the CRC no longer matches
    response = upload(client, manager, data)
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("index.html", "unreadableEntry")}


def test_a_damaged_compressed_entry_is_refused(client, manager):
    page = b"<html lang='fr'>" + b"contenu " * 2000 + b"</html>"
    files = {"cmi5.xml": structure(au("a", "A")).encode(), "index.html": page}
    response = upload(client, manager, damaged_deflate_zip(files, "index.html"))
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {("index.html", "unreadableEntry")}


S = "cmi5.xml:/courseStructure"
MALFORMED = {
    "no cmi5.xml": ({"index.html": "x"}, ("cmi5.xml, imsmanifest.xml", "notFound")),
    "not well formed": ({"cmi5.xml": "<courseStructure><course>"}, ("cmi5.xml", "notWellFormed")),
    "entity expansion": (
        {
            "cmi5.xml": '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "bb">]>'
            "<courseStructure>&b;</courseStructure>"
        },
        ("cmi5.xml", "notWellFormed"),
    ),
    "external entity": (
        {
            "cmi5.xml": '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            "<courseStructure>&x;</courseStructure>"
        },
        ("cmi5.xml", "notWellFormed"),
    ),
    "another root": ({"cmi5.xml": "<manifest/>"}, ("cmi5.xml:/manifest", "invalidValue")),
    "no course": (
        {"cmi5.xml": f'<courseStructure xmlns="{package.NAMESPACE}"/>'},
        (f"{S}/course", "emptyFieldError"),
    ),
    "course without title": (
        {"cmi5.xml": structure(au("a", "A")).replace(langstring("title", "Cours de test"), "")},
        (f"{S}/course/title", "emptyFieldError"),
    ),
    "course without id": (
        {"cmi5.xml": structure(au("a", "A")).replace(f'<course id="{COURSE_ID}">', "<course>")},
        (f"{S}/course@id", "emptyFieldError"),
    ),
    "no unit": ({"cmi5.xml": structure("")}, (f"{S}/au", "emptyFieldError")),
    "unit without url": (
        {"cmi5.xml": structure(au("a", "A").replace("<url>index.html</url>", ""))},
        (f"{S}/au[1]/url", "emptyFieldError"),
    ),
    "url of a missing file": (
        {"cmi5.xml": structure(au("a", "A", url="absent.html"))},
        (f"{S}/au[1]/url", "notFound"),
    ),
    "url escaping the package": (
        {"cmi5.xml": structure(au("a", "A", url="../index.html"))},
        (f"{S}/au[1]/url", "notFound"),
    ),
    "url of another scheme": (
        {"cmi5.xml": structure(au("a", "A", url="javascript:alert(1)"))},
        (f"{S}/au[1]/url", "notFound"),
    ),
    "mastery score out of range": (
        {"cmi5.xml": structure(au("a", "A", attributes='masteryScore="1.5"'))},
        (f"{S}/au[1]@masteryScore", "valueMustBeBetween"),
    ),
    "mastery score not a number": (
        {"cmi5.xml": structure(au("a", "A", attributes='masteryScore="high"'))},
        (f"{S}/au[1]@masteryScore", "valueMustBeBetween"),
    ),
    "unknown moveOn": (
        {"cmi5.xml": structure(au("a", "A", attributes='moveOn="Sometimes"'))},
        (f"{S}/au[1]@moveOn", "invalidValue"),
    ),
    "unknown launchMethod": (
        {"cmi5.xml": structure(au("a", "A", attributes='launchMethod="Popup"'))},
        (f"{S}/au[1]@launchMethod", "invalidValue"),
    ),
    "duplicate ids": (
        {"cmi5.xml": structure(au("a", "A") + au("a", "B"))},
        (f"{S}/au[2]@id", "alreadyExists"),
    ),
    "id not an IRI": (
        {"cmi5.xml": structure(au("a", "A").replace(f'id="{COURSE_ID}/a"', 'id="not an iri"'))},
        (f"{S}/au[1]@id", "invalidValue"),
    ),
    "block without title": (
        {"cmi5.xml": structure(f'<block id="{COURSE_ID}/b">{au("a", "A")}</block>')},
        (f"{S}/block[1]/title", "emptyFieldError"),
    ),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_packages_are_refused_naming_the_faulty_element(client, db, manager, case):
    entries, expected = MALFORMED[case]
    response = upload(client, manager, zip_of({"index.html": "<html></html>", **entries}))
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {expected}
    assert db.scalars(select(LmsCourse)).all() == []


def test_an_absolute_unit_address_is_kept_and_launched_as_is(client, manager, make_user, login):
    data = course_package(au("web", "Web", url="https://elearning.example.com/start.html?lang=fr"))
    course_id = upload(client, manager, data).json()["id"]
    unit = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Web"]
    url = client.post(f"{API}/lms/items/{unit['id']}/launch", headers=manager).json()["url"]
    assert url.startswith("https://elearning.example.com/start.html?lang=fr&endpoint=")


def test_launch_parameters_reach_launch_data(client, manager, launch):
    unit = au("p", "Paramétrée").replace("</url>", "</url><launchParameters>mode=court</launchParameters>")
    course_id = upload(client, manager, course_package(unit)).json()["id"]
    item = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Paramétrée"]
    runtime = launch(manager, item["id"]).start()
    assert runtime.launch_data["launchParameters"] == "mode=court"
    assert "masteryScore" not in runtime.launch_data


def test_the_cli_imports_and_refuses(tmp_path, db):
    good = tmp_path / "course.zip"
    good.write_bytes(demo.package())
    runner = CliRunner()
    result = runner.invoke(cli, ["import-course", str(good)])
    assert result.exit_code == 0, result.output
    assert "created course" in result.output and "2 units" in result.output
    result = runner.invoke(cli, ["import-course", str(good)])
    assert result.exit_code == 0 and "updated course" in result.output
    bad = tmp_path / "bad.zip"
    bad.write_bytes(_zip_with_names("../x"))
    result = runner.invoke(cli, ["import-course", str(bad)])
    assert result.exit_code == 2
    assert "invalidCoursePackage" in result.output and "../x: unsafeEntryName" in result.output
    assert len(db.scalars(select(LmsCourse)).all()) == 1


def test_the_demo_seed_imports_the_courses_once(demo_org, db):
    demo.seed(db)
    db.commit()
    courses = {course.activity_id: course for course in db.scalars(select(LmsCourse))}
    assert set(courses) == {demo.COURSE_ACTIVITY_ID, demo.SCORM_ACTIVITY_ID}
    cmi5, scorm = courses[demo.COURSE_ACTIVITY_ID], courses[demo.SCORM_ACTIVITY_ID]
    assert (cmi5.standard, cmi5.lang, cmi5.version) == ("cmi5", "fr-FR", 1)
    assert (scorm.standard, scorm.title, scorm.version) == (
        "scorm12",
        "Les équipements de protection individuelle",
        1,
    )
    resource, quiz = demo.item_id(db, demo.RESOURCE_ACTIVITY_ID), demo.item_id(db, demo.QUIZ_ACTIVITY_ID)
    reading = demo.item_id(db, demo.SCORM_READING_ID, demo.SCORM_ACTIVITY_ID)
    scorm_quiz = demo.item_id(db, demo.SCORM_QUIZ_ID, demo.SCORM_ACTIVITY_ID)
    items = {item.id: item for item in db.scalars(select(LmsItem))}
    assert items[resource].kind == "resource" and items[quiz].kind == "quiz"
    assert (items[reading].kind, items[scorm_quiz].kind, items[scorm_quiz].mastery_score) == (
        "resource",
        "quiz",
        0.75,
    )
    assert demo.package() == demo.package() and demo.scorm_package() == demo.scorm_package()


def test_the_demo_seed_imports_the_course_again_when_its_files_changed(demo_org, db, monkeypatch):
    quiz = demo.item_id(db, demo.QUIZ_ACTIVITY_ID)
    changed = zip_of(
        {"cmi5.xml": (demo.COURSE_FOLDER / "cmi5.xml").read_text(), "bases.html": "x", "quiz.html": "y"}
    )
    monkeypatch.setattr(demo, "package", lambda: changed)
    demo.seed(db)
    db.commit()
    versions = {course.activity_id: course.version for course in db.scalars(select(LmsCourse))}
    assert versions == {demo.COURSE_ACTIVITY_ID: 2, demo.SCORM_ACTIVITY_ID: 1}
    assert demo.item_id(db, demo.QUIZ_ACTIVITY_ID) == quiz


@pytest.mark.parametrize("written", ["mon cours/départ.html", "mon%20cours/d%C3%A9part.html"])
def test_unit_addresses_with_spaces_and_accents(client, manager, launch, written):
    data = zip_of(
        {"cmi5.xml": structure(au("a", "Accents", url=written)), "mon cours/départ.html": "<p>ok</p>"}
    )
    course_id = upload(client, manager, data).json()["id"]
    unit = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Accents"]
    runtime = launch(manager, unit["id"])
    path = urlsplit(runtime.url).path
    assert path.endswith("/mon%20cours/d%C3%A9part.html")
    assert client.get(path).text == "<p>ok</p>"
