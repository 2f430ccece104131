import pytest
from sqlalchemy.orm import Session

from mapping.maps import SECOND_SITE, Map, load


@pytest.fixture
def two_sites(db: Session, test_map: Map) -> Map:
    """The test map and a second site (SEC: cartography C3, activity E1, functions H1 and H2)."""
    load(db, SECOND_SITE)
    return test_map
