"""The user's jobs (docs/operations.md, "Jobs"): listing them, one with its progress, and its result.
Queueing and running them is jobs.runner's."""

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from spot.core import files
from spot.core.errors import ApiError, not_found
from spot.core.files import Served
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.jobs import policy
from spot.jobs.models import Job, JobStatus
from spot.jobs.schemas import JobError, JobList, JobOut
from spot.users import service as users

# The newest jobs listed.
LIST_LIMIT = 100


def out(user: Principal, job: Job) -> JobOut:
    summary: dict[str, Any] = dict(job.summary or {})
    errors = [JobError(**error) for error in summary.pop("errors", [])]
    return JobOut(
        id=job.id,
        kind=job.kind,
        status=job.status,  # type: ignore[arg-type]
        done=job.done,
        total=job.total,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        expires_at=job.expires_at,
        download_name=job.download_name if job.status == JobStatus.succeeded else None,
        error=job.error,
        errors=errors,
        summary=summary or None,
        can=policy.can(user, job, now=utcnow()),
    )


def _live(now: Any) -> Any:
    return (Job.expires_at.is_(None)) | (Job.expires_at > now)


def get(db: Session, *, user: Principal, job_id: int) -> Job:
    """The caller's job; 404 jobNotFound for an unknown one, another user's, or one past its time."""
    job = db.scalar(select(Job).where(Job.id == job_id, _live(utcnow())))
    if job is None or not policy.can_read(user, job):
        raise not_found("jobNotFound")
    return job


def listed(db: Session, *, user: Principal) -> JobList:
    jobs = db.scalars(
        select(Job)
        .where(Job.owner_id == user.id, _live(utcnow()))
        .order_by(Job.created_at.desc(), Job.id.desc())
        .limit(LIST_LIMIT)
    )
    return JobList(results=[out(user, job) for job in jobs])


def result(db: Session, *, user: Principal, job_id: int) -> Served:
    """The job's result to download (the first download ends the bell's alert); 404 jobNotFound, 409
    jobNotReady while it is queued or running, 409 jobFailed when it failed."""
    job = get(db, user=user, job_id=job_id)
    if not policy.can_download(user, job, now=utcnow()):
        raise ApiError(409, "jobFailed" if job.status == JobStatus.failed else "jobNotReady")
    assert job.result_file is not None
    if job.downloaded_at is None:
        db.execute(update(Job).where(Job.id == job.id).values(downloaded_at=utcnow()))
    filename = job.download_name or job.result_file
    return Served(
        ref=job.result_file,
        media_type=job.media_type or "application/octet-stream",
        headers={
            "ETag": f'"{job.result_file}"',
            "Content-Disposition": f'attachment; filename="{filename}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, no-cache",
        },
    )


def _forget_owner(db: Session, user_id: int) -> None:
    """A person deleted (users.service.remove): their jobs go with them, and the jobs' files."""
    for job in db.scalars(select(Job).where(Job.owner_id == user_id)):
        files.retired(db, job.result_file)
        files.retired(db, job.input_file)
        db.delete(job)


users.on_removal.append(_forget_owner)
