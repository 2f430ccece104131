"""Importing SCORM 1.2 and 2004 packages: the tree their default organization gives, what Spot keeps of each
item (SCO or asset, navigation, mastery, time limits), re-import, the hostile-archive rules and every way a
manifest is refused; the golf examples when their mirror is there."""

from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from lms.conformance import GOLF_12_SINGLE, GOLF_2004_MULTI, GOLF_2004_SINGLE, golf_zip, needs_golf
from lms.conftest import leaves
from lms.scorm_packages import MANIFEST_12, MANIFEST_2004, PAGE, imported, scorm12, scorm2004, upload, zip_of
from spot.cli import app as cli
from spot.lms.models import LmsCourse, LmsItem
from spot.lms.scorm import manifest
from spot.lms.scorm.models import ScormCourse, ScormItem
from support import API, field_codes

MANAGER = "perm_TrainingManagement"


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-manager", [MANAGER]))


def test_a_scorm_12_package_becomes_a_course_of_blocks_and_units(client, db, manager):
    tree = imported(client, manager, scorm12())
    assert tree["name"] == "Habilitation électrique"
    block, quiz = tree["children"]
    assert (block["type"], block["name"]) == ("group", "Les bases")
    assert [(c["name"], c["type"], c["masteryScore"]) for c in block["children"]] == [
        ("Lecture : le risque électrique", "resource", None),
        ("Fiche mémo", "resource", None),
    ]
    # A SCO with a mastery score is a quiz; an item without a resource has nothing to launch.
    assert (quiz["name"], quiz["type"], quiz["masteryScore"]) == ("Quiz habilitation", "quiz", 0.8)
    course = db.get(LmsCourse, tree["id"])
    assert course is not None and course.standard == "scorm12"
    assert db.get(ScormCourse, course.id).edition == "1.2"  # type: ignore[union-attr]
    items = {i.activity_id: i for i in db.scalars(select(LmsItem).where(LmsItem.course_id == course.id))}
    assert items["lecture"].url == "lecture/index.html?page=1"
    assert items["lecture"].launch_parameters == "niveau=1"
    assert (items["lecture"].move_on, items["fiche"].move_on, items["quiz"].move_on) == (
        "CompletedOrPassed",
        "Completed",
        "Passed",
    )
    details = {d.item_id: d for d in db.scalars(select(ScormItem))}
    assert details[items["lecture"].id].scorm_type == "sco"
    assert details[items["fiche"].id].scorm_type == "asset"
    quiz_details = details[items["quiz"].id]
    assert (quiz_details.max_time_allowed, quiz_details.time_limit_action) == ("00:30:00", "exit,message")
    # SCORM 1.2 leaves navigation to the LMS: choice and flow everywhere.
    assert (details[items["bloc_bases"].id].choice, details[items["bloc_bases"].id].flow) == (True, True)
    cards = client.get(f"{API}/lms/courses", headers=manager).json()
    card = next(c for c in cards if c["id"] == course.id)
    assert (card["resources"], card["quizzes"], card["standard"]) == (2, 1, "scorm12")


def test_a_scorm_2004_package_reads_its_default_organization_and_sequencing(client, db, manager):
    tree = imported(client, manager, scorm2004())
    assert tree["name"] == "Levage en sécurité"
    module, annex = tree["children"]
    assert [(c["name"], c["type"], c["masteryScore"]) for c in module["children"]] == [
        ("Introduction", "resource", None),
        ("Évaluation", "quiz", 0.7),
    ]
    assert (annex["name"], annex["type"]) == ("Annexe", "resource")
    course = db.get(LmsCourse, tree["id"])
    assert course is not None and course.standard == "scorm2004"
    top = db.get(ScormCourse, course.id)
    assert top is not None and (top.edition, top.choice, top.flow) == ("2004 4th Edition", True, True)
    items = {i.activity_id: i for i in db.scalars(select(LmsItem).where(LmsItem.course_id == course.id))}
    assert items["intro"].url == "contenu/intro.html" and items["intro"].launch_parameters == "chapitre=intro"
    assert items["evaluation"].url == "contenu/eval/index.html"
    assert items["annexe"].url == "contenu/annexe.pdf"
    cluster = db.get(ScormItem, items["module_1"].id)
    assert cluster is not None and (cluster.scorm_type, cluster.choice, cluster.flow) == ("", False, True)
    intro = db.get(ScormItem, items["intro"].id)
    assert intro is not None and intro.completion_threshold == 0.5
    evaluation = db.get(ScormItem, items["evaluation"].id)
    assert evaluation is not None and evaluation.max_time_allowed == "PT20M"
    assert "autre_item" not in items


def test_reimporting_the_same_package_updates_the_course(client, db, manager):
    first = upload(client, manager, scorm12()).json()
    before = leaves(client.get(f"{API}/lms/courses/{first['id']}", headers=manager).json())
    changed = MANIFEST_12.format(title="Habilitation électrique").replace("Quiz habilitation", "Quiz final")
    second = upload(client, manager, scorm12(changed)).json()
    assert (second["id"], second["created"], second["items"]) == (first["id"], False, 3)
    after = leaves(client.get(f"{API}/lms/courses/{first['id']}", headers=manager).json())
    assert after["Quiz final"]["id"] == before["Quiz habilitation"]["id"]
    # Another title is another course: authoring tools write fixed manifest identifiers.
    other = upload(client, manager, scorm12(title="Habilitation électrique BR")).json()
    assert other["created"] is True and other["id"] != first["id"]


def test_the_cli_imports_a_scorm_package(db, tmp_path: Path):
    path = tmp_path / "scorm.zip"
    path.write_bytes(scorm2004())
    result = CliRunner().invoke(cli, ["import-course", str(path)])
    assert result.exit_code == 0, result.output
    assert db.scalars(select(LmsCourse).where(LmsCourse.standard == "scorm2004")).first() is not None


def _replaced(old: str, new: str, base: str = MANIFEST_12) -> str:
    source = base.format(title="Habilitation électrique") if base is MANIFEST_12 else base
    assert old in source
    return source.replace(old, new)


ORG = "imsmanifest.xml:/manifest/organizations/organization[1]"


@pytest.mark.parametrize(
    ("manifest_text", "field", "code"),
    [
        (
            _replaced('identifierref="res_quiz"', 'identifierref="nulle_part"'),
            f"{ORG}/item[2]@identifierref",
            "notFound",
        ),
        (
            _replaced('href="quiz.html"', 'href="absente.html"'),
            "imsmanifest.xml:/manifest/resources/resource[3]@href",
            "notFound",
        ),
        (
            _replaced('href="quiz.html"', 'href="https://example.com/quiz.html"'),
            "imsmanifest.xml:/manifest/resources/resource[3]@href",
            "notFound",
        ),
        (
            _replaced('href="quiz.html"', 'href="../quiz.html"'),
            "imsmanifest.xml:/manifest/resources/resource[3]@href",
            "notFound",
        ),
        (
            _replaced('identifier="fiche"', 'identifier="lecture"'),
            f"{ORG}/item[1]/item[2]@identifier",
            "alreadyExists",
        ),
        (
            _replaced("<adlcp:masteryscore>80", "<adlcp:masteryscore>180"),
            f"{ORG}/item[2]/masteryscore",
            "valueMustBeBetween",
        ),
        (
            _replaced('adlcp:scormtype="asset"', 'adlcp:scormtype="page"'),
            "imsmanifest.xml:/manifest/resources/resource[2]@scormType",
            "invalidValue",
        ),
        (
            _replaced('identifier="fr.spot.tests.securite.12"', 'identifier=""'),
            "imsmanifest.xml:/manifest@identifier",
            "emptyFieldError",
        ),
        (
            _replaced("<organization identifier=", "<nothing identifier=").replace(
                "</organization>", "</nothing>"
            ),
            "imsmanifest.xml:/manifest/organizations/organization",
            "emptyFieldError",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE manifest [<!ENTITY a "aaaa">]>'
            '<manifest identifier="x">&a;</manifest>',
            "imsmanifest.xml",
            "notWellFormed",
        ),
        ("<manifest identifier='x'><organizations>", "imsmanifest.xml", "notWellFormed"),
        ("<cours identifier='x'/>", "imsmanifest.xml:/cours", "invalidValue"),
    ],
)
def test_a_faulty_manifest_is_refused_naming_the_element(client, manager, manifest_text, field, code):
    response = upload(client, manager, scorm12(manifest_text))
    assert response.status_code == 400, response.text
    assert response.json()["message"] == "invalidCoursePackage"
    assert field_codes(response) == {(field, code)}


def test_an_organization_of_empty_items_is_refused(client, manager):
    text = _replaced('identifierref="res_lecture"', "").replace('identifierref="res_fiche"', "")
    text = text.replace('identifierref="res_quiz"', "")
    response = upload(client, manager, scorm12(text))
    assert field_codes(response) == {(f"{ORG}/item", "emptyFieldError")}


def test_a_2004_objective_out_of_range_is_refused(client, manager):
    text = MANIFEST_2004.replace("<imsss:minNormalizedMeasure>0.7", "<imsss:minNormalizedMeasure>1.5")
    response = upload(client, manager, scorm2004(text))
    field = "imsmanifest.xml:/manifest/organizations/organization[2]/item[1]/item[2]"
    assert field_codes(response) == {
        (f"{field}/sequencing/objectives/primaryObjective/minNormalizedMeasure", "valueMustBeBetween")
    }


def test_a_scorm_package_follows_the_hostile_archive_rules(client, manager):
    response = upload(client, manager, scorm12(**{"../evil.html": PAGE}))
    assert field_codes(response) == {("../evil.html", "unsafeEntryName")}
    bomb = zip_of({"imsmanifest.xml": MANIFEST_12.format(title="x"), "zeros.bin": b"\0" * 2_000_000})
    assert field_codes(upload(client, manager, bomb)) == {("zeros.bin", "fileTooBig")}


def test_a_zip_with_neither_structure_names_cmi5_xml(client, manager):
    response = upload(client, manager, zip_of({"index.html": PAGE}))
    assert field_codes(response) == {("cmi5.xml, imsmanifest.xml", "notFound")}


@pytest.mark.parametrize(
    ("href", "parameters", "url"),
    [
        ("a.html", None, "a.html"),
        ("a.html", "?x=1", "a.html?x=1"),
        ("a.html", "&x=1", "a.html?x=1"),
        ("a.html?y=2", "?x=1", "a.html?y=2&x=1"),
        ("a.html", "x=1", "a.html?x=1"),
        ("a.html", "#part", "a.html#part"),
        ("a.html#top", "#part", "a.html#top"),
        ("a.html", "  ", "a.html"),
    ],
)
def test_item_parameters_join_the_href_as_content_packaging_says(href, parameters, url):
    assert manifest.with_parameters(href, parameters) == url


@needs_golf
def test_the_golf_scorm_12_single_sco_imports(client, db, manager, tmp_path):
    tree = imported(client, manager, golf_zip(GOLF_12_SINGLE, tmp_path).read_bytes())
    assert tree["name"] == "Golf Explained - Run-time Basic Calls"
    assert [(c["name"], c["type"]) for c in tree["children"]] == [("Golf Explained", "resource")]
    course = db.get(LmsCourse, tree["id"])
    assert course is not None and course.standard == "scorm12"


@needs_golf
def test_the_golf_scorm_2004_multi_sco_imports_as_four_blocks(client, db, manager, tmp_path):
    tree = imported(client, manager, golf_zip(GOLF_2004_MULTI, tmp_path).read_bytes())
    assert [b["name"] for b in tree["children"]] == [
        "Playing the Game",
        "Etiquette",
        "Handicapping",
        "Having Fun",
    ]
    assert sum(len(b["children"]) for b in tree["children"]) == 18
    units = {i.activity_id: i for i in db.scalars(select(LmsItem).where(LmsItem.course_id == tree["id"]))}
    assert units["playing_quiz_item"].url == "shared/assessmenttemplate.html?questions=Playing"
    assert db.get(ScormCourse, tree["id"]).edition == "2004 3rd Edition"  # type: ignore[union-attr]


@needs_golf
def test_the_golf_scorm_2004_single_sco_imports(client, manager, tmp_path):
    tree = imported(client, manager, golf_zip(GOLF_2004_SINGLE, tmp_path).read_bytes())
    assert len(leaves(tree)) == 1


@pytest.mark.parametrize(("length", "status"), [(495, 200), (496, 400)])
def test_identifiers_leave_room_for_an_items_own_unit(client, manager, length, status):
    identifier = "b" * length
    text = MANIFEST_12.format(title="Habilitation électrique").replace(
        '<item identifier="bloc_bases">', f'<item identifier="{identifier}" identifierref="res_fiche">'
    )
    response = upload(client, manager, scorm12(text))
    assert response.status_code == status, response.text
    if status == 400:
        assert field_codes(response) == {(f"{ORG}/item[1]@identifier", "invalidValue")}
