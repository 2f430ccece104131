"""Who may do what with a job: its owner only, who asked for it (another user's job is unknown to them:
404). Its result is downloaded once it succeeded and until it expires."""

from datetime import datetime

from spot.core.principal import Principal
from spot.jobs.models import Job, JobStatus
from spot.jobs.schemas import JobCan


def can_read(user: Principal, job: Job) -> bool:
    return job.owner_id == user.id


def can_download(user: Principal, job: Job, *, now: datetime) -> bool:
    return (
        can_read(user, job)
        and job.status == JobStatus.succeeded
        and job.result_file is not None
        and (job.expires_at is None or job.expires_at > now)
    )


def can(user: Principal, job: Job, *, now: datetime) -> JobCan:
    return JobCan(download=can_download(user, job, now=now))
