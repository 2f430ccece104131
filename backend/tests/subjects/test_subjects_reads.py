import pytest

from mapping.maps import FILES
from support import API, assert_error


def test_subject_payload(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/subject/{test_map.subject('S3')}", headers=headers).json()
    site = {"id": test_map.site_id, "code": "TST", "name": "Site de test", "type": "site"}
    c1 = {"id": test_map.cartography("C1"), "code": "C1", "name": "Atelier de test", "type": "cartography"}
    f1 = {"id": test_map.function("F1"), "code": "F1", "name": "Opérateur régleur", "type": "function"}
    chain = [
        {"id": test_map.activity(c), "code": c, "name": n, "type": "activity"}
        for c, n in (("A1", "Usinage"), ("A12", "Fraisage"), ("A121", "Ébavurage"))
    ]
    assert body["contexts"] == [[site, c1, f1], [site, c1, *chain]]
    assert body["ancestors"] == [site, c1, f1, *chain]
    assert (body["code"], body["name"], body["type"]) == ("S3", "Ébavurer", "quality")
    assert body["ratings"] == {"frequency": 0, "gravity": 0, "detectability": 0}
    assert body["pictureUrl"] is None
    assert body["hasDiagram"] is False
    assert set(body["lifetimeEvents"]) == {
        "creation",
        "lastUpdate",
        "followed",
        "resolved",
        "criticity",
        "standardized",
    }
    assert body["lifetimeEvents"]["creation"]["userId"] is None  # imported by the command line
    assert "discussionId" not in body


def test_subject_picture(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers).json()
    assert body["pictureUrl"] == f"{API}/subject/{test_map.subject('S1')}/picture"
    assert (body["criticity"], body["criticityLevel"], body["hasDiagram"]) == (48, "medium", True)
    picture = client.get(body["pictureUrl"], headers=headers)
    assert picture.content == FILES["photo.jpg"]
    assert picture.headers["content-type"] == "image/jpeg"
    assert picture.headers["x-content-type-options"] == "nosniff"
    assert_error(client.get(f"{API}/subject/{test_map.subject('S2')}/picture", headers=headers), 404)


def test_function_view(client, test_map, make_user, login):
    headers = login(make_user())
    body = client.get(f"{API}/function/{test_map.function('F1')}", headers=headers).json()
    assert (body["code"], body["name"], body["cartographyId"]) == (
        "F1",
        "Opérateur régleur",
        test_map.cartography("C1"),
    )
    assert [e["type"] for e in body["context"]] == ["site", "cartography"]
    tables = {a["code"]: [s["code"] for s in a["subjects"]] for a in body["activities"]}
    # S1 is in A11 and S3 in A121: both under A1. A2 has no subject of F1 but still has its table.
    assert tables == {"A1": ["S1", "S3"], "A2": []}
    s1 = body["activities"][0]["subjects"][0]
    assert (s1["mainNodeStatus"], s1["criticityLevel"]) == ("inProgress", "medium")
    assert_error(client.get(f"{API}/function/{test_map.activity('A1') + 1000}", headers=headers), 404)


def test_reads_count_in_the_cartography_stats(client, test_map, make_user, login):
    headers = login(make_user())
    cartography = f"{API}/cartography/{test_map.cartography('C1')}"
    before = client.get(cartography, headers=headers).json()["stats"]
    client.get(f"{API}/subject/{test_map.subject('S1')}", headers=headers)
    client.get(f"{API}/function/{test_map.function('F1')}", headers=headers)
    client.post(f"{API}/subject/{test_map.subject('S1')}/follow", headers=headers)
    client.get(f"{API}/subject/{test_map.subject('T1')}", headers=headers)  # another cartography
    after = client.get(cartography, headers=headers).json()["stats"]
    assert after == {"reads": before["reads"] + 3, "writes": before["writes"] + 1}


def test_only_the_reads_of_a_get_are_committed_without_waiting_for_the_disk(
    client, test_map, make_user, login
):
    """On PostgreSQL a GET, which writes only the tracking of reads, runs each statement as its own
    transaction (no BEGIN, no COMMIT round trip), and its read entry's own transaction turns
    synchronous_commit off; a write keeps one durable transaction. SQLite is never sent either."""
    import psycopg
    from sqlalchemy import event

    from spot import db as database

    engine = database.get_engine()
    if engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only")
    headers = login(make_user(permissions=["perm_EditPdv"]))
    entries: list[tuple[bool, dict]] = []  # after each history INSERT: was its transaction over, its values
    at_commit: list[str] = []

    def entry(connection, _cursor, statement: str, values: dict, *_args) -> None:  # noqa: ANN001
        if "INSERT INTO history_entry" in statement:
            status = connection.connection.dbapi_connection.info.transaction_status
            entries.append((status == psycopg.pq.TransactionStatus.IDLE, values))

    def setting(connection) -> None:  # noqa: ANN001 (read on the raw connection, before its commit)
        with connection.connection.dbapi_connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            at_commit.append(cursor.fetchone()[0])

    event.listen(engine, "after_cursor_execute", entry)
    event.listen(engine, "commit", setting)
    try:
        subject = test_map.subject("S3")
        assert client.get(f"{API}/subject/{subject}", headers=headers).status_code == 200
        read = list(entries)
        entries.clear()
        at_commit.clear()
        assert client.post(f"{API}/subject/{subject}/follow", headers=headers).status_code == 200
        wrote = list(entries)
    finally:
        event.remove(engine, "after_cursor_execute", entry)
        event.remove(engine, "commit", setting)
    [(read_committed, read_values)] = read
    assert read_committed  # by itself, as the statement ended
    assert (read_values["set_config_1"], read_values["set_config_2"]) == ("synchronous_commit", "off")
    assert [committed for committed, _ in wrote] == [False]  # the follow's transaction goes on
    assert at_commit == ["on"]


def test_a_subject_page_on_postgresql_writes_its_read_and_its_visit_in_one_statement(
    client, db, test_map, make_user, login
):
    from sqlalchemy import event, func, select

    from spot import db as database
    from spot.history.models import HistoryEntry
    from spot.subjects.models import SubjectVisit

    engine = database.get_engine()
    if engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only: SQLite has no INSERT in a WITH clause")
    user = make_user()
    headers = login(user)
    writes: list[str] = []

    def listener(_conn, _cursor, statement, _parameters, _context, _executemany) -> None:  # noqa: ANN001
        # A read may open with the WITH RECURSIVE of the visibility rule (spot.mapping.policy).
        if any(word in statement.upper() for word in ("INSERT INTO", "UPDATE ", "DELETE FROM")):
            writes.append(statement)

    subject = test_map.subject("S3")
    event.listen(engine, "before_cursor_execute", listener)
    try:
        assert client.get(f"{API}/subject/{subject}", headers=headers).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert len(writes) == 1 and "subject_visit" in writes[0] and "history_entry" in writes[0]
    visit = db.scalar(select(SubjectVisit.visited_at).where(SubjectVisit.user_id == user.id))
    read = db.scalar(
        select(func.max(HistoryEntry.at)).where(HistoryEntry.user_id == user.id, HistoryEntry.mode == "R")
    )
    assert visit is not None and visit == read
