"""The demo's saved report parameter sets (demo.reports): `formation` and `manager` each open the report
page on a default set of the operators' group this year, the report's defaults otherwise, which selects
the demo's paths; seeding again keeps a set as its owner left it. `formation` also has the zip of PDFs
of that report asked as a job, to download once spot serve has made it."""

import io
import zipfile
from datetime import date

from sqlalchemy import select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.core.time import today
from spot.demo import reports as demo_reports
from spot.jobs import runner
from spot.reports import service
from spot.reports.models import ReportConfiguration
from spot.users.models import Group, User
from support import API

CONFIGURATIONS = f"{API}/account/configuration/trainingPathReports"


def _sets(db) -> list[tuple[str, str, bool]]:
    rows = db.execute(
        select(User.login, ReportConfiguration.name, ReportConfiguration.is_default)
        .join(User, User.id == ReportConfiguration.user_id)
        .order_by(User.login, ReportConfiguration.name)
    )
    return [tuple(row) for row in rows]


def test_formation_and_manager_have_a_default_set_of_the_operators_this_year_seeded_once(
    demo_org, client, db
):
    demo.seed(db)
    db.commit()
    assert _sets(db) == [
        ("formation", demo_reports.NAME, True),
        ("manager", demo_reports.NAME, True),
    ]
    operators = db.scalar(select(Group.id).where(Group.name == demo_reports.GROUP))
    year = today().year
    expected = service.defaults().model_dump(mode="json", by_alias=True)
    for login in demo_reports.OWNERS:
        sets = client.get(CONFIGURATIONS, headers=demo_login(client, db, login)).json()
        assert len(sets) == 1
        saved = sets[0]
        assert saved["name"] == demo_reports.NAME
        assert saved["isDefault"] is True
        assert saved["selectors"] == {
            **expected["selectors"],
            "start": date(year, 1, 1).isoformat(),
            "stop": date(year, 12, 31).isoformat(),
            "groupIdList": [operators],
        }
        assert "disabled" not in saved["selectors"]["moduleStatutes"]
        assert saved["selectors"]["moduleTypes"] == ["training"]
        assert saved["documentOptions"] == {
            **expected["documentOptions"],
            "documentTitle": demo_reports.DOCUMENT_TITLE,
            "managerSignatureLabel": demo_reports.MANAGER_LABEL,
        }
        assert saved["pathOptions"] == expected["pathOptions"]
        assert saved["moduleOptions"] == expected["moduleOptions"]
        assert saved["moduleOptions"]["mediators"] is False


def test_the_saved_set_selects_the_demo_paths_of_the_operators(demo_org, client, db):
    headers = demo_login(client, db, "formation")
    saved = client.get(CONFIGURATIONS, headers=headers).json()[0]
    request = {key: saved[key] for key in ("selectors", "documentOptions", "pathOptions", "moduleOptions")}
    answer = client.post(f"{API}/reports/trainingPaths/paths", json=request, headers=headers)
    assert answer.status_code == 200, answer.text
    table = answer.json()
    assert table["totalItems"] > 0
    learners = {row["learner"]["name"] for row in table["results"]}
    operators = set(
        db.scalars(
            select(User.first_name + " " + User.last_name)
            .join(User.groups)
            .where(Group.name == demo_reports.GROUP)
        )
    )
    assert learners <= operators


def test_seeding_again_keeps_a_set_as_its_owner_left_it(demo_org, client, db):
    headers = demo_login(client, db, "manager")
    saved = client.get(CONFIGURATIONS, headers=headers).json()[0]
    saved["selectors"]["pathStatutes"] = ["started"]
    saved["isDefault"] = False
    assert client.post(CONFIGURATIONS, json=saved, headers=headers).status_code == 204
    demo.seed(db)
    db.commit()
    again = client.get(CONFIGURATIONS, headers=headers).json()
    assert [(s["name"], s["isDefault"], s["selectors"]["pathStatutes"]) for s in again] == [
        (demo_reports.NAME, False, ["started"])
    ]


def test_the_training_manager_has_the_zip_of_that_report_to_download_once_made(demo_org, client, db):
    headers = demo_login(client, db, "formation")
    [job] = client.get(f"{API}/jobs", headers=headers).json()["results"]
    assert (job["kind"], job["status"]) == ("reportZip", "queued")
    runner.run_pending()  # as spot serve's runner does once it starts
    job = client.get(f"{API}/jobs/{job['id']}", headers=headers).json()
    assert job["status"] == "succeeded" and job["total"] > 0 and job["can"] == {"download": True}
    result = client.get(f"{API}/jobs/{job['id']}/result", headers=headers)
    assert result.status_code == 200
    assert len(zipfile.ZipFile(io.BytesIO(result.content)).namelist()) == job["total"]
    demo.seed(db)  # seeding again asks for none while that one is kept
    db.commit()
    assert len(client.get(f"{API}/jobs", headers=headers).json()["results"]) == 1
