"""A process imports the app with the cycle collector paused, then runs with it (core.startup)."""

import gc
import importlib
import sys

from spot.core import startup


def test_the_app_is_imported_once_with_the_collector_paused(monkeypatch) -> None:
    seen: list[tuple[str, bool]] = []
    monkeypatch.delitem(sys.modules, "spot.main")
    monkeypatch.setattr(importlib, "import_module", lambda name: seen.append((name, gc.isenabled())))
    startup.import_app()
    assert seen == [("spot.main", False)]
    assert gc.isenabled()
    monkeypatch.setitem(sys.modules, "spot.main", importlib)  # imported: not again
    startup.import_app()
    assert len(seen) == 1


def test_the_collector_runs_again_after_a_pause_even_on_an_error() -> None:
    try:
        with startup.collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("an import failed")
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_the_tests_run_with_the_collector_on() -> None:
    """tests/conftest.py paused it for the collection: it runs for the tests themselves."""
    assert gc.isenabled()
