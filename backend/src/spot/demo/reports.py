"""A saved path report parameter set for the demo's training manager (`formation`) and manager
(`manager`), so that the report page opens on something real after `make run`: the paths of the
operators' group (demo.paths' learners) this year, the report's defaults otherwise (reports.service
.defaults), saved as each one's default set through the report service (its checks included).

Idempotent: a user who has a set of that name keeps it as it is (its parameters may have been changed
on the page)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.reports import service
from spot.reports.models import ReportConfiguration
from spot.reports.schemas import ReportConfigurationSave
from spot.users.models import Group, User

NAME = "Opérateurs, année en cours"
OWNERS = ("formation", "manager")
GROUP = "Opérateurs"
DOCUMENT_TITLE = "Rapport des parcours de formation"
MANAGER_LABEL = "Visa du responsable de formation"


def seed(db: Session) -> None:
    group_id = db.scalar(select(Group.id).where(Group.name == GROUP))
    if group_id is None:
        return
    parameters = service.defaults().model_dump(mode="json", by_alias=True)
    parameters["selectors"]["groupIdList"] = [group_id]
    parameters["documentOptions"] |= {"documentTitle": DOCUMENT_TITLE, "managerSignatureLabel": MANAGER_LABEL}
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
