"""Starting a process: the app's modules imported with Python's cycle collector paused.

Importing the app makes a few million objects that live as long as the process (its models, routes,
schemas and compiled patterns). Left running, the collector walks them again and again while they
are made: a quarter of the import's CPU, and a third of the time a test process takes to collect
the backend's tests (docs/performance.md, "The test suite"). Paused, then resumed with what the import
made frozen (out of the collector's sight: none of it is garbage), the import does the same work
without those walks. Every process that imports the app does it: the `spot` command (cli.py), the
OpenAPI document's script and the test processes.
"""

import gc
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def pause_collector() -> None:
    gc.disable()


def resume_collector() -> None:
    """What exists now is frozen, then the collector runs again (for what the process makes next)."""
    gc.freeze()
    gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    pause_collector()
    try:
        yield
    finally:
        resume_collector()


def import_app() -> None:
    """The app's modules (spot.main and all it imports), with the collector paused; once a process."""
    if "spot.main" in sys.modules:
        return
    with collector_paused():
        importlib.import_module("spot.main")
