"""db.off_the_loop: on PostgreSQL the list routes wait for the database in the thread pool, where
their transaction ends; on SQLite they run on the event loop like every other route."""

import asyncio
import threading

import pytest
from sqlalchemy import event, func, select

from spot import db as database
from spot.users.models import User
from support import API


def _on_postgresql() -> bool:
    return database.get_engine().dialect.name == "postgresql"


def _count(login: str) -> int:
    with database.session_factory()() as other:
        return other.scalar(select(func.count()).select_from(User).where(User.login == login)) or 0


def test_the_work_runs_in_the_pool_and_commits_there_on_postgresql(app):
    session = database.session_factory()()
    threads = []

    def work() -> str:
        threads.append(threading.get_ident())
        session.add(User(login="off-the-loop"))
        session.flush()
        return "done"

    assert asyncio.run(database.off_the_loop(session, work)) == "done"
    assert (threads != [threading.get_ident()]) == _on_postgresql()
    # On SQLite the request's commit (db.end_request) is still to come.
    assert _count("off-the-loop") == (1 if _on_postgresql() else 0)
    session.close()


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


def _list_page(client, headers, entity: str, event_name: str, listener) -> None:  # noqa: ANN001
    """A first page of the entity's list, with `listener` on the engine's `event_name` meanwhile."""
    engine = database.get_engine()
    event.listen(engine, event_name, listener)
    try:
        response = client.post(f"{API}/{entity}/query", json={"page": 1}, headers=headers)
    finally:
        event.remove(engine, event_name, listener)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("entity", ["subject", "cartography", "function", "user"])
def test_list_pages_wait_for_postgresql_off_the_event_loop(client, make_user, login, entity):
    headers = login(make_user())
    threads: dict[str, set[int]] = {"session": set(), "page": set()}

    def seen(_conn, _cursor, statement: str, *_args) -> None:  # noqa: ANN001
        if "FROM session_token" in statement:
            threads["session"].add(threading.get_ident())
        elif "LIMIT" in statement:
            threads["page"].add(threading.get_ident())

    _list_page(client, headers, entity, "before_cursor_execute", seen)
    assert len(threads["session"]) == 1 and len(threads["page"]) == 1
    assert (threads["session"] != threads["page"]) == _on_postgresql()


@pytest.mark.parametrize("entity", ["subject", "cartography", "function", "user"])
def test_list_pages_run_each_statement_as_its_own_transaction_on_postgresql(client, make_user, login, entity):
    """A list page writes nothing (db.reads_only): like a GET, no BEGIN and no COMMIT round trip."""
    if not _on_postgresql():
        pytest.skip("PostgreSQL only")
    import psycopg

    headers = login(make_user())
    client.post(f"{API}/{entity}/query", json={"page": 1}, headers=headers)  # fills the map's cache
    statuses: list[object] = []

    def ended(connection, *_args) -> None:  # noqa: ANN001
        statuses.append(connection.connection.dbapi_connection.info.transaction_status)

    _list_page(client, headers, entity, "after_cursor_execute", ended)
    assert statuses and set(statuses) == {psycopg.pq.TransactionStatus.IDLE}
