import pytest
from sqlalchemy.orm import Session

from mapping.maps import SECOND_SITE, Map, load


@pytest.fixture
def two_sites(db: Session, test_map: Map) -> Map:
    load(db, SECOND_SITE)
    return test_map
