"""A course package's import is a job (docs/learning-platform.md, docs/operations.md "Jobs"): the request
checks the package and answers at once with the job; the job writes the course, and its summary is what
the upload dialog shows."""

import pytest
from sqlalchemy import func, select

from lms.conftest import COURSE_ID, MANAGER, course_package, leaves, zip_of
from spot.core import files
from spot.core.errors import ApiError
from spot.jobs import runner
from spot.jobs.models import Job
from spot.lms.models import LmsCourse
from support import API, assert_error, field_codes

COURSES = f"{API}/lms/courses"
JOBS = f"{API}/jobs"
ZIP = {"Content-Type": "application/zip"}


def test_the_request_answers_at_once_with_a_job_then_the_job_imports_the_course(client, db, make_user, login):
    manager = make_user("manager", [MANAGER])
    headers = login(manager)
    data = course_package()

    asked = client.post(COURSES, content=data, headers={**headers, **ZIP})

    assert asked.status_code == 202, asked.text
    job = asked.json()
    assert (job["kind"], job["status"], job["summary"]) == ("courseImport", "queued", None)
    # Nothing imported yet: the package waits in the store, with the job.
    assert db.scalar(select(func.count()).select_from(LmsCourse)) == 0
    stored = db.get(Job, job["id"]).input_file
    assert stored and files.get_file_store().get(stored) == data

    assert runner.run_pending() == 1

    done = client.get(f"{JOBS}/{job['id']}", headers=headers).json()
    assert done["status"] == "succeeded", done
    db.expire_all()
    course = db.scalars(select(LmsCourse).where(LmsCourse.activity_id == COURSE_ID)).one()
    assert done["summary"] == {"id": course.id, "title": "Cours de test", "created": True, "items": 3}
    assert course.imported_by == manager.id
    # The course's content is the package, kept under a key of its own; the job's copy is gone.
    assert files.get_file_store().get(course.content_key) == data
    assert db.get(Job, job["id"]).input_file is None
    with pytest.raises(ApiError, match="fileNotFound"):
        files.get_file_store().get(stored)
    tree = client.get(f"{COURSES}/{course.id}", headers=headers)
    assert tree.status_code == 200, tree.text
    assert set(leaves(tree.json())) == {"Lecture", "Quiz", "Examen"}


def test_the_same_package_again_updates_the_course_and_says_so(client, manager):
    first = client.post(COURSES, content=course_package(), headers={**manager, **ZIP}).json()
    runner.run_pending()
    second = client.post(COURSES, content=course_package(), headers={**manager, **ZIP}).json()
    runner.run_pending()
    created = client.get(f"{JOBS}/{first['id']}", headers=manager).json()["summary"]
    updated = client.get(f"{JOBS}/{second['id']}", headers=manager).json()["summary"]
    assert created["created"] is True and updated["created"] is False
    assert updated["id"] == created["id"]


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        (zip_of({"index.html": "<html></html>"}), "cmi5.xml, imsmanifest.xml", "notFound"),
        (b"PK not really a zip", "package", "notAZipFile"),
        (b"", "package", "notAZipFile"),
    ],
)
def test_a_bad_package_is_refused_at_once_and_queues_nothing(client, db, manager, data, field, code):
    response = client.post(COURSES, content=data, headers={**manager, **ZIP})
    assert_error(response, 400, "invalidCoursePackage")
    assert field_codes(response) == {(field, code)}
    assert db.scalar(select(func.count()).select_from(Job)) == 0
    assert client.get(JOBS, headers=manager).json()["results"] == []


def test_a_package_over_the_limit_is_refused_at_once(client, db, manager, settings_env):
    settings_env(SPOT_COURSE_MAX_BYTES="5000")
    response = client.post(COURSES, content=b"0" * 5001, headers={**manager, **ZIP})
    assert_error(response, 413, "fileTooBig")
    assert db.scalar(select(func.count()).select_from(Job)) == 0


def test_another_user_cannot_read_the_job(client, make_user, login, manager):
    other = login(make_user("other", [MANAGER]))
    job = client.post(COURSES, content=course_package(), headers={**manager, **ZIP}).json()
    runner.run_pending()
    assert_error(client.get(f"{JOBS}/{job['id']}", headers=other), 404, "jobNotFound")
    assert client.get(JOBS, headers=other).json()["results"] == []
    assert client.get(f"{JOBS}/{job['id']}", headers=manager).json()["status"] == "succeeded"


def test_only_training_managers_import(client, db, make_user, login):
    learner = login(make_user("learner"))
    response = client.post(COURSES, content=course_package(), headers={**learner, **ZIP})
    assert response.status_code == 403, response.text
    assert db.scalar(select(func.count()).select_from(Job)) == 0
