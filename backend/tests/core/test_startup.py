"""A process imports the app with the cycle collector paused, then runs with it (core.startup)."""

import gc
import subprocess
import sys

from spot.core import startup


def test_the_app_is_imported_once_and_the_collector_runs_after() -> None:
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gc, sys\n"
            "from spot.core import startup\n"
            "startup.import_app()\n"
            "print(gc.isenabled(), 'spot.main' in sys.modules, gc.get_freeze_count() > 0)\n",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.split() == ["True", "True", "True"]


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
