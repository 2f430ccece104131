"""The demo's documents (docs/documents.md): a first version of the DUERP of the Usine de Lyon, generated
by the manager (`manager`, perm_TableauBord) through the documents' service, so that the site's Documents
page has a version to open and its PDF and workbook something to print (the demo map's bundle carries
the prevention measures of its risks, spot.demo.mapping.MEASURES).

Idempotent: a version is generated only when the site has none (a second seed keeps the versions people
generated, as a plant keeps them)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core.i18n import Language
from spot.demo.mapping import SITE_CODE
from spot.documents import policy, service
from spot.documents.models import SiteDocument
from spot.mapping.models import Site
from spot.users.models import User

GENERATED_BY = "manager"
LANGUAGE: Language = "fr"


def seed(db: Session) -> None:
    site_id = db.scalar(select(Site.id).where(Site.code == SITE_CODE))
    manager_id = db.scalar(select(User.id).where(User.login == GENERATED_BY))
    if site_id is None or manager_id is None:
        return
    if db.scalar(select(SiteDocument.id).where(SiteDocument.site_id == site_id)) is not None:
        return
    manager = principal_of(db, user_id=manager_id)
    # An organisation whose `manager` was there before the demo keeps its own rights: nothing is generated.
    if not (policy.can_generate(manager) and policy.can_read(db, manager, site_id)):
        return
    service.generate_duerp(db, user=manager, site_id=site_id, language=LANGUAGE)
