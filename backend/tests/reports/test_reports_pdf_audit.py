"""A learner's audit pack (docs/reports.md 'The audit pack'): a PDF per path with every grading and
signature, a PDF of their qualification status, every page stamped; and who may ask for the report's
PDFs."""

import io
import uuid
from datetime import date, timedelta

import openpyxl
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from reports.pdf_support import AUDIT, PDF, PROGRESS, World, build_world, pdfs, request, text_of
from spot.core.time import utcnow
from spot.reports.excel import WORDS
from spot.training.paths.models import TrainingPathGrading, TrainingPathModule
from support import API, assert_error


@pytest.fixture
def world(db: Session, client: TestClient, make_user, login) -> World:
    world = build_world(db, client, make_user, login)
    qualifier = world.cast.add("qualifier", make_user, login, ["perm_QualificationAdmin"])
    assert qualifier.id
    body = {
        "name": "Habilitation électrique",
        "cartographies": [],
        "qualifiableGroups": [world.cast.group("learner")],
        "modules": [world.module_id],
    }
    created = client.post(f"{API}/qualifications", json=body, headers=world.headers("qualifier"))
    assert created.status_code == 200, created.text
    # An earlier grading of the closed path's module, by a referent whose account is gone, with a long
    # comment (the path's PDF then runs over several pages).
    module_id = db.scalar(
        select(TrainingPathModule.id).where(TrainingPathModule.path_id == world.closed_path)
    )
    assert module_id is not None
    db.add(
        TrainingPathGrading(
            path_module_id=module_id,
            grade=5.0,
            comment="Premier essai\n" + "\n".join(f"Remarque {n}" for n in range(120)),
            is_success=False,
            referent_id=None,
            referent_name="Ancien Référent",
            valid_until=None,
            graded_at=utcnow() - timedelta(days=1),
        )
    )
    db.commit()
    return world


def audit(client: TestClient, world: World, user_id: int, role: str = "reporter", language: str = "fr"):
    return client.get(f"{AUDIT}/{user_id}", headers=world.headers(role) | {"Accept-Language": language})


def test_a_pdf_per_path_and_one_of_qualifications_each_page_stamped(client: TestClient, world: World) -> None:
    response = audit(client, world, world.cast.id("learner"))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"] == 'attachment; filename="audit-learner.zip"'
    files = pdfs(response.content)
    assert list(files) == [f"Parcours consignation ({world.closed_path}).pdf", "Qualifications.pdf"]
    path = files[f"Parcours consignation ({world.closed_path}).pdf"]
    assert len(path.pages) >= 2
    for reader in files.values():
        for page in reader.pages:
            assert "Généré le" in page.extract_text() and "par Reporter Test" in page.extract_text()
    path_text = text_of(path)
    for expected in (
        "Dossier d'audit — Parcours consignation",
        "Apprenant : Learner Test",
        "Historique des notations",
        "5,0 / 10 — non réussi",  # the earlier grading...
        "Premier essai",
        "Remarque 119",
        "8,0 / 10 — réussi",  # ...and the current one
        "Bien",
        "Approbation (validation)",
        "Prise de connaissance par l'apprenant",
        "Creator Test",
    ):
        assert expected in path_text, expected
    assert "Ancien Référent" not in path_text  # a referent whose account is gone prints as X
    qualifications = text_of(files["Qualifications.pdf"])
    for expected in (
        "Statut des qualifications",
        "Habilitation électrique (1 / 1)",
        "Consignation électrique",
    ):
        assert expected in qualifications, expected
    assert "Permanente" in qualifications and "Valide" in qualifications


@pytest.mark.parametrize("success", [True, False])
def test_a_failed_grading_prints_no_validity(
    client: TestClient, world: World, db: Session, success: bool
) -> None:
    # A day stored with every grading, as gradings made before failures were kept without one carry.
    stored = date(2031, 7, 14)
    module_id = db.scalar(
        select(TrainingPathModule.id).where(TrainingPathModule.path_id == world.closed_path)
    )
    db.execute(
        update(TrainingPathModule)
        .where(TrainingPathModule.id == module_id)
        .values(is_success=success, valid_until=stored)
    )
    db.execute(
        update(TrainingPathGrading)
        .where(TrainingPathGrading.path_module_id == module_id)
        .values(is_success=success, valid_until=stored)
    )
    db.commit()
    printed = "14/07/2031"
    report = pdfs(client.post(PDF, json=request(world), headers=world.headers("reporter")).content)
    assert (printed in text_of(report["Learner Test.pdf"])) is success
    assert ("Valide jusqu'au" in text_of(report["Learner Test.pdf"])) is success
    pack = pdfs(audit(client, world, world.cast.id("learner")).content)
    assert (printed in text_of(pack[f"Parcours consignation ({world.closed_path}).pdf"])) is success
    excel = client.post(
        f"{API}/reports/trainingPaths/excel", json=request(world), headers=world.headers("reporter")
    )
    header, *rows = (
        openpyxl.load_workbook(io.BytesIO(excel.content)).worksheets[0].iter_rows(values_only=True)
    )
    column = header.index(WORDS["fr"].valid_until)
    (learners_row,) = [row for row in rows if row[0] == "Learner Test"]
    assert (learners_row[column] is not None) is success


def test_in_english(client: TestClient, world: World) -> None:
    files = pdfs(audit(client, world, world.cast.id("learner"), language="en").content)
    assert "Generated on" in files["Qualifications.pdf"].pages[0].extract_text()
    assert "Grading history" in text_of(files[f"Parcours consignation ({world.closed_path}).pdf"])


def test_someone_with_no_path_nor_qualification(client: TestClient, world: World) -> None:
    files = pdfs(audit(client, world, world.cast.id("stranger")).content)
    assert list(files) == ["Qualifications.pdf"]
    assert "Aucune qualification ne concerne cette personne." in text_of(files["Qualifications.pdf"])


def test_an_unknown_user_is_not_found(client: TestClient, world: World) -> None:
    assert_error(audit(client, world, 999_999), 404, "userNotFound")


# Permissions: the report's PDFs and progress need perm_TableauBord or perm_TrainingManagement; the
# audit pack perm_TableauBord. (role, PDF zip, progress, audit pack); None: anonymous.
PERMISSIONS = [
    ("reporter", 200, 404, 200),  # perm_TableauBord (no report with that progress id: 404)
    ("creator", 200, 404, 403),  # perm_TrainingManagement
    ("stranger", 403, 403, 403),  # neither
    (None, 401, 401, 401),
]


@pytest.mark.parametrize(("role", "zip_status", "progress_status", "audit_status"), PERMISSIONS)
def test_permissions(
    client: TestClient,
    world: World,
    role: str | None,
    zip_status: int,
    progress_status: int,
    audit_status: int,
) -> None:
    headers = world.headers(role) if role else {}
    assert client.post(PDF, json=request(world), headers=headers).status_code == zip_status
    assert client.get(f"{PROGRESS}/{uuid.uuid4()}", headers=headers).status_code == progress_status
    learner = world.cast.id("learner")
    assert client.get(f"{AUDIT}/{learner}", headers=headers).status_code == audit_status
