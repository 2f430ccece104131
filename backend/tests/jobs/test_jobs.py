"""The jobs area (docs/operations.md, "Jobs"): a user's jobs, their progress and result, for their
owner only; the bell and an e-mail when a result is ready; results removed past their time; the
metrics. The runner runs here in the test's thread (jobs.runner.run_pending); test_jobs_killed.py runs
real worker processes."""

from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from jobs import blocking
from spot.core import files
from spot.core.time import utcnow
from spot.jobs import runner
from spot.jobs.models import Job
from spot.notifications.models import NotificationPreference, OutboxMessage
from support import API, assert_error

JOBS = f"{API}/jobs"
LOOPBACK = ("127.0.0.1", 50000)


@pytest.fixture
def go(tmp_path: Path) -> str:
    """The test kind's parameter that lets it finish at once."""
    (tmp_path / "go").touch()
    return str(tmp_path / "go")


def _queue(db: Session, owner_id: int, go: str) -> int:
    job = runner.enqueue(db, owner_id=owner_id, kind=blocking.KIND, parameters={"go": go}, language="fr")
    db.commit()
    return job.id


def test_a_user_s_jobs_newest_first_theirs_only(
    client: TestClient, db: Session, make_user, login, go
) -> None:
    owner, other = make_user("owner"), make_user("other")
    first, second = _queue(db, owner.id, go), _queue(db, owner.id, go)
    _queue(db, other.id, go)
    listed = client.get(JOBS, headers=login(owner)).json()["results"]
    assert [job["id"] for job in listed] == [second, first]
    assert listed[0]["status"] == "queued" and listed[0]["can"] == {"download": False}
    assert client.get(JOBS, headers=login(other)).json()["results"][0]["id"] not in (first, second)
    assert_error(client.get(f"{JOBS}/{first}", headers=login(other)), 404, "jobNotFound")
    assert_error(client.get(f"{JOBS}/{first}/result", headers=login(other)), 404, "jobNotFound")
    assert_error(client.get(f"{JOBS}/999999", headers=login(owner)), 404, "jobNotFound")
    assert client.get(JOBS).status_code == 401


def test_a_ready_result_rings_the_bell_and_mails_its_owner_until_downloaded(
    client: TestClient, db: Session, make_user, login, go
) -> None:
    owner = make_user("owner", email="owner@usine.example")
    headers = login(owner)
    job_id = _queue(db, owner.id, go)
    assert runner.run_pending() == 1
    job = client.get(f"{JOBS}/{job_id}", headers=headers).json()
    assert (job["status"], job["done"], job["total"], job["downloadName"]) == ("succeeded", 2, 2, "test.txt")
    expires = utcnow() + timedelta(hours=24)
    assert abs(_expires(db, job_id) - expires) < timedelta(minutes=5)
    bell = client.get(f"{API}/account/alerts", headers=headers).json()
    assert [(a["kind"], a["args"], a["target"]) for a in bell["alerts"]] == [
        ("jobReady", {"name": "test.txt"}, {"type": "job", "id": job_id})
    ]
    mail = db.scalars(select(OutboxMessage).where(OutboxMessage.kind == "jobReady")).one()
    assert (mail.to_address, mail.status) == ("owner@usine.example", "queued")
    assert "test.txt" in mail.subject and mail.link and mail.link.endswith("/spotv2/jobs")
    result = client.get(f"{JOBS}/{job_id}/result", headers=headers)
    assert result.status_code == 200 and result.content == blocking.FIRST + blocking.REST
    assert result.headers["content-disposition"] == 'attachment; filename="test.txt"'
    assert client.get(f"{API}/account/alerts", headers=headers).json()["count"] == 0


def _expires(db: Session, job_id: int):
    db.expire_all()
    value = db.scalar(select(Job.expires_at).where(Job.id == job_id))
    assert value is not None
    return value


def test_no_mail_for_who_chose_never(client: TestClient, db: Session, make_user, go) -> None:
    owner = make_user("owner", email="owner@usine.example")
    db.add(NotificationPreference(user_id=owner.id, kind="jobReady", mode="never"))
    db.commit()
    _queue(db, owner.id, go)
    runner.run_pending()
    assert db.scalars(select(OutboxMessage)).all() == []


def test_a_result_past_its_time_is_gone_with_its_file(
    client: TestClient, db: Session, make_user, login, go
) -> None:
    owner = make_user("owner")
    headers = login(owner)
    job_id = _queue(db, owner.id, go)
    runner.run_pending()
    stored = db.scalar(select(Job.result_file).where(Job.id == job_id))
    assert stored and files.get_file_store().get(stored) == blocking.FIRST + blocking.REST
    db.execute(update(Job).where(Job.id == job_id).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.commit()
    # Past its time it is unknown at once, then the sweep removes it and its file.
    assert_error(client.get(f"{JOBS}/{job_id}/result", headers=headers), 404, "jobNotFound")
    assert client.get(JOBS, headers=headers).json()["results"] == []
    assert runner.sweep()["expired"] == 1
    assert db.get(Job, job_id) is None
    with pytest.raises(Exception, match="fileNotFound"):
        files.get_file_store().get(stored)


def test_a_person_deleted_goes_with_their_jobs_and_their_files(
    client: TestClient, db: Session, make_user, login, go
) -> None:
    """Jobs are a person's own state: one created by mistake can still be deleted (no userHasHistory),
    and their results leave the store with them."""
    admin = login(make_user("admin", ["perm_UserManagement", "perm_SetPermissions"]))
    owner = make_user("owner")
    job_id = _queue(db, owner.id, go)
    runner.run_pending()
    stored = db.scalar(select(Job.result_file).where(Job.id == job_id))
    assert stored and files.get_file_store().get(stored)
    deleted = client.delete(f"{API}/user/byId/{owner.id}", headers=admin)
    assert deleted.status_code == 204, deleted.text
    db.expire_all()
    assert db.get(Job, job_id) is None
    with pytest.raises(Exception, match="fileNotFound"):
        files.get_file_store().get(stored)


def test_a_stale_run_is_queued_again_then_failed(
    client: TestClient, db: Session, make_user, login, go
) -> None:
    owner = make_user("owner")
    job_id = _queue(db, owner.id, go)
    past = utcnow() - timedelta(hours=1)
    for attempts, status in ((1, "queued"), (2, "failed")):
        running = {"status": "running", "attempts": attempts, "heartbeat_at": past}
        db.execute(update(Job).where(Job.id == job_id).values(**running))
        db.commit()
        runner.sweep()
        db.expire_all()
        assert db.get(Job, job_id).status == status  # type: ignore[union-attr]
    assert client.get(f"{JOBS}/{job_id}", headers=login(owner)).json()["error"] == "jobInterrupted"


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown job kind"):
        runner.enqueue(None, owner_id=1, kind="nope", parameters={}, language="fr")  # type: ignore[arg-type]


def test_the_metrics_count_the_jobs_by_status(app, db: Session, make_user, go) -> None:
    owner = make_user("owner")
    _queue(db, owner.id, go)
    _queue(db, owner.id, go)
    page = TestClient(app, client=LOOPBACK).get("/metrics").text
    assert 'spot_jobs{status="queued"} 2.0' in page
    assert 'spot_jobs{status="failed"} 0.0' in page
