"""A job's process killed with kill -9 (issue 34, "Faults to survive"): the job is found by its stopped
heartbeat and queued again while it has attempts left, then failed (jobInterrupted); its partial output
is never offered, and the dead process's scratch files are removed. Real `spot worker` processes on the
test database (procrastinate on PostgreSQL, the job table on SQLite)."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from jobs import blocking
from spot import db as database
from spot.core import files
from spot.jobs import runner
from spot.jobs.models import Job
from support import API, assert_error

SCRIPT = Path(blocking.__file__)
DEADLINE_S = 90.0


def _job(job_id: int) -> Job:
    with database.session_factory()() as db:
        job = db.get(Job, job_id)
        assert job is not None
        return job


def _wait_for(job_id: int, ready: Callable[[Job], bool], worker: subprocess.Popen | None = None) -> Job:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        job = _job(job_id)
        if ready(job):
            return job
        assert worker is None or worker.poll() is None, "the worker stopped"
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} never got there: {_job(job_id).status}")


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen]]:
    """Starts `spot worker` processes (with the test kind) beating every 0.2 s: a job is stale 0.6 s
    after its process died. Those still running are stopped after the test."""
    started: list[subprocess.Popen] = []
    backend = Path(__file__).parents[2]

    def start() -> subprocess.Popen:
        env = os.environ | {"SPOT_JOB_HEARTBEAT_SECONDS": "0.2", "PYTHONPATH": str(backend / "tests")}
        log = (tmp_path / f"worker-{len(started)}.log").open("wb")
        worker = subprocess.Popen([sys.executable, str(SCRIPT)], env=env, stdout=log, stderr=log, cwd=backend)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.poll() is None:
            worker.terminate()
            worker.wait(timeout=30)


def _kill(worker: subprocess.Popen) -> None:
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait(timeout=30)


def test_a_job_whose_process_is_killed_is_run_again_then_failed_never_half_offered(
    client: TestClient, db: Session, make_user, login, workers, tmp_path: Path
) -> None:
    owner = make_user("owner")
    headers = login(owner)
    go = tmp_path / "go"
    job_id = runner.enqueue(
        db, owner_id=owner.id, kind=blocking.KIND, parameters={"go": str(go)}, language="fr"
    ).id
    db.commit()
    first = workers()
    # The first half written, the job waits: its process is killed.
    waiting = _wait_for(job_id, lambda job: job.status == "running" and job.done == 1, first)
    assert waiting.attempts == 1
    scratch = files.scratch_folder().parent
    partial = [p for p in scratch.glob("*/job-*") if p.read_bytes() == blocking.FIRST]
    assert partial, "the first run's half-written file is in its scratch folder"
    _kill(first)
    shown = client.get(f"{API}/jobs/{job_id}", headers=headers).json()
    assert shown["can"] == {"download": False} and shown["downloadName"] is None
    assert_error(client.get(f"{API}/jobs/{job_id}/result", headers=headers), 409, "jobNotReady")

    # Another worker finds it stale, queues it again and runs it: a second attempt, from the start.
    second = workers()
    again = _wait_for(
        job_id, lambda job: job.attempts == 2 and job.status == "running" and job.done == 1, second
    )
    assert again.result_file is None
    # The dead process's scratch folder went when the second one started (core.files.clean_scratch).
    assert not any(p.exists() for p in partial)
    _kill(second)

    # Killed again, with no attempt left: failed, and nothing to download.
    third = workers()
    failed = _wait_for(job_id, lambda job: job.status == "failed", third)
    assert (failed.error, failed.result_file, failed.attempts) == ("jobInterrupted", None, 2)
    assert_error(client.get(f"{API}/jobs/{job_id}/result", headers=headers), 409, "jobFailed")

    # A job let through is whole: both halves, written by one run.
    go.touch()
    whole = runner.enqueue(
        db, owner_id=owner.id, kind=blocking.KIND, parameters={"go": str(go)}, language="fr"
    )
    db.commit()
    done = _wait_for(whole.id, lambda job: job.status == "succeeded", third)
    assert done.attempts == 1
    result = client.get(f"{API}/jobs/{whole.id}/result", headers=headers)
    assert result.status_code == 200 and result.content == blocking.FIRST + blocking.REST
