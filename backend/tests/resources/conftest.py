from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from mapping.maps import Map, load
from resources.gallery import stored_files


@pytest.fixture
def test_map(db: Session) -> Map:
    return load(db)


@pytest.fixture
def new_files(test_map: Map) -> Callable[[], set[Path]]:
    """The files stored or being received since the test's map was loaded."""
    before = stored_files()
    return lambda: stored_files() - before
