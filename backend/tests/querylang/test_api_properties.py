"""Whatever a client sends to a list or to saved filters, the server answers without failing:
200/204 for good queries, 400 with a position for bad ones, 422 for out-of-range fields."""

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from querylang.strategies import ANY_TEXT, sort_keys, trees
from spot.permissions.models import GroupPermission
from spot.querylang import get_entity, print_filter, print_sort
from spot.querylang.parser import MAX_ID
from support import API

USER = get_entity("user")
filters = st.text(max_size=60) | trees(USER, ANY_TEXT, st.dates(), st.integers(0, 2 * MAX_ID), ANY_TEXT).map(
    print_filter
)
sorts = st.text(max_size=20) | sort_keys(USER).map(print_sort)
fuzz = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def headers(make_user, login, db) -> dict[str, str]:
    users = [make_user(f"user{n}", first_name=name) for n, name in enumerate(["Éva", "eve", "Zoé", "Ana"])]
    users[0].groups[0].permissions.append(GroupPermission(name="perm_UserManagement"))
    users[0].groups.append(users[1].groups[0])
    db.commit()
    return login(users[0])


@fuzz
@given(filter=filters, sort=sorts, page=st.integers(1, 1_000_000), page_size=st.integers(1, 200))
def test_user_queries_never_fail(client: TestClient, headers, filter, sort, page, page_size) -> None:
    body = {"filter": filter, "sort": sort, "page": page, "pageSize": page_size}
    response = client.post(f"{API}/user/query", json=body, headers=headers)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        (error,) = response.json()["errors"]
        assert error["field"] in ("filter", "sort")
        assert 0 <= error["position"] <= len(body[error["field"]])
    parsed = client.post(
        f"{API}/querylang/user/parse", json={"filter": filter, "sort": sort}, headers=headers
    )
    assert parsed.status_code == response.status_code


@fuzz
@given(
    names=st.lists(st.text(max_size=8), max_size=4),
    filter=filters,
    sorting=sorts,
    defaults=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_saving_filters_never_fails(client: TestClient, headers, names, filter, sorting, defaults) -> None:
    items = [
        {"name": name, "filter": filter, "sorting": sorting, "isDefault": default}
        for name, default in zip(names, defaults, strict=False)
    ]
    version = client.get(f"{API}/account/filters", headers=headers).json().get("user", {}).get("version", 0)
    body = {"entityType": "user", "filters": items, "version": version}
    response = client.post(f"{API}/account/filters", json=body, headers=headers)
    assert response.status_code in (204, 400, 422), response.text
    if response.status_code == 204:
        saved = client.get(f"{API}/account/filters", headers=headers).json()["user"]
        assert saved == {"version": version + 1, "filters": items}
