"""POST /reports/trainingPaths/excel: the xlsx file read back with openpyxl (one sheet, a header row, a
row per module shown of each path selected, in the report's order), its columns by option, the
placeholder X, its language, and nothingToExport."""

import io
import random
from datetime import datetime
from typing import Any

import openpyxl
import pytest

from reports.reports_support import (
    DASHBOARD,
    MODULE_OPTIONS,
    PATH_OPTIONS,
    REPORTS,
    YEAR,
    World,
    generate,
    request_body,
)
from spot.jobs import runner
from spot.reports import jobs as report_jobs
from spot.reports.excel import WORDS
from support import API, assert_error
from training.paths_support import Cast, make_module, make_path, move_to

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FR, EN = WORDS["fr"], WORDS["en"]
# The headers each option adds (French).
PATH_HEADERS = {
    "reference": [FR.path_reference],
    "dates": [FR.path_start, FR.path_stop],
    "status": [FR.path_status],
    "creator": [FR.creator, FR.created_on],
    "validation": [FR.validator, FR.validated_on, FR.validation_comment],
    "signature": [FR.path_signed_on, FR.path_signature_comment, FR.path_satisfaction],
    "completion": [FR.completion],
    "averageGrade": [FR.average_grade],
    "duration": [FR.duration],
}
MODULE_HEADERS = {
    "reference": [FR.module_reference],
    "goals": [FR.goals],
    "referents": [FR.referents],
    "dates": [FR.module_start, FR.module_stop],
    "status": [FR.module_status],
    "grades": [FR.grade, FR.passed, FR.graded_on, FR.graded_by, FR.valid_until],
    "comments": [FR.grading_comment, FR.learner_comment],
    "signatures": [FR.signatures, FR.module_signed_on, FR.module_satisfaction],
    "mediations": [FR.mediations],
    "mediators": [FR.mediators],
    "results": [FR.done_items, FR.total_items],
}
BASE = [FR.learner, FR.external_id, FR.path]


def rows_of(response: Any) -> list[list[Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == XLSX
    assert response.headers["content-disposition"] == 'attachment; filename="training-paths.xlsx"'
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    (sheet,) = book.worksheets
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def table(rows: list[list[Any]]) -> list[dict[str, Any]]:
    header, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


@pytest.fixture
def world(db, make_user, login) -> tuple[World, dict[str, str]]:
    viewer = make_user("viewer", [DASHBOARD])
    return generate(db, random.Random(4), viewer_id=viewer.id), login(viewer)


def everything(world: World, **overrides: Any) -> dict[str, Any]:
    period = {"start": f"{YEAR - 2}-01-01", "stop": f"{YEAR + 2}-12-31"}
    return request_body(learners=list(world.learners), **(period | overrides))


def test_a_row_per_module_shown_in_the_reports_order(client, world) -> None:
    w, headers = world
    body = everything(
        w, moduleTypes=["training", "qualification"], moduleStatutes=["validated", "archived", "started"]
    )
    expected = w.select(body["selectors"], sees_all=True)
    rows = table(rows_of(client.post(f"{REPORTS}/excel", json=body, headers=headers)))
    by_id = {p.id: p for p in w.paths}
    wanted = [
        (" ".join(w.learners[learner]), by_id[path_id].title, by_id[path_id].modules[index].name)
        for learner, paths in expected
        for path_id, shown in paths
        for index in shown
    ]
    assert [(r[FR.learner], r[FR.path], r[FR.module]) for r in rows] == wanted
    assert len(rows) > 10


@pytest.mark.parametrize("option", PATH_OPTIONS)
def test_each_path_option_adds_its_columns(client, world, option) -> None:
    w, headers = world
    on = rows_of(client.post(f"{REPORTS}/excel", json=everything(w), headers=headers))[0]
    off = rows_of(
        client.post(f"{REPORTS}/excel", json=everything(w, path_options={option: False}), headers=headers)
    )[0]
    assert [h for h in on if h not in off] == PATH_HEADERS[option]


@pytest.mark.parametrize("option", MODULE_OPTIONS)
def test_each_module_option_adds_its_columns(client, world, option) -> None:
    w, headers = world
    on = rows_of(client.post(f"{REPORTS}/excel", json=everything(w), headers=headers))[0]
    off = rows_of(
        client.post(f"{REPORTS}/excel", json=everything(w, module_options={option: False}), headers=headers)
    )[0]
    # Without mediations, there is no mediators column either.
    wanted = MODULE_HEADERS[option] + (MODULE_HEADERS["mediators"] if option == "mediations" else [])
    assert [h for h in on if h not in off] == wanted


def test_every_option_off_leaves_the_learner_path_and_module(client, world) -> None:
    w, headers = world
    body = everything(
        w,
        path_options=dict.fromkeys(PATH_OPTIONS, False),
        module_options=dict.fromkeys(MODULE_OPTIONS, False),
    )
    header = rows_of(client.post(f"{REPORTS}/excel", json=body, headers=headers))[0]
    assert header == [*BASE, FR.module]
    body["documentOptions"]["displayExternalIds"] = False
    assert rows_of(client.post(f"{REPORTS}/excel", json=body, headers=headers))[0] == [
        FR.learner,
        FR.path,
        FR.module,
    ]


def test_every_option_on_gives_every_column_in_order(client, world) -> None:
    w, headers = world
    header = rows_of(client.post(f"{REPORTS}/excel", json=everything(w), headers=headers))[0]
    paths = [h for option in PATH_OPTIONS for h in PATH_HEADERS[option]]
    modules = [h for option in MODULE_OPTIONS for h in MODULE_HEADERS[option]]
    assert header == [*BASE, *paths, FR.module, *modules]


def test_people_whose_account_is_gone_print_as_x(client, world) -> None:
    w, headers = world
    rows = table(rows_of(client.post(f"{REPORTS}/excel", json=everything(w), headers=headers)))
    assert any(r[FR.creator] == "X" for r in rows)
    assert any(r[FR.graded_by] == "X" for r in rows)
    assert any(r[FR.mediators] and "X" in r[FR.mediators].split("\n") for r in rows)
    assert any(r[FR.signatures] and r[FR.signatures].startswith("X, ") for r in rows)
    # The others keep their names.
    assert any(r[FR.creator] not in (None, "X") for r in rows)


def test_the_values_of_a_path_driven_through_the_api(client, db, make_user, login) -> None:
    cast = Cast.of(make_user, login)
    viewer = make_user("viewer", [DASHBOARD])
    headers = login(viewer)
    path_id = make_path(client, cast, [make_module(db, "Consignation"), make_module(db, "Deux", items=0)])
    page = move_to(client, cast, path_id, "archived")
    body = request_body(learners=[cast.id("learner")], start=page["startDate"], stop=page["stopDate"])
    (first, second) = table(rows_of(client.post(f"{REPORTS}/excel", json=body, headers=headers)))
    assert first[FR.learner] == "Learner Test" and first[FR.external_id] is None
    assert (first[FR.path], first[FR.module], second[FR.module]) == (
        "Parcours consignation",
        "Consignation",
        "Deux",
    )
    assert first[FR.path_status] == "Archivé" and first[FR.module_status] == "Archivé"
    assert first[FR.path_start] == datetime.fromisoformat(page["startDate"])
    assert isinstance(first[FR.created_on], datetime)
    assert (first[FR.grade], first[FR.passed], first[FR.graded_by]) == (8, "Oui", "Referent Test")
    assert (first[FR.grading_comment], first[FR.learner_comment]) == ("Bien", "Merci")
    assert first[FR.validator] == "Creator Test" and first[FR.validation_comment] == "Parcours clos"
    assert first[FR.average_grade] == page["averageGrade"] and first[FR.duration] == "2 H"
    assert first[FR.referents] == "Referent Test"
    assert first[FR.signatures].startswith("Learner Test, ")
    assert "Prise de connaissance par l'apprenant" in first[FR.signatures]
    # The learner never opened the url element.
    assert (first[FR.done_items], first[FR.total_items]) == (0, 1)
    assert second[FR.completion] == page["completion"]


def test_headers_and_words_follow_accept_language(client, world) -> None:
    w, headers = world
    response = client.post(
        f"{REPORTS}/excel", json=everything(w), headers=headers | {"Accept-Language": "en-GB,en;q=0.9"}
    )
    header, *rows = rows_of(response)
    assert header[:4] == [EN.learner, EN.external_id, EN.path, EN.path_reference]
    statuses = {row[header.index(EN.path_status)] for row in rows}
    assert statuses <= {"Not accepted", "Accepted", "Started", "Finished", "Closed", "Archived", "Canceled"}
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.worksheets[0].title == EN.sheet


def test_nothing_selected_is_nothing_to_export(client, world) -> None:
    w, headers = world
    body = everything(w, start="1990-01-01", stop="1990-12-31")
    assert_error(client.post(f"{REPORTS}/excel", json=body, headers=headers), 422, "nothingToExport")


def test_more_paths_than_the_bound_make_the_same_file_as_a_job(client, world, monkeypatch) -> None:
    w, headers = world
    body = everything(w)
    direct = rows_of(client.post(f"{REPORTS}/excel", json=body, headers=headers))
    # Over the bound (1,000 paths; 1 here), the request answers at once with the job that makes it.
    monkeypatch.setattr(report_jobs, "EXCEL_JOB_PATHS", 1)
    asked = client.post(f"{REPORTS}/excel", json=body, headers=headers)
    assert asked.status_code == 202, asked.text
    job = asked.json()
    assert (job["kind"], job["status"]) == ("reportExcel", "queued")
    assert runner.run_pending() == 1
    done = client.get(f"{API}/jobs/{job['id']}", headers=headers).json()
    assert (done["status"], done["downloadName"], done["done"]) == (
        "succeeded",
        "training-paths.xlsx",
        done["total"],
    )
    assert done["summary"] == {"rows": len(direct) - 1}
    assert rows_of(client.get(f"{API}/jobs/{job['id']}/result", headers=headers)) == direct
