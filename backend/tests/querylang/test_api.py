"""The shared list call shape (POST /user/query) and the filter editor's calls."""

from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from spot.config import get_settings
from spot.querylang import errors as e
from support import API, assert_error

QUERY = f"{API}/user/query"


@pytest.fixture
def people(make_user, db):
    users = {
        "amelie": make_user("amelie", first_name="Amélie", last_name="Œuvray", external_id="E-1"),
        "bruno": make_user("bruno", first_name="Bruno", last_name="Durand"),
        "chloe": make_user("chloe", first_name="Chloé", last_name="oeuvre"),
        # Who lists: the list of users is for those who manage them.
        "denis": make_user("denis", ["perm_UserManagement"], first_name="Denis", last_name="Zola"),
    }
    users["bruno"].groups.append(users["amelie"].groups[0])
    db.commit()
    return users


def logins(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [u["login"] for u in response.json()["results"]]


def test_users_are_listed_sorted_by_name_by_default(client: TestClient, people, login) -> None:
    response = client.post(QUERY, json={}, headers=login(people["denis"]))
    assert logins(response) == ["bruno", "amelie", "chloe", "denis"]  # Durand, Œuvray, oeuvre, Zola
    body = response.json()
    assert body["totalItems"] == 4
    assert set(body["results"][0]) >= {
        "id",
        "login",
        "firstName",
        "lastName",
        "externalId",
        "displayName",
        "groups",
    }


def test_filter_sort_and_pages(client: TestClient, people, login) -> None:
    headers = login(people["denis"])
    assert logins(client.post(QUERY, json={"filter": "last_name startsWith OEUV"}, headers=headers)) == [
        "amelie",
        "chloe",
    ]
    assert logins(
        client.post(
            QUERY,
            json={"filter": "first_name equals chloe | external_id equals e-1", "sort": "-login"},
            headers=headers,
        )
    ) == ["chloe", "amelie"]
    group = people["amelie"].groups[0].id
    assert logins(
        client.post(QUERY, json={"filter": f"group oneOf {group}", "sort": "login"}, headers=headers)
    ) == ["amelie", "bruno"]
    assert logins(
        client.post(QUERY, json={"filter": f"group noneOf {group}", "sort": "login"}, headers=headers)
    ) == ["chloe", "denis"]
    assert logins(
        client.post(QUERY, json={"filter": "external_id equals \\0", "sort": "login"}, headers=headers)
    ) == ["bruno", "chloe", "denis"]
    # The day of the organisation's time zone, as filters read it (not the UTC date, a day behind
    # in Paris between 23:00 and midnight UTC in winter).
    today = people["amelie"].created_at.astimezone(ZoneInfo(get_settings().timezone)).date().isoformat()
    assert (
        len(
            logins(
                client.post(QUERY, json={"filter": f"created_date beforeOrSameDay {today}"}, headers=headers)
            )
        )
        == 4
    )
    page = client.post(QUERY, json={"sort": "login", "page": 2, "pageSize": 3}, headers=headers)
    assert logins(page) == ["denis"]
    assert page.json()["totalItems"] == 4


@pytest.mark.parametrize(
    ("body", "field", "message", "position"),
    [
        ({"filter": "login contains a &"}, "filter", e.MISSING_TERM, 17),
        ({"filter": "password contains a"}, "filter", e.INVALID_FIELD, 0),
        ({"filter": "group oneOf x"}, "filter", e.INVALID_VALUE, 12),
        ({"filter": "created_date after 2026-1-1"}, "filter", e.INVALID_DATE, 19),
        ({"sort": "login,-group"}, "sort", e.INVALID_FIELD, 7),
    ],
)
def test_a_bad_query_answers_400_with_message_and_position(
    client: TestClient,
    people,
    login,
    body,
    field,
    message,
    position,
) -> None:
    response = client.post(QUERY, json=body, headers=login(people["denis"]))
    error = assert_error(response, 400, message)
    assert error["errors"] == [{"field": field, "code": message, "position": position}]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"pageSize": 201}, "pageSize"),
        ({"pageSize": 0}, "pageSize"),
        ({"page": 0}, "page"),
        ({"filter": "x" * 4001}, "filter"),
        ({"filter": 3}, "filter"),
    ],
)
def test_out_of_range_requests_answer_422(client: TestClient, people, login, body, field) -> None:
    body = assert_error(client.post(QUERY, json=body, headers=login(people["denis"])), 422)
    assert [err["field"] for err in body["errors"]] == [field]
    assert all("position" not in err for err in body["errors"])


def test_the_largest_page_is_accepted(client: TestClient, people, login) -> None:
    assert len(logins(client.post(QUERY, json={"pageSize": 200}, headers=login(people["denis"])))) == 4


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/user/query"),
        ("post", "/querylang/user/parse"),
        ("post", "/querylang/user/check"),
        ("get", "/querylang/user/fields"),
    ],
)
def test_signed_out_callers_get_401(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, API + path, json={} if method == "post" else None)
    assert_error(response, 401)


def test_parse_returns_the_trees(client: TestClient, people, login) -> None:
    text = "login contains a\\&b & (group oneOf 3,4 | created_date after 2026-01-01)"
    response = client.post(
        f"{API}/querylang/user/parse",
        json={"filter": text, "sort": "-last_name,login"},
        headers=login(people["denis"]),
    )
    assert response.status_code == 200, response.text
    assert response.json() == {
        "filter": {
            "kind": "and",
            "children": [
                {
                    "kind": "criterion",
                    "field": "login",
                    "operator": "contains",
                    "type": "string",
                    "value": "a&b",
                    "values": None,
                },
                {
                    "kind": "or",
                    "children": [
                        {
                            "kind": "criterion",
                            "field": "group",
                            "operator": "oneOf",
                            "type": "id",
                            "value": None,
                            "values": [3, 4],
                        },
                        {
                            "kind": "criterion",
                            "field": "created_date",
                            "operator": "after",
                            "type": "date",
                            "value": "2026-01-01",
                            "values": None,
                        },
                    ],
                },
            ],
        },
        "sort": [{"field": "last_name", "descending": True}, {"field": "login", "descending": False}],
    }


def test_parse_of_blank_texts_and_errors(client: TestClient, people, login) -> None:
    headers = login(people["denis"])
    response = client.post(f"{API}/querylang/user/parse", json={"filter": "  "}, headers=headers)
    assert response.json() == {"filter": None, "sort": []}
    response = client.post(f"{API}/querylang/user/parse", json={"filter": "(login equals a"}, headers=headers)
    body = assert_error(response, 400, e.NO_MATCHING_PARENTHESIS)
    assert body["errors"] == [{"field": "filter", "code": e.NO_MATCHING_PARENTHESIS, "position": 0}]
    response = client.post(f"{API}/querylang/user/parse", json={"sort": "-"}, headers=headers)
    assert assert_error(response, 400, e.EMPTY_TOKEN)["errors"][0]["field"] == "sort"


def test_check_answers_the_trees_or_the_errors_with_200(client: TestClient, people, login) -> None:
    headers = login(people["denis"])
    check = f"{API}/querylang/user/check"
    response = client.post(check, json={"filter": "login contains a"}, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["filter"]["field"] == "login"
    assert response.json()["errors"] == []
    response = client.post(check, json={"filter": "(login equals a"}, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "filter": None,
        "sort": [],
        "errors": [{"field": "filter", "code": e.NO_MATCHING_PARENTHESIS, "position": 0}],
    }
    response = client.post(check, json={"sort": "-"}, headers=headers)
    assert response.json()["errors"][0]["field"] == "sort"
    unknown = client.post(f"{API}/querylang/nothing/check", json={}, headers=headers)
    assert_error(unknown, 404, "unknownEntityType")


def test_unknown_entity_types_answer_404(client: TestClient, people, login) -> None:
    headers = login(people["denis"])
    assert_error(
        client.post(f"{API}/querylang/nothing/parse", json={}, headers=headers), 404, "unknownEntityType"
    )
    assert_error(client.get(f"{API}/querylang/nothing/fields", headers=headers), 404, "unknownEntityType")


def test_fields_describe_the_registry(client: TestClient, people, login) -> None:
    response = client.get(f"{API}/querylang/user/fields", headers=login(people["denis"]))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["entityType"] == "user"
    assert body["defaultSort"] == [
        {"field": "last_name", "descending": False},
        {"field": "first_name", "descending": False},
    ]
    by_name = {f["name"]: f for f in body["fields"]}
    assert set(by_name) == {
        "login",
        "first_name",
        "last_name",
        "external_id",
        "email",
        "active",
        "group",
        "created_date",
    }
    assert by_name["login"] == {
        "name": "login",
        "type": "string",
        "values": [],
        "filterable": True,
        "sortable": True,
        "operators": ["contains", "startsWith", "endsWith", "equals", "different"],
    }
    assert by_name["group"] == {
        "name": "group",
        "type": "id",
        "values": [],
        "filterable": True,
        "sortable": False,
        "operators": ["oneOf", "noneOf"],
    }
    assert by_name["created_date"]["operators"] == [
        "sameDay",
        "before",
        "beforeOrSameDay",
        "after",
        "afterOrSameDay",
    ]
