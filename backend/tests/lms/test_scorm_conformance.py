"""Every SCORM example of the golf mirror (jcputney/elearning-module-parser, read at test time through
tests/lms/conformance.py): the complete packages import with the tree and edition their manifest gives,
the sequencing ones among them import and run; the faulty ones are refused naming what is wrong; the
manifest-only fixtures import once the files they name are there."""

import io
import re
import zipfile
from pathlib import Path

import pytest

from lms.conformance import GOLF_MODULES, golf_zip, needs_golf
from lms.conftest import leaves
from lms.scorm_packages import upload
from lms.test_scorm_runtime import launch
from support import API, field_codes

pytestmark = needs_golf
MANAGER = "perm_TrainingManagement"
RESOURCE = "imsmanifest.xml:/manifest/resources/resource[1]"


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-conformance-admin", [MANAGER]))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-conformance-learner", []))


def package(folder: str, tmp_path: Path, *, with_files: bool = False) -> bytes:
    """The example zipped; `with_files`: each file its manifest names (a stand-in page) added when the
    fixture holds only its manifest."""
    data = golf_zip(f"{GOLF_MODULES}/{folder}", tmp_path / "package.zip").read_bytes()
    if not with_files:
        return data
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        manifest = archive.read("imsmanifest.xml").decode()
        present = set(archive.namelist())
        for name in sorted(set(re.findall(r'href="([^"?#]+)', manifest)) - present):
            if not name.endswith(".xsd"):
                archive.writestr(name, "<!doctype html><title>Page</title>")
    return buffer.getvalue()


def tree(client, headers, data: bytes) -> dict:
    response = upload(client, headers, data)
    assert response.status_code == 200, response.text
    return client.get(f"{API}/lms/courses/{response.json()['id']}", headers=headers).json()


def count(node: dict) -> tuple[int, int, int]:
    """Blocks, units and quizzes under a node."""
    blocks = units = quizzes = 0
    for child in node["children"]:
        if child["type"] == "group":
            b, u, q = count(child)
            blocks, units, quizzes = blocks + 1 + b, units + u, quizzes + q
        else:
            units += 1
            quizzes += child["type"] == "quiz"
    return blocks, units, quizzes


@pytest.mark.parametrize(
    ("folder", "shape"),
    [
        ("scorm12/ContentPackagingOneFilePerSCO_SCORM12", (4, 18, 0)),
        ("scorm12/ContentPackagingSingleSCO_SCORM12", (0, 1, 0)),
        ("scorm12/ContentPackagingWithMetadata_SCORM12", (0, 1, 0)),
        ("scorm12/LaunchUrlFromNestedItem_SCORM12", (5, 2, 0)),
        ("scorm12/MultipleItemsWithIdentifierRef_SCORM12", (0, 3, 0)),
        ("scorm12/PrerequisitesTest_SCORM12", (0, 4, 2)),
        ("scorm12/RuntimeBasicCalls_SCORM12", (0, 1, 0)),
        ("scorm12/RuntimeMinimumCalls_SCORM12", (4, 18, 0)),
        ("scorm2004/ContentPackagingMetadata_SCORM20043rdEdition", (0, 1, 0)),
        ("scorm2004/ContentPackagingOneFilePerSCO_SCORM20043rdEdition", (4, 18, 0)),
        ("scorm2004/ContentPackagingSingleSCO_SCORM20042ndEdition", (0, 1, 0)),
        ("scorm2004/ContentPackagingSingleSCO_SCORM20043rdEdition", (0, 1, 0)),
        ("scorm2004/RunTimeAdvancedCalls_SCORM20043rdEdition", (0, 1, 1)),
        ("scorm2004/RuntimeBasicCalls_SCORM20043rdEdition", (0, 1, 0)),
        ("scorm2004/RuntimeMinimumCalls_SCORM20043rdEdition", (4, 18, 0)),
        ("scorm2004/SequencingForcedSequential_SCORM20043rdEdition", (0, 5, 0)),
        ("scorm2004/SequencingPostTestRollup4thEd_SCORM20044thEdition", (0, 5, 0)),
        ("scorm2004/SequencingPostTestRollup_SCORM20043rdEdition", (0, 5, 0)),
        ("scorm2004/SequencingPreOrPostTestRollup_SCORM20043rdEdition", (2, 6, 0)),
        ("scorm2004/SequencingRandomTest_SCORM20043rdEdition", (2, 8, 0)),
        ("scorm2004/SequencingSimpleRemediation_SCORM20043rdEdition", (1, 8, 0)),
    ],
)
def test_the_complete_examples_import(client, manager, tmp_path, folder, shape):
    assert count(tree(client, manager, package(folder, tmp_path))) == shape


@pytest.mark.parametrize(
    ("folder", "field", "code"),
    [
        ("scorm12/InvalidFileReferences_SCORM12", f"{RESOURCE}@href", "notFound"),
        (
            "scorm12/ItemWithNonExistentResourceId_SCORM12",
            "imsmanifest.xml:/manifest/organizations/organization[1]/item[1]@identifierref",
            "notFound",
        ),
        ("scorm12/MalformedXml_SCORM12", "imsmanifest.xml", "notWellFormed"),
        ("scorm12/MissingLaunchUrl_SCORM12", f"{RESOURCE}@href", "emptyFieldError"),
        (
            "scorm2004/InvalidMissingOrgIdentifier_SCORM20043rdEdition",
            "imsmanifest.xml:/manifest/organizations/organization[1]@identifier",
            "emptyFieldError",
        ),
        # Fixtures of a manifest alone: the content they name is not in the package.
        ("scorm2004/MinimalValid_SCORM20043rdEdition", f"{RESOURCE}@href", "notFound"),
    ],
)
def test_the_faulty_examples_are_refused(client, manager, tmp_path, folder, field, code):
    response = upload(client, manager, package(folder, tmp_path))
    assert response.status_code == 400, response.text
    assert field_codes(response) == {(field, code)}


@pytest.mark.parametrize(
    "folder",
    [
        "scorm12/ComplexNestedOrganization_SCORM12",
        "scorm12/MissingRequiredFields_SCORM12",
        "scorm2004/AdlAttributes_SCORM20043rdEdition",
        "scorm2004/ContentPackagingNoSchemaVersion_SCORM20042ndEdition",
        "scorm2004/MinimalValid_SCORM20043rdEdition",
    ],
)
def test_the_manifest_only_examples_import_with_their_files(client, manager, tmp_path, folder):
    course = tree(client, manager, package(folder, tmp_path, with_files=True))
    assert course["name"] and count(course)[1] >= 1


def test_a_package_declaring_sequencing_runs(client, manager, learner, tmp_path):
    course = tree(
        client, manager, package("scorm2004/SequencingForcedSequential_SCORM20043rdEdition", tmp_path)
    )
    first = next(iter(leaves(course).values()))
    sco = launch(client, learner, first["id"])
    cmi = sco.load()["cmi"]
    assert cmi["entry"] == "ab-initio"
    sco.commit(cmi | {"completion_status": "completed", "session_time": "PT30S"}, terminate=True)
    progress = client.get(f"{API}/lms/courses/{course['id']}/progress", headers=learner).json()
    assert progress["units"][0]["status"] == "completed"
    # Its organization's controlMode allows choice and flow; the rest of its sequencing is read past.
    assert {(u["choice"], u["flow"]) for u in progress["units"]} == {(True, True)}
