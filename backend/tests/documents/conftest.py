import pytest
from sqlalchemy.orm import Session

from mapping.maps import Map, load


@pytest.fixture
def test_map(db: Session) -> Map:
    return load(db)
