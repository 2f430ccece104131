"""The path report as a zip of PDFs (spec 2 §9 PDF layout, §8 placeholder X,
DESIGN §5 signatures): one PDF per learner, read back with pypdf."""

import base64
import io

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from reports.pdf_support import (
    JOBS,
    MODULE_OPTIONS,
    PATH_OPTIONS,
    PDF,
    World,
    build_world,
    pdfs,
    report_zip,
    request,
    text_of,
)
from spot.core.signatures import Signature
from spot.jobs import runner
from spot.permissions.models import GroupPermission
from spot.users.models import User, user_group
from support import assert_error
from training.paths_support import force, make_path


@pytest.fixture
def world(db: Session, client: TestClient, make_user, login) -> World:
    return build_world(db, client, make_user, login)


def post(client: TestClient, world: World, body: dict, *, language: str = "fr"):
    """The zip, through its job (pdf_support.report_zip)."""
    return report_zip(client, body, world.headers("reporter") | {"Accept-Language": language})


def test_one_pdf_per_learner_named_after_them(client: TestClient, world: World) -> None:
    response = post(client, world, request(world))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"] == 'attachment; filename="training-paths.zip"'
    files = pdfs(response.content)
    # By name (last name, first name): Learner Test, then Zoé Élève with her external id.
    assert list(files) == ["Learner Test.pdf", "Zoé Élève (EXT-7).pdf"]
    for reader in files.values():
        assert len(reader.pages) >= 1
        assert reader.pages[0].mediabox.width == pytest.approx(595.28, abs=0.1)  # A4 portrait
        assert reader.pages[0].mediabox.height == pytest.approx(841.89, abs=0.1)


def test_the_pdf_shows_the_path_its_modules_grades_and_signatures(client: TestClient, world: World) -> None:
    files = pdfs(post(client, world, request(world)).content)
    closed = text_of(files["Learner Test.pdf"])
    for expected in (
        "Rapport des parcours de formation",
        "Apprenant : Learner Test",
        "Parcours consignation",
        "Archivé",  # the path's status
        "Consignation électrique",  # the module, accents kept
        "Savoir consigner",  # its goals
        "Referent Test",  # its referent and grader
        "8,0 / 10",  # its grade
        "réussi",
        "Bien",  # the grader's comment
        "Merci",  # the learner's comment
        "Satisfaction 4 / 5",
        "Parcours clos",  # the closing comment
        "Creator Test",  # creator and validator
        "Approbation (validation)",  # the validator's signature
        "Prise de connaissance par l'apprenant",  # the learner's signatures
        "Avancement 0 %",  # no element done
        "1 H",  # estimated duration
        "Signature de l'apprenant",
        "Visa du responsable",
    ):
        assert expected in closed, expected
    assert "Modifié après signature" not in closed
    started = text_of(files["Zoé Élève (EXT-7).pdf"])
    assert "Apprenant : Zoé Élève (EXT-7)" in started
    assert "Parcours habilitation" in started and "Démarré" in started
    assert "Parcours consignation" not in started


def test_in_english(client: TestClient, world: World) -> None:
    files = pdfs(post(client, world, request(world), language="en-GB,en;q=0.9").content)
    closed = text_of(files["Learner Test.pdf"])
    for expected in ("Learner: Learner Test", "8.0 / 10", "Acknowledgement by the learner", "Archived"):
        assert expected in closed, expected


def test_options_off_leave_their_fields_out(client: TestClient, world: World) -> None:
    body = request(
        world,
        displayExternalIds=False,
        learnerSignature=False,
        managerSignature=False,
    )
    body["pathOptions"] = dict.fromkeys(PATH_OPTIONS, False)
    body["moduleOptions"] = dict.fromkeys(MODULE_OPTIONS, False)
    files = pdfs(post(client, world, body).content)
    assert list(files) == ["Learner Test.pdf", "Zoé Élève.pdf"]
    closed = text_of(files["Learner Test.pdf"])
    assert "Parcours consignation" in closed and "Consignation électrique" in closed
    for absent in ("8,0 / 10", "Bien", "Approbation", "Creator Test", "Signature de l'apprenant", "Visa du"):
        assert absent not in closed, absent
    assert "EXT-7" not in text_of(files["Zoé Élève.pdf"])


def test_a_changed_record_and_a_revoked_signature_show(client: TestClient, world: World, db: Session) -> None:
    db.execute(update(Signature).where(Signature.meaning == "approval").values(content_hash="0" * 64))
    db.execute(
        update(Signature)
        .where(Signature.meaning == "acknowledgement", Signature.record_type != "trainingPath")
        .values(revoked_at=Signature.signed_at, revoke_reason="gradeChanged")
    )
    db.commit()
    closed = text_of(pdfs(post(client, world, request(world)).content)["Learner Test.pdf"])
    assert "Modifié après signature" in closed
    assert "Révoquée le" in closed and "La note a été modifiée" in closed


def test_people_whose_account_is_gone_print_as_x(client: TestClient, world: World, db: Session) -> None:
    db.execute(delete(User).where(User.id == world.cast.id("creator")))
    db.commit()
    closed = text_of(pdfs(post(client, world, request(world)).content)["Learner Test.pdf"])
    assert "Créé par X, le" in closed and "Clôture X, le" in closed
    assert "Creator Test" not in closed


def test_the_signature_image_is_printed(client: TestClient, world: World) -> None:
    out = io.BytesIO()
    Image.new("RGB", (60, 24), (0, 0, 128)).save(out, "PNG")
    image = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
    files = pdfs(post(client, world, request(world, signatureImage=image)).content)
    last = files["Learner Test.pdf"].pages[-1]
    assert len(last.images) == 1
    without = pdfs(post(client, world, request(world)).content)["Learner Test.pdf"].pages[-1]
    assert len(without.images) == 0


def test_a_large_signature_image_is_embedded_at_the_size_it_prints(client: TestClient, world: World) -> None:
    out = io.BytesIO()
    Image.new("RGB", (5_000, 2_000), (0, 0, 128)).save(out, "PNG")
    image = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
    files = pdfs(post(client, world, request(world, signatureImage=image)).content)
    for reader in files.values():
        (embedded,) = reader.pages[-1].images
        width, height = embedded.image.size
        # Four pixels a point of the 150 x 60 area: sharp on any printer, decoded once per report.
        assert (width, height) == (4 * 150, 4 * 60)


def test_nothing_selected_is_nothing_to_print(client: TestClient, world: World) -> None:
    body = request(world)
    body["selectors"]["pathStatutes"] = ["canceled"]
    assert_error(post(client, world, body), 422, "nothingToPrint")
    body["selectors"]["learnerIdList"] = []
    assert_error(post(client, world, body), 422, "atLeastOneErrorLeft")


def test_the_zip_is_a_job_of_its_owner_with_its_progress(client: TestClient, world: World) -> None:
    reporter = world.headers("reporter")
    asked = client.post(PDF, json=request(world), headers=reporter)
    assert asked.status_code == 202, asked.text
    job = asked.json()
    assert (job["kind"], job["status"], job["done"]) == ("reportZip", "queued", 0)
    assert job["can"] == {"download": False}
    # Not ready yet: 409; another user's job is unknown to them.
    assert_error(client.get(f"{JOBS}/{job['id']}/result", headers=reporter), 409, "jobNotReady")
    assert_error(client.get(f"{JOBS}/{job['id']}", headers=world.headers("creator")), 404, "jobNotFound")
    assert runner.run_pending() == 1
    done = client.get(f"{JOBS}/{job['id']}", headers=reporter).json()
    assert (done["status"], done["done"], done["total"]) == ("succeeded", 2, 2)
    assert (done["downloadName"], done["can"], done["summary"]) == (
        "training-paths.zip",
        {"download": True},
        {"learners": 2},
    )
    result = client.get(f"{JOBS}/{job['id']}/result", headers=reporter)
    assert result.status_code == 200
    assert result.headers["content-disposition"] == 'attachment; filename="training-paths.zip"'
    assert len(pdfs(result.content)) == 2
    other = client.get(f"{JOBS}/{job['id']}/result", headers=world.headers("creator"))
    assert_error(other, 404, "jobNotFound")


def test_a_job_runs_with_its_owner_s_rights_of_then(client: TestClient, world: World, db: Session) -> None:
    # The reporter loses perm_TableauBord before the job runs: the paths they may no longer read are
    # not printed, and nothing is left to print.
    reporter = world.headers("reporter")
    job = client.post(PDF, json=request(world), headers=reporter).json()
    groups = select(user_group.c.group_id).where(user_group.c.user_id == world.cast.id("reporter"))
    db.execute(delete(GroupPermission).where(GroupPermission.group_id.in_(groups)))
    db.commit()
    runner.run_pending()
    failed = client.get(f"{JOBS}/{job['id']}", headers=reporter).json()
    assert (failed["status"], failed["error"]) == ("failed", "nothingToPrint")
    assert failed["can"] == {"download": False}
    assert_error(client.get(f"{JOBS}/{job['id']}/result", headers=reporter), 409, "jobFailed")


def _png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_the_organisation_logo_is_on_every_page(
    client: TestClient,
    world: World,
    db: Session,
    settings_env,
    tmp_path,
) -> None:
    # A closing comment long enough for several pages.
    force(db, world.closed_path, validation_comment="\n".join(f"Ligne {n}" for n in range(150)))
    files = pdfs(post(client, world, request(world)).content)
    assert all(len(page.images) == 0 for page in files["Learner Test.pdf"].pages)  # Spot's SVG is not printed
    (tmp_path / "organization").mkdir()
    (tmp_path / "organization" / "logo.png").write_bytes(_png((90, 30)))
    settings_env(SPOT_DATA_DIR=str(tmp_path))
    files = pdfs(post(client, world, request(world)).content)
    pages = files["Learner Test.pdf"].pages
    assert len(pages) >= 2
    assert all(len(page.images) == 1 for page in pages)
    assert "Ligne 149" in text_of(files["Learner Test.pdf"])


def test_namesakes_get_file_names_of_their_own(
    client: TestClient,
    world: World,
    make_user,
    db: Session,
) -> None:
    namesake = make_user(login="namesake", first_name="Learner", last_name="Test")
    make_path(client, world.cast, [world.module_id], learnerIds=[namesake.id], title="Parcours homonyme")
    body = request(world)
    body["selectors"]["learnerIdList"].append(namesake.id)
    files = pdfs(post(client, world, body).content)
    assert list(files) == ["Learner Test.pdf", "Learner Test (2).pdf", "Zoé Élève (EXT-7).pdf"]
    titles = [text_of(files[name]) for name in ("Learner Test.pdf", "Learner Test (2).pdf")]
    assert sum("Parcours homonyme" in t for t in titles) == 1
    assert sum("Parcours consignation" in t for t in titles) == 1
