"""Telling a job's owner that its result is ready: the bell shows it (jobs.alerts) until they download
it, and an e-mail goes through the outbox, as they chose for the kind `jobReady`
(docs/notifications.md), in the transaction that marks the job succeeded."""

from sqlalchemy.orm import Session

from spot.alerts.schemas import AlertKind
from spot.config import get_settings
from spot.core import i18n
from spot.jobs.models import Job
from spot.notifications import outbox
from spot.notifications.compose import compose
from spot.users.models import User

# The client's page of the person's jobs (frontend lib/paths jobsPath).
JOBS_PAGE = "/jobs"


def ready(db: Session, *, job_id: int) -> None:
    """Queue the e-mail that the job's result is ready (nothing for a job without a file)."""
    job = db.get(Job, job_id)
    if job is None or job.result_file is None:
        return
    user = db.get(User, job.owner_id)
    if user is None:
        return
    language: i18n.Language = "en" if user.language == "en" else "fr"
    name = job.download_name or ""
    hours = get_settings().job_result_hours
    content = compose(
        language,
        name=user.first_name or user.login,
        subject=i18n.text(language, "mail.job_ready_subject", name=name),
        paragraphs=[i18n.text(language, "mail.job_ready_body", name=name, hours=hours)],
        path=JOBS_PAGE,
    )
    outbox.queue(
        db, user=user, kind=AlertKind.jobReady.value, content=content, dedupe_key=f"jobReady:{job_id}"
    )
