"""Fixtures shared by the account tests."""

from datetime import timedelta

import pytest

from spot.account import throttle
from spot.core.time import utcnow


class _Clock:
    """The throttle's time, moved by the test."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self):
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch) -> _Clock:
    moved = _Clock()
    monkeypatch.setattr(throttle, "utcnow", moved)
    return moved
