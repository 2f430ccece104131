"""Who may print labels: anyone who may read the item. The map's visibility (mapping.policy) decides,
through mapping.service's readers, which answer 404 for an unknown item and 403 for a hidden one; a
cartography's sheet holds only the functions and activities the reader sees."""

from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.mapping import service as mapping
from spot.mapping.models import Cartography


def readable_cartography(db: Session, user: Principal, cartography_id: int) -> Cartography:
    """A cartography's sheet may be printed by whoever may read the cartography (else 404, 403)."""
    return mapping.get_cartography(db, user=user, cartography_id=cartography_id)
