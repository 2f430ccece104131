import pytest

from mapping.maps import restrict
from support import API, assert_error


def codes(client, headers, filter="", sort="code", **extra):
    response = client.post(
        f"{API}/subject/query", json={"filter": filter, "sort": sort, **extra}, headers=headers
    )
    assert response.status_code == 200, response.text
    return [s["code"] for s in response.json()["results"]]


@pytest.fixture
def reader(make_user, login):
    return login(make_user("liseur"))


def test_query_lists_visible_subjects_as_cards(client, db, test_map, make_user, login):
    user = make_user("carte")
    headers = login(user)
    body = client.post(f"{API}/subject/query", json={"sort": "code"}, headers=headers).json()
    assert body["totalItems"] == 4
    assert [s["code"] for s in body["results"]] == ["S1", "S2", "S3", "T1"]
    s1 = body["results"][0]
    assert [e["type"] for e in s1["contexts"][0]] == ["site", "cartography", "function"]
    assert (s1["mainNodeStatus"], s1["criticityLevel"]) == ("inProgress", "medium")
    restrict(db, user, test_map.cartography("C2"))
    assert codes(client, headers) == ["T1"]


def test_paging(client, test_map, reader):
    first = client.post(
        f"{API}/subject/query", json={"sort": "code", "page": 1, "pageSize": 3}, headers=reader
    ).json()
    second = client.post(
        f"{API}/subject/query", json={"sort": "code", "page": 2, "pageSize": 3}, headers=reader
    ).json()
    assert [s["code"] for s in first["results"]] == ["S1", "S2", "S3"]
    assert [s["code"] for s in second["results"]] == ["T1"]
    assert first["totalItems"] == second["totalItems"] == 4


def test_location_matches_any_context_item(client, test_map, reader):
    m = test_map
    assert codes(client, reader, f"location oneOf {m.site_id}") == ["S1", "S2", "S3", "T1"]
    assert codes(client, reader, f"location oneOf {m.cartography('C2')}") == ["T1"]
    assert codes(client, reader, f"location oneOf {m.function('F1')}") == ["S1", "S3"]
    assert codes(client, reader, f"location oneOf {m.activity('A1')}") == ["S1", "S3"]
    assert codes(client, reader, f"location oneOf {m.activity('A12')}") == ["S3"]
    # The function view's activity headings: both conditions.
    assert codes(
        client, reader, f"location oneOf {m.function('F1')} & location oneOf {m.activity('A12')}"
    ) == ["S3"]
    assert codes(client, reader, f"location noneOf {m.cartography('C1')}") == ["T1"]


def test_hierarchy_ids_never_collide(test_map, db):
    from sqlalchemy import select

    from spot.mapping.models import Activity, Cartography, Function, Site

    ids = [i for model in (Site, Cartography, Activity, Function) for i in db.scalars(select(model.id))]
    assert len(ids) == len(set(ids))


def test_activity_function_and_text_fields(client, test_map, reader):
    m = test_map
    assert codes(client, reader, f"activity oneOf {m.activity('A1')}") == ["S1", "S3"]
    assert codes(client, reader, f"function oneOf {m.function('F2')},{m.function('G1')}") == ["S2", "T1"]
    assert codes(client, reader, "name contains ebavur") == ["S3"]
    assert codes(client, reader, "type oneOf quality") == ["S2", "S3"]
    assert codes(client, reader, "node_status oneOf inProgress") == ["S1"]
    assert codes(client, reader, "node_status noneOf inProgress") == ["S2", "S3", "T1"]


def test_marks_criticity_and_people(client, test_map, make_user, login, reader):
    m = test_map
    marker = make_user("marqueur", ["perm_ValidNotHaute"])
    headers = login(marker)
    client.post(f"{API}/subject/{m.subject('S2')}/follow", headers=headers)
    client.post(f"{API}/subject/{m.subject('T1')}/resolve", headers=headers)
    client.post(f"{API}/subject/{m.subject('S3')}/standardize", headers=headers)
    client.post(
        f"{API}/subject/{m.subject('S2')}/rate",
        json={"frequency": 5, "gravity": 5, "detectability": 0},
        headers=headers,
    )
    assert codes(client, reader, "followed equals true") == ["S2", "T1"]
    assert codes(client, reader, "resolved equals true") == ["T1"]
    assert codes(client, reader, f"followed_by oneOf {marker.id}") == ["S2", "T1"]
    assert codes(client, reader, "standardized equals false") == ["S1", "S2", "T1"]
    assert codes(client, reader, "criticity oneOf high") == ["S2"]
    assert codes(client, reader, "criticity oneOf medium") == ["S1"]
    assert codes(client, reader, "criticity oneOf none") == ["S3", "T1"]
    assert codes(client, reader, "criticity oneOf low,medium,high", sort="-criticity") == ["S2", "S1"]
    assert codes(client, reader, f"criticity_by oneOf {marker.id}") == ["S2"]
    assert codes(client, reader, f"contributors oneOf {marker.id}") == ["S2", "S3", "T1"]
    assert codes(client, reader, f"updated_by oneOf {marker.id}") == ["S2", "S3", "T1"]
    assert codes(client, reader, "created_date after 2000-01-01") == ["S1", "S2", "S3", "T1"]
    assert codes(client, reader, "followed_date before 2000-01-01") == []
    assert codes(client, reader, "", sort="-updated_date")[0] in ("S2", "S3", "T1")


@pytest.mark.parametrize(
    "body",
    [
        {"filter": "name contains"},
        {"filter": "colour oneOf red"},
        {"filter": "criticity oneOf extreme"},
        {"filter": "a & b | c"},
        {"sort": "location"},
        {"sort": "function"},
    ],
)
def test_bad_queries_answer_400(client, test_map, reader, body):
    assert_error(client.post(f"{API}/subject/query", json=body, headers=reader), 400)


def test_query_fields_are_offered(client, reader):
    fields = client.get(f"{API}/querylang/subject/fields", headers=reader).json()["fields"]
    names = {f["name"] for f in fields}
    spec = (
        "location name activity function node_status contributors created_by created_date updated_by "
        "updated_date followed followed_by followed_date resolved resolved_by resolved_date criticity "
        "criticity_by criticity_date standardized standardized_by standardized_date"
    ).split()
    assert set(spec) <= names


def test_on_postgresql_a_contains_filter_can_use_the_trigram_indexes(db) -> None:
    """`name contains x` is a LIKE '%x%', which only a trigram index serves (migration 7c1e5a9d2b40)."""
    from sqlalchemy import select, text

    from spot.mapping.models import Subject
    from spot.querylang import compile_filter, parse_filter
    from spot.subjects.query import SUBJECT

    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("PostgreSQL only")
    for field in ("name", "code"):
        tree = parse_filter(f"{field} contains pompe", SUBJECT)
        statement = select(Subject.id).where(compile_filter(tree, SUBJECT))
        compiled = statement.compile(db.get_bind(), compile_kwargs={"literal_binds": True})
        # An empty table reads fastest whole: make the planner say what it would do on a large one.
        for scan in ("seqscan", "indexscan", "indexonlyscan"):
            db.execute(text(f"SET LOCAL enable_{scan} = off"))
        plan = "\n".join(row[0] for row in db.connection().exec_driver_sql(f"EXPLAIN {compiled}"))
        assert f"ix_subject_{field}_folded_trigrams" in plan, plan
    db.rollback()
