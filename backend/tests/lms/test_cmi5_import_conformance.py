"""Import as the cmi5 LMS test suite checks it (CATAPULT lts/procedure.md, "Package Import Verification"):
a standalone cmi5.xml (no zip, its units elsewhere) is a course; the course structure schema's order,
objectives and identifiers, and unit addresses that are URIs without launch parameters of their own.
Spot's own packages always run; the suite's packages are read from the CATAPULT mirror when it is there."""

import io
import zipfile

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from lms.conformance import catapult_course, catapult_file, catapult_zip, needs_catapult
from lms.conftest import COURSE_ID, MANAGER, au, import_course, langstring, leaves, structure, zip_of
from spot.cli import app as cli
from spot.lms.models import LmsCourse, LmsSatisfaction
from support import API, assert_error, field_codes

WHERE = "cmi5.xml:/courseStructure"


def post(client, headers, data: bytes, content_type: str):
    return import_course(client, headers, data, content_type)


def refused(response, field: str, code: str) -> None:
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {(field, code)}, response.text


@pytest.fixture
def manager(make_user, login):
    return login(make_user("gestionnaire", [MANAGER]))


# A standalone cmi5.xml ------------------------------------------------------------------------------


def web_unit(ident: str = "web", url: str = "https://elearning.example.com/start.html?lang=fr") -> str:
    return au(ident, "Sur le web", url=url)


@pytest.mark.parametrize("content_type", ["application/xml", "text/xml", "application/zip"])
def test_a_standalone_cmi5_xml_is_a_course(client, manager, content_type):
    xml = structure(web_unit())
    response = post(client, manager, ("\ufeff" + xml).encode(), content_type)
    assert response.status_code == 200, response.text
    assert response.json()["items"] == 1
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    unit = leaves(tree)["Sur le web"]
    url = client.post(f"{API}/lms/items/{unit['id']}/launch", headers=manager).json()["url"]
    assert url.startswith("https://elearning.example.com/start.html?lang=fr&endpoint=")


def test_a_standalone_cmi5_xml_with_a_relative_url_is_refused(client, manager):
    xml = structure(web_unit() + au("local", "Locale", url="index.html"))
    refused(post(client, manager, xml.encode(), "application/xml"), f"{WHERE}/au[2]/url", "notFound")


def test_the_cli_imports_a_standalone_cmi5_xml(tmp_path, db):
    path = tmp_path / "cmi5.xml"
    path.write_text(structure(web_unit()), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import-course", str(path)])
    assert result.exit_code == 0, result.output
    assert "created course" in result.output and "1 units" in result.output
    assert db.scalars(select(LmsCourse.activity_id)).all() == [COURSE_ID]
    path.write_text(structure(au("local", "Locale", url="index.html")), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import-course", str(path)])
    assert result.exit_code == 2 and "au[1]/url: notFound" in result.output


def test_neither_zip_nor_xml_is_refused(client, manager):
    refused(post(client, manager, b"# Not a package\n", "text/markdown"), "package", "notAZipFile")


# The course structure schema --------------------------------------------------------------------------


def texts(title: str) -> str:
    return langstring("title", title) + langstring("description", "")


@pytest.mark.parametrize(
    ("members", "field"),
    [
        # The url before the title (LTS 207-1).
        (
            f'<au id="{COURSE_ID}/a"><url>https://example.com/a</url>{texts("A")}</au>',
            f"{WHERE}/au[1]/title",
        ),
        # launchParameters before the url.
        (
            f'<au id="{COURSE_ID}/a">{texts("A")}<launchParameters>x</launchParameters>'
            "<url>https://example.com/a</url></au>",
            f"{WHERE}/au[1]/url",
        ),
        # Two urls.
        (
            f'<au id="{COURSE_ID}/a">{texts("A")}<url>https://example.com/a</url>'
            "<url>https://example.com/b</url></au>",
            f"{WHERE}/au[1]/url",
        ),
        # An element the schema does not know, in cmi5's namespace.
        (
            f'<au id="{COURSE_ID}/a">{texts("A")}<url>https://example.com/a</url><prerequisite/></au>',
            f"{WHERE}/au[1]/prerequisite",
        ),
        # A block's title after its units.
        (
            f'<block id="{COURSE_ID}/b">{web_unit()}{texts("B")}</block>',
            f"{WHERE}/block[1]/title",
        ),
    ],
)
def test_elements_out_of_the_schema_order_are_refused(client, manager, members, field):
    refused(post(client, manager, structure(members).encode(), "application/xml"), field, "invalidValue")


def test_elements_of_other_namespaces_are_allowed(client, manager):
    extension = '<ext:note xmlns:ext="https://example.com/ext">libre</ext:note>'
    members = web_unit().replace("</url>", f"</url>{extension}") + extension
    response = post(client, manager, structure(members).encode(), "application/xml")
    assert response.status_code == 200, response.text


def objectives(*ids: str) -> str:
    return (
        "<objectives>"
        + "".join(f'<objective id="{i}">{texts("Objectif")}</objective>' for i in ids)
        + "</objectives>"
    )


def referring(*idrefs: str) -> str:
    refs = "".join(f'<objective idref="{i}"/>' for i in idrefs)
    return au("a", "A", url="https://example.com/a").replace("<url>", f"<objectives>{refs}</objectives><url>")


def with_objectives(declared: str, members: str) -> bytes:
    xml = structure(members)
    return xml.replace("</course>", f"</course>{declared}").encode()


def test_objectives_declared_and_referred_to(client, manager):
    ok = with_objectives(
        objectives("https://example.com/o/1", "https://example.com/o/2"), referring("https://example.com/o/2")
    )
    assert post(client, manager, ok, "application/xml").status_code == 200


@pytest.mark.parametrize(
    ("declared", "refs", "field", "code"),
    [
        # Not an IRI (LTS 201-4).
        (("example.com/o/1",), (), f"{WHERE}/objectives/objective[1]@id", "invalidValue"),
        # Twice the same id (LTS 205-2).
        (
            ("https://example.com/o/1", "https://example.com/o/1"),
            (),
            f"{WHERE}/objectives/objective[2]@id",
            "alreadyExists",
        ),
        # A unit referring to an objective the course does not declare.
        (
            ("https://example.com/o/1",),
            ("https://example.com/o/9",),
            f"{WHERE}/au[1]/objectives/objective[1]@idref",
            "notFound",
        ),
        (
            ("https://example.com/o/1",),
            ("o/1",),
            f"{WHERE}/au[1]/objectives/objective[1]@idref",
            "invalidValue",
        ),
    ],
)
def test_objective_refusals(client, manager, declared, refs, field, code):
    data = with_objectives(objectives(*declared), referring(*refs) if refs else web_unit())
    refused(post(client, manager, data, "application/xml"), field, code)


@pytest.mark.parametrize("parameter", ["endpoint", "fetch", "actor", "registration", "activityId"])
def test_a_unit_url_carrying_a_launch_parameter_is_refused(client, manager, parameter):
    """LTS 204: the launch adds these parameters (cmi5 §8.1); the unit's url must not have them."""
    url = f"https://example.com/a?lang=fr&amp;{parameter}=https://example.org/lrs"
    refused(
        post(client, manager, structure(au("a", "A", url=url)).encode(), "application/xml"),
        f"{WHERE}/au[1]/url",
        "invalidValue",
    )


@pytest.mark.parametrize("url", ["http://example.com index.html", "https://example.com/a b", "index.html\tb"])
def test_a_unit_url_with_white_space_is_refused(client, manager, url):
    """LTS 206-1: not a URI."""
    data = zip_of(
        {"cmi5.xml": structure(au("a", "A", url=url)), "index.html": "<html></html>", "index .html": "x"}
    )
    refused(post(client, manager, data, "application/zip"), f"{WHERE}/au[1]/url", "invalidValue")


def test_the_url_s_own_query_and_white_space_around_it_are_kept_apart(client, manager):
    """A url written over several lines (CDATA, as LTS 001) is the address without the white space."""
    unit = au("a", "A", url="<![CDATA[\n   index.html?paramA=1&paramB=2\n  ]]>")
    data = zip_of({"cmi5.xml": structure(unit), "index.html": "<html></html>"})
    response = post(client, manager, data, "application/zip")
    assert response.status_code == 200, response.text


# The LTS packages (CATAPULT mirror) ----------------------------------------------------------------------

INVALID_XML = [
    "201-1-iris-course-id.xml",
    "201-2-iris-block-id.xml",
    "201-3-iris-au-id.xml",
    "201-4-iris-objective-id.xml",
    "202-1-relative-url-no-zip.xml",
    "202-2-relative-url-no-zip.xml",
    "202-3-relative-url-no-zip.xml",
    "202-4-relative-url-no-zip.xml",
    "202-5-relative-url-no-zip.xml",
    "204-query-string-conflict-endpoint.xml",
    "205-1-duplicated-block.xml",
    "205-2-duplicated-objective.xml",
    "205-3-duplicated-au.xml",
    "206-1-invalid-au-url.xml",
    "207-1-invalid-courseStructure.xml",
]
RUNTIME_PACKAGES = [
    "001-essentials",
    "002-allowed",
    "003-launchMethod-OwnWindow",
    "004-1-moveOn-Completed",
    "004-2-moveOn-CompletedOrPassed",
    "004-3-moveOn-Passed",
    "004-4-moveOn-CompletedOrPassed",
    "004-5-moveOn-NotApplicable",
    "005-1-invalid-au",
    "005-2-invalid-au",
    "006-launchMode",
    "007-1-multi-session",
    "007-2-multi-session",
    "008-1-abandoned",
    "009-1-waived",
]


@needs_catapult
def test_lts_101_one_thousand_units(client, db, manager):
    data = catapult_file("101-one-thousand-aus.xml")
    units = data.count(b"<au ")
    assert units >= 1000
    response = post(client, manager, data, "application/xml")
    assert response.status_code == 200, response.text
    assert response.json()["items"] == units
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    assert len(leaves(tree)) == units
    # No unit has a moveOn: all are satisfied at the first launch (cmi5 §9.6.1), in one roll-up, the
    # course's satisfied statement once.
    # How long that roll-up takes is bench/lms.py's figure.
    first = next(iter(leaves(tree).values()))
    assert client.post(f"{API}/lms/items/{first['id']}/launch", headers=manager).status_code == 200
    rows = db.scalars(
        select(LmsSatisfaction.scope).where(LmsSatisfaction.course_id == response.json()["id"])
    ).all()
    assert (rows.count("au"), rows.count("course")) == (units, 1)


@needs_catapult
def test_lts_102_zip64(client, manager):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in (
            ("cmi5.xml", catapult_file("102-zip64/cmi5.xml")),
            ("index.html", b"<html></html>"),
        ):
            with archive.open(name, "w", force_zip64=True) as entry:
                entry.write(content)
    data = buffer.getvalue()
    assert data[4:6] == b"-\x00"  # version needed to extract 4.5: zip64
    response = post(client, manager, data, "application/zip")
    assert response.status_code == 200, response.text


@needs_catapult
@pytest.mark.parametrize("name", INVALID_XML)
def test_lts_invalid_structures_are_refused(client, manager, name):
    response = post(client, manager, catapult_file(name), "application/xml")
    assert_error(response, 400, "invalidCoursePackage")


@needs_catapult
def test_lts_invalid_packages_are_refused(client, manager, tmp_path):
    # 203-1: a zip whose unit's relative url names no file of it.
    data = zip_of({"cmi5.xml": catapult_file("203-1-relative-url-no-reference/cmi5.xml")})
    refused(post(client, manager, data, "application/zip"), f"{WHERE}/au[1]/url", "notFound")
    # 208-1: markdown, sent as such.
    refused(
        post(client, manager, catapult_file("208-1-invalid-package.md"), "text/markdown"),
        "package",
        "notAZipFile",
    )
    # 209-1: not a zip, named .zip.
    refused(
        post(client, manager, catapult_file("209-1-not-a-zip.zip"), "application/zip"),
        "package",
        "notAZipFile",
    )
    # 210-1: a zip without cmi5.xml.
    data = zip_of({"README.md": catapult_file("210-1-no-cmi5-xml/README.md")})
    refused(post(client, manager, data, "application/zip"), "cmi5.xml, imsmanifest.xml", "notFound")


@needs_catapult
@pytest.mark.parametrize("name", RUNTIME_PACKAGES)
def test_lts_runtime_packages_import(client, manager, tmp_path, name):
    response = post(client, manager, catapult_zip(name, tmp_path).read_bytes(), "application/zip")
    assert response.status_code == 200, response.text


@needs_catapult
@pytest.mark.parametrize(
    ("example", "readings", "quizzes"),
    [
        # Seven pages a learner satisfies by going through them (CompletedOrPassed), then a quiz
        # (CompletedAndPassed).
        ("multi_au_framed", 7, 1),
        ("single_au_basic_responsive", 1, 0),
        # A page whose quiz has a mastery score: a quiz.
        ("masteryscore_framed", 0, 1),
    ],
)
def test_catapult_course_examples_show_readings_and_quizzes(
    client, manager, tmp_path, example, readings, quizzes
):
    response = post(client, manager, catapult_course(example, tmp_path).read_bytes(), "application/zip")
    assert response.status_code == 200, response.text
    card = next(
        c
        for c in client.get(f"{API}/lms/courses", headers=manager).json()
        if c["id"] == response.json()["id"]
    )
    assert (card["resources"], card["quizzes"]) == (readings, quizzes)


@needs_catapult
def test_catapult_pre_post_tests_are_quizzes_around_a_reading(client, manager, tmp_path):
    response = post(
        client, manager, catapult_course("pre_post_test_framed", tmp_path).read_bytes(), "application/zip"
    )
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    first_block = tree["children"][0]["children"]
    assert [(leaf["name"], leaf["type"]) for leaf in first_block] == [
        ("Pre-test", "quiz"),
        ("Content", "resource"),
        ("Post-test", "quiz"),
    ]
