"""A learner's audit pack (docs/reports.md 'The audit pack'): a PDF per path with every grading and
signature, a PDF of their qualification status, every page stamped; and who may ask for the report's
PDFs."""

import io
from datetime import date, timedelta

import openpyxl
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from reports.pdf_support import AUDIT, PDF, World, build_world, pdfs, report_zip, request, text_of
from spot.core.time import utcnow
from spot.reports.excel import WORDS
from spot.training.paths.models import TrainingPath, TrainingPathGrading, TrainingPathModule
from support import API, assert_error
from training.paths_support import act, make_module, make_path, move_to


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
    assert list(files) == [
        f"Parcours consignation ({world.closed_path}).pdf",
        "Qualifications.pdf",
        "Historique des validations.pdf",
        "Plateforme de formation.pdf",
    ]
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
    validations = text_of(files["Historique des validations.pdf"])
    path = f"Parcours consignation (#{world.closed_path}) — Archivé"
    for expected in (
        "Historique des validations",
        "Apprenant : Learner Test",
        "Consignation électrique",
        "Aujourd'hui : valide, sans limite de durée",
        # The earlier grading, by a referent whose account is gone, its grade changed since...
        f"5,0 / 10 — non réussi X {path} — Note modifiée ensuite",
        # ...then the current one, the validation held.
        f"8,0 / 10 — réussi Referent Test {path} Permanente Validation en cours de validité",
    ):
        assert expected in validations, expected
    assert validations.index("5,0 / 10") < validations.index("8,0 / 10")  # oldest first


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
    report = pdfs(report_zip(client, request(world), world.headers("reporter")).content)
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
    validations = text_of(files["Validation history.pdf"])
    assert "Today: valid, permanently" in validations
    assert "Grade changed afterwards" in validations and "The validation held, valid" in validations


def test_someone_with_no_path_nor_qualification(client: TestClient, world: World) -> None:
    files = pdfs(audit(client, world, world.cast.id("stranger")).content)
    assert list(files) == [
        "Qualifications.pdf",
        "Historique des validations.pdf",
        "Plateforme de formation.pdf",
    ]
    learning = text_of(files["Plateforme de formation.pdf"])
    assert "La personne n'a jamais ouvert de cours de la plateforme de formation." in learning
    assert "Aucune qualification ne concerne cette personne." in text_of(files["Qualifications.pdf"])
    validations = text_of(files["Historique des validations.pdf"])
    assert "Aucun module n'a jamais été noté pour cette personne." in validations


def test_the_validation_history_of_an_expired_and_a_canceled_validation(
    client: TestClient, world: World, db: Session
) -> None:
    """A validation that ran out stays in the pack as expired; one of a canceled path counts for nothing;
    every module the person was graded in, in or out of a qualification, by name."""
    learner = world.cast.id("learner")
    periodic = make_module(db, "Travail en hauteur", periodicity=12)
    first = make_path(client, world.cast, [periodic], title="Hauteur 2024")
    move_to(client, world.cast, first, "validated")
    expired = date(2025, 3, 31)
    db.execute(
        update(TrainingPathModule).where(TrainingPathModule.path_id == first).values(valid_until=expired)
    )
    db.execute(
        update(TrainingPathGrading)
        .where(
            TrainingPathGrading.path_module_id.in_(
                select(TrainingPathModule.id).where(TrainingPathModule.path_id == first)
            )
        )
        .values(valid_until=expired)
    )
    db.commit()
    second = make_path(client, world.cast, [periodic], title="Hauteur annulé")
    move_to(client, world.cast, second, "started")
    act(client, world.cast, "referent", second, "0/startNow")
    act(client, world.cast, "referent", second, "0/grade", {"grade": 9, "comment": "Très bien"})
    db.execute(update(TrainingPath).where(TrainingPath.id == second).values(status="canceled"))
    db.commit()
    validations = text_of(pdfs(audit(client, world, learner).content)["Historique des validations.pdf"])
    assert validations.index("Consignation électrique") < validations.index("Travail en hauteur")
    for expected in (
        "Aujourd'hui : expirée, dernier jour valide le 31/03/2025",
        f"Hauteur 2024 (#{first}) — Clôturé 31/03/2025 Validation expirée",
        f"Hauteur annulé (#{second}) — Annulé",
        "Ne compte pas : parcours annulé ou module désactivé",
    ):
        assert expected in validations, expected


def test_the_qualification_status_prints_every_module(client: TestClient, world: World, db: Session) -> None:
    """However many modules a qualification has (a dashboard on screen shows the first 25 of each)."""
    modules = [make_module(db, f"Module {n:02}") for n in range(30)]
    body = {
        "name": "Trente modules",
        "cartographies": [],
        "qualifiableGroups": [world.cast.group("learner")],
        "modules": modules,
    }
    created = client.post(f"{API}/qualifications", json=body, headers=world.headers("qualifier"))
    assert created.status_code == 200, created.text
    qualifications = text_of(
        pdfs(audit(client, world, world.cast.id("learner")).content)["Qualifications.pdf"]
    )
    assert all(f"Module {n:02}" in qualifications for n in range(30))


def test_an_unknown_user_is_not_found(client: TestClient, world: World) -> None:
    assert_error(audit(client, world, 999_999), 404, "userNotFound")


# Permissions: the report's zip (a job) needs perm_TableauBord or perm_TrainingManagement; the audit pack
# perm_TableauBord. (role, PDF zip, audit pack); None: anonymous.
PERMISSIONS = [
    ("reporter", 202, 200),  # perm_TableauBord
    ("creator", 202, 403),  # perm_TrainingManagement
    ("stranger", 403, 403),  # neither
    (None, 401, 401),
]


@pytest.mark.parametrize(("role", "zip_status", "audit_status"), PERMISSIONS)
def test_permissions(
    client: TestClient,
    world: World,
    role: str | None,
    zip_status: int,
    audit_status: int,
) -> None:
    headers = world.headers(role) if role else {}
    assert client.post(PDF, json=request(world), headers=headers).status_code == zip_status
    learner = world.cast.id("learner")
    assert client.get(f"{AUDIT}/{learner}", headers=headers).status_code == audit_status
    if role:
        # The audit pack button follows whoAmI's can, the same answer.
        who = client.get(f"{API}/account/whoAmI", headers=headers).json()
        assert who["can"]["downloadAuditPacks"] == (audit_status == 200)
