"""Importing people and their groups from a file (docs/people.md): CSV as Excel writes it in French and
English, XLSX; matched on external id, else login; a dry run lists each row's outcome; applying is all or
nothing; an option deactivates those missing; the command line says the same and exits 2 on a refusal."""

import io

import pytest
from openpyxl import Workbook
from sqlalchemy import select
from typer.testing import CliRunner

from spot import cli
from spot.core import files
from spot.core.errors import ApiError
from spot.jobs import runner
from spot.jobs.models import Job
from spot.users.models import Group, User
from support import API, assert_error, field_codes

IMPORT = f"{API}/user/import"
HEADER = "login,firstName,lastName,externalId,email,groups,active"


@pytest.fixture
def manager(make_user, login, db):
    make_user("keeper", ["perm_SetPermissions"])
    db.add_all([Group(name="Soudeurs"), Group(name="Caristes")])
    db.commit()
    return login(make_user("manager", ["perm_UserManagement"]))


def send(client, headers, content: bytes | str, **params):
    data = content.encode() if isinstance(content, str) else content
    query = {"dryRun": "true", **{k: str(v).lower() for k, v in params.items()}}
    return client.post(IMPORT, params=query, content=data, headers=headers)


def job_of(client, headers, content: bytes | str, **params) -> dict:
    """An import applied: its job asked for (202, at once), run here, then read back."""
    asked = send(client, headers, content, dryRun=False, **params)
    assert asked.status_code == 202, asked.text
    assert asked.json()["kind"] == "peopleImport"
    runner.run_pending()
    job = client.get(f"{API}/jobs/{asked.json()['id']}", headers=headers).json()
    assert job["status"] in ("succeeded", "failed"), job
    return job


def applied(client, headers, content: bytes | str, **params) -> dict:
    """The report of an import applied (its job's summary)."""
    job = job_of(client, headers, content, **params)
    assert job["status"] == "succeeded", job
    return job["summary"]["report"]


def outcomes(report):
    return [
        (row["line"], row["login"], row["outcome"], [(e["column"], e["code"]) for e in row["errors"]])
        for row in report["rows"]
    ]


FILE = "\n".join(
    [
        HEADER,
        "nina,Nina,Petit,E-1,Nina.Petit@usine.example,Soudeurs,",
        "paul,Paul,Grand,E-2,,Soudeurs|Caristes,oui",
    ]
)


def test_a_dry_run_says_what_each_row_would_do_and_changes_nothing(client, db, manager):
    response = send(client, manager, FILE)
    assert response.status_code == 200, response.text
    report = response.json()
    assert (report["applied"], report["created"], report["refused"]) == (False, 2, 0)
    assert outcomes(report) == [(2, "nina", "created", []), (3, "paul", "created", [])]
    assert [row["name"] for row in report["rows"]] == ["Nina Petit (E-1)", "Paul Grand (E-2)"]
    assert db.scalar(select(User).where(User.login == "nina")) is None


def test_applying_creates_the_people_with_their_groups_and_the_same_file_again_changes_nothing(
    client, db, manager
):
    report = applied(client, manager, FILE)
    assert (report["applied"], report["created"]) == (True, 2)
    nina = db.scalar(select(User).where(User.login == "nina"))
    assert (nina.email, nina.external_id, [g.name for g in nina.groups], nina.active) == (
        "nina.petit@usine.example",
        "E-1",
        ["Soudeurs"],
        True,
    )
    paul = db.scalar(select(User).where(User.login == "paul"))
    assert sorted(g.name for g in paul.groups) == ["Caristes", "Soudeurs"]
    assert paul.password_hash == ""  # signs in through the organisation's provider, not a password
    again = applied(client, manager, FILE)
    assert (again["applied"], again["created"], again["updated"], again["unchanged"]) == (True, 0, 0, 2)


def test_a_file_with_logins_only_names_each_new_person_by_the_login(client, manager):
    report = send(client, manager, "login\nnina\n").json()
    assert [(row["login"], row["name"], row["outcome"]) for row in report["rows"]] == [
        ("nina", "nina", "created")
    ]


def test_rows_are_matched_on_the_external_id_then_the_login(client, db, make_user, manager):
    make_user("ancien", external_id="E-1", first_name="Nina")
    make_user("paul", first_name="P")
    report = applied(client, manager, FILE)
    assert outcomes(report) == [(2, "nina", "updated", []), (3, "paul", "updated", [])]
    db.expire_all()
    renamed = db.scalar(select(User).where(User.external_id == "E-1"))
    assert (renamed.login, renamed.last_name) == ("nina", "Petit")
    assert db.scalar(select(User).where(User.login == "paul")).external_id == "E-2"


def test_a_row_with_active_no_deactivates_and_deactivate_missing_deactivates_the_others(
    client, db, make_user, manager
):
    make_user("parti")
    make_user("paul")
    content = f"{HEADER}\nkeeper,,,,,group-of-keeper,\nnina,Nina,Petit,E-1,,,\npaul,Paul,Grand,E-2,,,non\n"
    report = applied(client, manager, content, deactivateMissing=True)
    assert report["applied"] is True
    by_login = {row["login"]: row["outcome"] for row in report["rows"]}
    assert by_login == {"keeper": "updated", "nina": "created", "paul": "deactivated", "parti": "deactivated"}
    db.expire_all()
    assert not db.scalar(select(User).where(User.login == "parti")).active
    assert db.scalar(select(User).where(User.login == "manager")).active  # who imports stays


def test_an_import_that_would_leave_no_administrator_changes_nothing(client, db, make_user, manager):
    job = job_of(client, manager, FILE, deactivateMissing=True)
    assert (job["status"], job["error"]) == ("failed", "lastAdministrator")
    db.expire_all()
    assert db.scalar(select(User).where(User.login == "keeper")).active
    assert db.scalar(select(User).where(User.login == "nina")) is None


def test_the_last_administrator_is_never_deactivated_by_an_import(client, db, make_user, login):
    admin = login(make_user("seul", ["perm_UserManagement", "perm_SetPermissions"]))
    other = make_user("autre", ["perm_SetPermissions"])
    assert other.active
    report = applied(client, admin, f"{HEADER}\nautre,,,,,,non\n")
    # The one running it stays, and holds the permission: the other may go.
    assert report["applied"] is True
    content = f"{HEADER}\nseul,,,,,,non\n"
    report = applied(client, admin, content)
    assert outcomes(report) == [(2, "seul", "refused", [("active", "cannotDeactivateYourself")])]


@pytest.mark.parametrize(
    ("row", "column", "code"),
    [
        (" espace,,,,,,", "login", "beginEndWhitespaceError"),
        (",Sans,Login,,,,", "login", "emptyFieldError"),
        ("mail,,,,pas-une-adresse,,", "email", "invalidEmail"),
        ("groupe,,,,,Inconnus,", "groups", "unknownGroup"),
        ("actif,,,,,,peut-être", "active", "invalidValue"),
        ('formule,"=HYPERLINK(""http://x.example"",""clic"")",,,,,', "firstName", "formulaNotAllowed"),
    ],
)
def test_a_bad_row_is_refused_with_its_line_column_and_key_and_nothing_is_applied(
    client, db, manager, row, column, code
):
    report = applied(client, manager, f"{FILE}\n{row}\n")
    assert report["applied"] is False and report["refused"] == 1
    assert outcomes(report)[2][2:] == ("refused", [(column, code)])
    assert outcomes(report)[2][0] == 4
    assert db.scalar(select(User).where(User.login == "nina")) is None


def test_duplicates_in_the_file_and_addresses_of_others_are_refused(client, make_user, manager):
    make_user("autre", email="deja@usine.example")
    content = f"{HEADER}\na,,,X,,,\nb,,,X,,,\nc,,,,deja@usine.example,,\nd,,,,,,\nd,,,,,,\n"
    report = send(client, manager, content).json()
    assert [o[2:] for o in outcomes(report)] == [
        ("refused", [("externalId", "duplicateInFile")]),
        ("refused", [("externalId", "duplicateInFile")]),
        ("refused", [("email", "emailAlreadyUsed")]),
        ("refused", [("login", "duplicateInFile")]),
        ("refused", [("login", "duplicateInFile")]),
    ]


@pytest.mark.parametrize(
    ("content", "code", "field"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "badFileFormat", "file"),
        ("login,surnom\nnina,N\n", "unknownColumn", "surnom"),
        ("firstName\nNina\n", "missingColumn", "login"),
        ("login,login\na,b\n", "duplicateColumn", "login"),
        ("", "emptyFile", "file"),
        (b"PK\x03\x04 not really a zip", "badFileFormat", "file"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_whole(client, manager, content, code, field):
    response = send(client, manager, content)
    assert_error(response, 400, code)
    assert field_codes(response) == {(field, code)}


def test_a_file_over_the_upload_limit_is_refused(client, manager):
    assert_error(send(client, manager, b"x" * 30_000_001), 413, "fileTooBig")


def test_excel_s_french_csv_with_a_bom_and_semicolons_and_an_xlsx_read_alike(client, manager):
    french = "\ufeff" + HEADER.replace(",", ";") + "\r\nnina;Nina;Pétit;E-1;;Soudeurs;\r\n"
    report = send(client, manager, french.encode("utf-8")).json()
    assert outcomes(report) == [(2, "nina", "created", [])]
    book = Workbook()
    sheet = book.active
    sheet.append(HEADER.split(","))
    sheet.append(["nina", "Nina", "Pétit", 1234, None, "Soudeurs", True])
    sheet.append(["formule", "=1+1", None, None, None, None, None])
    out = io.BytesIO()
    book.save(out)
    report = send(client, manager, out.getvalue()).json()
    assert outcomes(report) == [
        (2, "nina", "created", []),
        (3, "formule", "refused", [("firstName", "formulaNotAllowed")]),
    ]


def test_only_those_who_manage_users_import(client, make_user, login):
    assert_error(send(client, login(make_user("collegue")), FILE), 403)
    assert_error(client.post(IMPORT, content=FILE.encode()), 401)


def test_the_command_line_prints_the_summary_and_exits_2_on_a_refused_row(db, tmp_path, manager):
    good = tmp_path / "people.csv"
    good.write_text(FILE, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli.app, ["import-users", str(good), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "dry run: created 2, updated 0, unchanged 0, deactivated 0, refused 0" in result.output
    result = runner.invoke(cli.app, ["import-users", str(good)])
    assert result.exit_code == 0, result.output
    assert "applied: created 2" in result.output
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{HEADER}\nx,,,,pas-une-adresse,,\n", encoding="utf-8")
    result = runner.invoke(cli.app, ["import-users", str(bad)])
    assert result.exit_code == 2
    assert "line 2: refused (email: invalidEmail)" in result.output
    db.expire_all()
    assert db.scalar(select(User).where(User.login == "x")) is None


def test_the_uploaded_file_is_kept_with_its_job_until_it_ended(client, db, manager):
    asked = send(client, manager, FILE, dryRun=False).json()
    stored = db.scalar(select(Job.input_file).where(Job.id == asked["id"]))
    assert stored and files.get_file_store().get(stored) == FILE.encode()
    runner.run_pending()
    db.expire_all()
    assert db.scalar(select(Job.input_file).where(Job.id == asked["id"])) is None
    with pytest.raises(ApiError, match="fileNotFound"):
        files.get_file_store().get(stored)
