"""A saved path report parameter set for the demo's training manager (`formation`) and manager
(`manager`), so that the report page opens on something real after `make run`: the paths of the
operators' group (demo.paths' learners) this year, the report's defaults otherwise (reports.service
.defaults), saved as each one's default set through the report service (its checks included); and the training
manager's zip of PDFs of it, asked as a job (seed_job).

Idempotent: a user who has a set of that name keeps it as it is (its parameters may have been changed
on the page)."""

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.jobs import runner
from spot.jobs.models import Job
from spot.reports import jobs, service
from spot.reports.models import ReportConfiguration
from spot.reports.schemas import ReportConfigurationSave, ReportRequest
from spot.users.models import Group, User

NAME = "Opérateurs, année en cours"
OWNERS = ("formation", "manager")
GROUP = "Opérateurs"
DOCUMENT_TITLE = "Rapport des parcours de formation"
MANAGER_LABEL = "Visa du responsable de formation"


def _parameters(db: Session) -> dict[str, Any] | None:
    """The report on the operators' group this year, as the demo's sets and job have it."""
    group_id = db.scalar(select(Group.id).where(Group.name == GROUP))
    if group_id is None:
        return None
    parameters = service.defaults().model_dump(mode="json", by_alias=True)
    parameters["selectors"]["groupIdList"] = [group_id]
    parameters["documentOptions"] |= {"documentTitle": DOCUMENT_TITLE, "managerSignatureLabel": MANAGER_LABEL}
    return parameters


def seed_job(db: Session) -> None:
    """The training manager's zip of PDFs of that report, asked as a job, so that My jobs and the bell
    show a result to download once `spot serve` has made it (a job is kept SPOT_JOB_RESULT_HOURS: a
    later start asks for it again when it has gone)."""
    parameters = _parameters(db)
    user_id = db.scalar(select(User.id).where(User.login == OWNERS[0]))
    if parameters is None or user_id is None:
        return
    if db.scalar(select(Job.id).where(Job.owner_id == user_id, Job.kind == jobs.ZIP)) is not None:
        return
    request = ReportRequest.model_validate(parameters)
    runner.enqueue(db, owner_id=user_id, kind=jobs.ZIP, parameters=jobs.parameters(request), language="fr")


def seed(db: Session) -> None:
    parameters = _parameters(db)
    if parameters is None:
        return
    body = ReportConfigurationSave.model_validate({**parameters, "name": NAME, "isDefault": True})
    for login in OWNERS:
        user_id = db.scalar(select(User.id).where(User.login == login))
        if user_id is None:
            continue
        saved = select(ReportConfiguration.id).where(
            ReportConfiguration.user_id == user_id, ReportConfiguration.name == NAME
        )
        if db.scalar(saved) is not None:
            continue
        service.save_configuration(db, user=principal_of(db, user_id=user_id), body=body)
