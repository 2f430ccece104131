"""The bell's job kind: jobReady, the results of the user's jobs that are ready and that they have not
downloaded yet (until they expire)."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.jobs.models import Job, JobStatus


def ready_jobs(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    rows = db.execute(
        select(Job.id, Job.download_name, Job.finished_at, func.count().over())
        .where(
            Job.owner_id == user.id,
            Job.status == JobStatus.succeeded,
            Job.result_file.is_not(None),
            Job.downloaded_at.is_(None),
            Job.expires_at > utcnow(),
        )
        .order_by(Job.finished_at.desc(), Job.id.desc())
        .limit(limit)
    ).all()
    alerts = [
        Alert(
            kind=AlertKind.jobReady,
            args={"name": name or ""},
            date=finished_at,
            target=AlertTarget(type="job", id=job_id),
        )
        for job_id, name, finished_at, _count in rows
    ]
    return alerts, rows[0][3] if rows else 0


bell.register(AlertKind.jobReady, ready_jobs)
