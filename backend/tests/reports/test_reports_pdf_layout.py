"""How the report's and the audit pack's PDFs read (spec 2 §9 PDF layout): "Page n / total" on every
page, no heading left alone at the bottom of a page, what a screen reader and a viewer are told
(title, language, outline), and files in the zips readable by everyone who can read the zip."""

import io
import re
import stat
import zipfile
from datetime import UTC, date, datetime

import pypdf
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from reports.pdf_support import AUDIT, World, build_world, report_zip, request
from spot.reports import pdf, service
from spot.reports.selection import LearnerLines, ModuleLine, PathLine
from training.paths_support import force

PAGE = re.compile(r"Page (\d+) / (\d+)")


@pytest.fixture
def world(db: Session, client: TestClient, make_user, login) -> World:
    return build_world(db, client, make_user, login)


def zip_of(response) -> zipfile.ZipFile:
    assert response.status_code == 200, response.text
    return zipfile.ZipFile(io.BytesIO(response.content))


def readers(archive: zipfile.ZipFile) -> dict[str, pypdf.PdfReader]:
    return {name: pypdf.PdfReader(io.BytesIO(archive.read(name))) for name in archive.namelist()}


def both_zips(client: TestClient, world: World) -> list[zipfile.ZipFile]:
    headers = world.headers("reporter")
    report = report_zip(client, request(world), headers)
    pack = client.get(f"{AUDIT}/{world.cast.id('learner')}", headers=headers)
    return [zip_of(report), zip_of(pack)]


def test_every_page_says_its_number_and_the_total(client: TestClient, world: World, db: Session) -> None:
    force(db, world.closed_path, validation_comment="\n".join(f"Ligne {n}" for n in range(150)))
    for archive in both_zips(client, world):
        for name, reader in readers(archive).items():
            total = len(reader.pages)
            numbers = [PAGE.findall(page.extract_text()) for page in reader.pages]
            assert numbers == [[(str(n), str(total))] for n in range(1, total + 1)], name
    assert len(readers(both_zips(client, world)[0])["Learner Test.pdf"].pages) >= 3


def test_files_in_the_zips_are_readable_by_all(client: TestClient, world: World) -> None:
    for archive in both_zips(client, world):
        assert archive.testzip() is None
        for info in archive.infolist():
            mode = info.external_attr >> 16
            assert stat.S_ISREG(mode), info.filename
            assert stat.S_IMODE(mode) == 0o644, (info.filename, oct(mode))


def test_each_pdf_has_its_title_language_and_outline(client: TestClient, world: World) -> None:
    report, pack = both_zips(client, world)
    learner = readers(report)["Learner Test.pdf"]
    assert learner.metadata is not None and learner.metadata.title == "Rapport des parcours de formation"
    catalog = learner.trailer["/Root"]
    assert catalog["/Lang"] == "fr"
    assert bool(catalog["/ViewerPreferences"]["/DisplayDocTitle"]) is True
    outline = learner.outline
    assert outline[0].title == "Parcours consignation"
    assert [entry.title for entry in outline[1]] == ["1. Consignation électrique — Formation"]
    audit = readers(pack)
    path = next(reader for name, reader in audit.items() if name.startswith("Parcours consignation"))
    assert path.metadata is not None and path.metadata.title == "Dossier d'audit — Parcours consignation"
    assert [entry.title for entry in path.outline[1]] == ["1. Consignation électrique — Formation"]
    history = audit["Historique des validations.pdf"]
    assert history.metadata is not None and history.metadata.title == "Historique des validations"
    assert history.trailer["/Root"]["/Lang"] == "fr"
    assert [entry.title for entry in history.outline] == ["Consignation électrique"]
    english = zip_of(
        report_zip(client, request(world), world.headers("reporter") | {"Accept-Language": "en"})
    )
    assert readers(english)["Learner Test.pdf"].trailer["/Root"]["/Lang"] == "en"


# No heading alone at the bottom of a page ---------------------------------------------------------------

MOMENT = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def module(index: int, comment_lines: int = 0) -> ModuleLine:
    return ModuleLine(
        index=index,
        name=f"Module {index:02}",
        reference=f"M-{index}",
        module_type="training",
        goals="Savoir consigner une installation",
        referents=["Referent Test"],
        start_date=date(2026, 1, 5),
        stop_date=date(2026, 6, 30),
        status="validated",
        grade=8.0,
        is_success=True,
        comment="\n".join(f"Remarque {n}" for n in range(comment_lines)) or "Bien",
        graded_at=MOMENT,
        valid_until=None,
        grader_name="Referent Test",
        learner_signed_at=MOMENT,
        learner_comment="Merci",
        learner_satisfaction=4,
        signatures=[],
        mediations=[],
        done_items=1,
        total_items=2,
    )


def path_line(title: str, modules: list[ModuleLine]) -> PathLine:
    return PathLine(
        id=1,
        title=title,
        reference="P-1",
        status="validated",
        start_date=date(2026, 1, 5),
        stop_date=date(2026, 6, 30),
        creator_name="Creator Test",
        created_at=MOMENT,
        accepted_at=MOMENT,
        validator_name="Creator Test",
        validated_at=MOMENT,
        validation_comment="Parcours clos",
        signed_at=MOMENT,
        signature_comment="Merci",
        signature_satisfaction=5,
        completion=50,
        average_grade=8.0,
        estimated_duration=90,
        modules=modules,
        signatures=[],
    )


def last_lines(reader: pypdf.PdfReader) -> list[str]:
    """The last line of text of each page but the last (the footer is drawn before the story)."""
    out = []
    for page in reader.pages[:-1]:
        lines = [line.strip() for line in (page.extract_text() or "").splitlines() if line.strip()]
        out.append(lines[-1])
    return out


HEADING = re.compile(r"\d+\. Module \d\d — Formation|Parcours [A-Z]|Historique des notations")


def is_heading(line: str) -> bool:
    return bool(HEADING.fullmatch(line))


def test_no_page_ends_with_a_heading() -> None:
    """The first module's comment grows a line at a time, moving every heading after it down the pages:
    whatever the length, no page ends with a path's or a module's heading or a grading history's."""
    ctx = pdf.context("fr")
    defaults = service.defaults()
    titled = defaults.document_options.model_copy(update={"document_title": "Rapport"})
    request_ = defaults.model_copy(update={"document_options": titled})
    gradings = {i: [pdf.Grading(MOMENT, 8.0, True, "Referent Test", "Bien", None)] for i in range(8)}
    pages_seen = set()
    for filler in range(0, 60, 2):
        modules = [module(0, filler)] + [module(i) for i in range(1, 8)]
        learner = LearnerLines(
            user_id=1,
            name="Learner Test",
            external_id=None,
            paths=[path_line("Parcours A", modules), path_line("Parcours B", list(modules))],
        )
        report = pypdf.PdfReader(
            io.BytesIO(pdf.learner_report(learner, request=request_, ctx=ctx, signature_image=None))
        )
        audit = pypdf.PdfReader(
            io.BytesIO(pdf.path_audit(learner, learner.paths[0], gradings=gradings, ctx=ctx))
        )
        for reader in (report, audit):
            pages_seen.add(len(reader.pages))
            for line in last_lines(reader):
                assert not is_heading(line), (filler, line)
    assert max(pages_seen) >= 3
