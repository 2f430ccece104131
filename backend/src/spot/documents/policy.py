"""Who may do what with a site's documents (docs/documents.md): reading a site's documents needs the
whole site in view (every cartography, function and activity of it: a DUERP prints every risk);
generating one also needs perm_TableauBord."""

from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.documents.schemas import SiteDocumentsCan
from spot.mapping import policy as mapping_policy
from spot.permissions.names import Permission


def can_read(db: Session, user: Principal, site_id: int) -> bool:
    return mapping_policy.may_see_whole_site(db, user, site_id)


def can_generate(user: Principal) -> bool:
    """Of someone who may read the site's documents."""
    return Permission.TableauBord in user.permission_names


def can(user: Principal) -> SiteDocumentsCan:
    return SiteDocumentsCan(generate=can_generate(user))
