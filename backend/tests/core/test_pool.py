"""The pool hands out the connection given back last (db.POOL): on SQLite, a connection that has
not served the latest requests reads again the pages their writes changed."""

from sqlalchemy import event

from spot import db as database
from support import API


def _held(count: int) -> list[object]:
    """Check `count` connections out at once, then give them back in order; their DB-API objects."""
    engine = database.get_engine()
    connections = [engine.connect() for _ in range(count)]
    dbapi = [c.connection.dbapi_connection for c in connections]
    for connection in connections:
        connection.close()
    return dbapi


def test_the_last_connection_given_back_serves_next(app):
    first, _, last = _held(3)
    with database.get_engine().connect() as connection:
        assert connection.connection.dbapi_connection is last
        assert connection.connection.dbapi_connection is not first


def test_requests_in_a_row_keep_one_connection(app, client, make_user, login):
    headers = login(make_user())
    _held(3)
    served: list[object] = []

    def checkout(dbapi_connection, _record, _proxy) -> None:  # noqa: ANN001
        served.append(dbapi_connection)

    event.listen(database.get_engine(), "checkout", checkout)
    try:
        for _ in range(3):
            assert client.get(f"{API}/account/whoAmI", headers=headers).status_code == 200
    finally:
        event.remove(database.get_engine(), "checkout", checkout)
    assert len(served) == 3
    assert len({id(c) for c in served}) == 1
