from collections.abc import Callable
from pathlib import Path

import pytest

from mapping.maps import Map
from resources.gallery import stored_files


@pytest.fixture
def new_files(test_map: Map) -> Callable[[], set[Path]]:
    """The files stored or being received since the test's map was loaded."""
    before = stored_files()
    return lambda: stored_files() - before
