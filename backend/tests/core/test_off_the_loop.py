"""db.off_the_loop, which list routes (querylang.lists) run their page with: work that fails leaves
nothing written and gives its connection back."""

import asyncio

import pytest
from sqlalchemy import func, select

from spot import db as database
from spot.users.models import User


def _on_postgresql() -> bool:
    return database.get_engine().dialect.name == "postgresql"


def _count(login: str) -> int:
    with database.session_factory()() as other:
        return other.scalar(select(func.count()).select_from(User).where(User.login == login)) or 0


def test_failed_work_rolls_back_and_gives_its_connection_back(app):
    if not _on_postgresql():
        pytest.skip("inline on SQLite: db.end_request rolls back")
    session = database.session_factory()()
    pool = database.get_engine().pool
    before = pool.checkedout()  # type: ignore[attr-defined]

    def work() -> None:
        session.add(User(login="off-the-loop"))
        session.flush()
        assert pool.checkedout() == before + 1  # type: ignore[attr-defined]
        raise RuntimeError("the work failed")

    with pytest.raises(RuntimeError, match="the work failed"):
        asyncio.run(database.off_the_loop(session, work))
    assert pool.checkedout() == before  # type: ignore[attr-defined]
    assert _count("off-the-loop") == 0
