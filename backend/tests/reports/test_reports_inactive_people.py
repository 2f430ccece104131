"""People who left (deactivated) stay named in what the reports print, marked as inactive in the
document's language: the path report's PDFs and Excel file, and the audit pack. The learner and the
referent of the closed path leave (the learner signed it and its module, the referent graded it);
the creator, who validated and signed it, and the second learner stay."""

import io
from typing import Any

import openpyxl
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from reports.pdf_support import AUDIT, World, build_world, pdfs, report_zip, request, text_of
from spot.reports.excel import WORDS
from support import API

EXCEL = f"{API}/reports/trainingPaths/excel"
MARK = {"fr": "(inactif)", "en": "(inactive)"}
LEARNER = {"fr": "Apprenant", "en": "Learner"}


@pytest.fixture
def world(db: Session, client: TestClient, make_user, login) -> World:
    world = build_world(db, client, make_user, login)
    make_user("keeper", ["perm_SetPermissions"])  # someone still manages permissions
    manager = login(make_user("manager", ["perm_UserManagement"]))
    for role in ("learner", "referent"):
        response = client.post(f"{API}/user/byId/{world.cast.id(role)}/deactivate", headers=manager)
        assert response.status_code == 200, response.text
    return world


def headers(world: World, language: str) -> dict[str, str]:
    return world.headers("reporter") | {"Accept-Language": language}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_report_s_pdfs_mark_who_left(client: TestClient, world: World, language: str) -> None:
    mark = MARK[language]
    response = report_zip(client, request(world), headers(world, language))
    assert response.status_code == 200, response.text
    files = pdfs(response.content)
    assert list(files) == [f"Learner Test {mark}.pdf", "Zoé Élève (EXT-7).pdf"]
    left = text_of(files[f"Learner Test {mark}.pdf"])
    separator = " :" if language == "fr" else ":"
    assert f"{LEARNER[language]}{separator} Learner Test {mark}" in left
    # Their signatures (the module's and the path's), the referent as referent and grader.
    assert left.count(f"Learner Test {mark} —") == 2, left
    assert left.count(f"Referent Test {mark}") == 2, left
    # The creator, validator and signer of the path, still here, is not marked.
    assert "Creator Test" in left and f"Creator Test {mark}" not in left
    stayed = text_of(files["Zoé Élève (EXT-7).pdf"])
    assert "Zoé Élève (EXT-7)" in stayed and mark not in stayed.replace(f"Referent Test {mark}", "")
    other = MARK["en" if language == "fr" else "fr"]
    assert other not in left and other not in stayed


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_report_s_sheet_marks_who_left(client: TestClient, world: World, language: str) -> None:
    mark, words = MARK[language], WORDS[language]
    response = client.post(EXCEL, json=request(world), headers=headers(world, language))
    assert response.status_code == 200, response.text
    header, *rows = (
        openpyxl.load_workbook(io.BytesIO(response.content)).worksheets[0].iter_rows(values_only=True)
    )

    def cell(row: tuple[Any, ...], column: str) -> Any:
        return row[header.index(column)]

    by_learner = {row[0]: row for row in rows}
    assert sorted(by_learner) == sorted([f"Learner Test {mark}", "Zoé Élève"])
    left = by_learner[f"Learner Test {mark}"]
    assert cell(left, words.referents) == f"Referent Test {mark}"
    assert cell(left, words.graded_by) == f"Referent Test {mark}"
    assert cell(left, words.signatures).startswith(f"Learner Test {mark}, ")
    assert (cell(left, words.creator), cell(left, words.validator)) == ("Creator Test", "Creator Test")
    assert cell(by_learner["Zoé Élève"], words.creator) == "Creator Test"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_audit_pack_marks_who_left(client: TestClient, world: World, language: str) -> None:
    mark = MARK[language]
    response = client.get(f"{AUDIT}/{world.cast.id('learner')}", headers=headers(world, language))
    assert response.status_code == 200, response.text
    files = pdfs(response.content)
    path_file, qualifications_file, history_file, learning_file = files
    path = text_of(files[path_file])
    separator = " :" if language == "fr" else ":"
    assert f"{LEARNER[language]}{separator} Learner Test {mark}" in path
    assert path.count(f"Learner Test {mark} —") == 2, path
    # Referent and grader of the module, and the referent of its grading history.
    assert path.count(f"Referent Test {mark}") == 3, path
    assert "Creator Test" in path and f"Creator Test {mark}" not in path
    # Whoever generated the pack is here.
    assert "Reporter Test" in path and f"Reporter Test {mark}" not in path
    assert f"Learner Test {mark}" in text_of(files[qualifications_file])
    # The validation history: the learner, and the referent who graded the module.
    history = text_of(files[history_file])
    assert f"{LEARNER[language]}{separator} Learner Test {mark}" in history
    assert f"Referent Test {mark}" in history
    # The learning-platform record names the learner as the others do.
    assert f"{LEARNER[language]}{separator} Learner Test {mark}" in text_of(files[learning_file])


def test_an_active_learner_s_audit_pack_marks_only_who_left(client: TestClient, world: World) -> None:
    response = client.get(f"{AUDIT}/{world.cast.id('second')}", headers=headers(world, "fr"))
    assert response.status_code == 200, response.text
    path_file, qualifications_file, history_file, _learning_file = files = pdfs(response.content)
    path = text_of(files[path_file])
    assert "Apprenant : Zoé Élève (EXT-7)" in path
    # Her module's referent left.
    assert path.replace("Referent Test (inactif)", "").count("(inactif)") == 0
    assert "Referent Test (inactif)" in path
    assert "(inactif)" not in text_of(files[qualifications_file])
    # Her module is not graded yet: no history, nobody marked.
    history = text_of(files[history_file])
    assert "Aucun module n'a jamais été noté pour cette personne." in history
    assert "(inactif)" not in history


def test_the_paths_table_marks_who_left(client: TestClient, world: World) -> None:
    """The report page's table of paths: the person who left keeps their name, marked by `active`."""
    response = client.post(
        f"{API}/reports/trainingPaths/paths", json=request(world), headers=headers(world, "en")
    )
    assert response.status_code == 200, response.text
    learners = {row["learner"]["name"]: row["learner"]["active"] for row in response.json()["results"]}
    assert learners == {"Learner Test": False, "Zoé Élève (EXT-7)": True}
